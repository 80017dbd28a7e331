/**
 * A mutation's payload is what is stored, and the row written must be one the request may read
 * (as PostgreSQL's row-level security refuses a row its `WITH CHECK` policy does not pass): after
 * the flush, the row written is read again from the database in one statement, through the
 * request's read rules (`em.refresh`, in the write's transaction, with the MikroORM filters
 * enabled on the EntityManager: the policies' read rules, `em.addFilter`'s, the config's with
 * their parameters, as `em.find` applies them). The returned node then holds what a later read
 * returns — a decimal as the column keeps it (`007.50` → `7.50`, `12.50` → `12.5` on SQLite), a
 * custom type's database value converted back (an upper-cased coupon code), a UUID in
 * PostgreSQL's lower case, defaults and values the database or a trigger set — rather than the
 * input echoed; and a row the read rules hide is refused. Values a database cannot keep as given
 * are refused before the write instead (`column_values.ts`).
 *
 * @module
 */
import type { EntityManager } from "@mikro-orm/core";
import { ErrorCode, gqlError } from "../error_codes.ts";
import type { NodeType } from "../graph.ts";

/**
 * Reads `entity` (managed, just flushed) again from the database, in place, through `em`'s
 * filters (the request's read rules): one `SELECT` by key, whose condition is the key and the
 * read rules, so a write whose row the request could not read is refused.
 *
 * @param type the node type of `entity`, named in the refusal
 * @param mode the write, named in the refusal
 * @throws GraphQLError `FORBIDDEN` when the row written cannot be read by the request (`entity`
 *   is then no longer managed by `em`: the write's transaction is rolled back)
 */
export async function readBackWritten(
  em: EntityManager,
  type: NodeType,
  entity: object,
  mode: "create" | "update",
): Promise<void> {
  if (await em.refresh(entity)) return;
  throw gqlError(
    ErrorCode.FORBIDDEN,
    `cannot ${mode} ${type.name}: the ${type.name} written would not be readable by this request`,
  );
}
