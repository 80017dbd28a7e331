/**
 * The check after a create or update that the row written is one the request may read, as
 * PostgreSQL's row-level security refuses a row its `WITH CHECK` policy does not pass.
 *
 * @module
 */
import type { EntityManager } from "@mikro-orm/core";
import { ErrorCode, gqlError } from "../error_codes.ts";
import type { NodeType } from "../graph.ts";
import { keyFilter, primaryKeyOf } from "../keys.ts";
import { findRows } from "../read/find_rows.ts";
import { readFiltered } from "../plan/read_filters.ts";

/**
 * Reads the row just written back through `em`'s filters (the request's read rules), unless the
 * entity has none: a write whose row the request could not read is refused.
 *
 * @param entity the entity just flushed
 * @throws GraphQLError `FORBIDDEN` when the row cannot be read
 */
export async function checkReadableAfterWrite(
  em: EntityManager,
  type: NodeType,
  entity: Record<string, unknown>,
  mode: "create" | "update",
): Promise<void> {
  if (!await readFiltered(em, type.entity)) return;
  const pk = primaryKeyOf(type, entity) as string | number;
  const [row] = await findRows(em, type, keyFilter(type, pk), { fields: [type.id.prop] });
  if (!row) {
    throw gqlError(
      ErrorCode.FORBIDDEN,
      `cannot ${mode} ${type.name}: the ${type.name} written would not be readable by this request`,
    );
  }
}
