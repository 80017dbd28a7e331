/**
 * A mutation's payload is what is stored: after the flush, the row written is read again from
 * the database (`em.refresh`, in the write's transaction), so the returned node holds what a
 * later read returns — a decimal as the column keeps it (`007.50` → `7.50`, `12.50` → `12.5` on
 * SQLite), a custom type's database value converted back (an upper-cased coupon code), a UUID in
 * PostgreSQL's lower case, defaults and values the database or a trigger set — rather than the
 * input echoed. Values a database cannot keep as given are refused before the write instead
 * (`column_values.ts`).
 *
 * @module
 */
import type { EntityManager } from "@mikro-orm/core";

/**
 * Reads `entity` (managed, just flushed) again from the database, in place. The read rules were
 * checked on the row already (`readable_after_write.ts`): the read is made without MikroORM's
 * filters, whose parameters a fork of the request's EntityManager would not carry.
 */
export async function readBackWritten(em: EntityManager, entity: object): Promise<void> {
  await em.refresh(entity, { filters: false });
}
