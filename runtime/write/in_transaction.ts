/**
 * A write and the checks after it as one unit: in the EntityManager's transaction (the
 * Transactioner's), or in one of its own.
 *
 * @module
 */
import type { EntityManager } from "@mikro-orm/core";

/**
 * Runs `write` in `em`'s transaction, or in one of its own when `em` is in none (committed when
 * `write` returns, rolled back when it throws), so a write and the checks after it are one unit.
 *
 * @returns what `write` returns
 * @throws what `write` throws, after the rollback of a transaction of its own
 */
export async function inTransaction<T>(em: EntityManager, write: () => Promise<T>): Promise<T> {
  if (em.isInTransaction()) return await write();
  await em.begin();
  try {
    const result = await write();
    await em.commit();
    return result;
  } catch (error) {
    await em.rollback();
    throw error;
  }
}
