/**
 * Whether an ORM's connection pool is saturated (every connection in use), so `/ready` can tell
 * a busy pool from an unreachable database (`readiness.ts`): a `select 1` that waits for a
 * connection while all are in use says nothing about the database. Known for PostgreSQL pools
 * `openOrm` creates (node-postgres `pg-pool` 3: `totalCount`, `idleCount`, `waitingCount`,
 * `options.max`); other ORMs are never reported saturated.
 *
 * @module
 */

/** What {@linkcode poolSaturation} reads of a `pg` Pool. */
export interface CountedPool {
  readonly totalCount: number;
  readonly idleCount: number;
  readonly waitingCount: number;
  readonly options: { max?: number };
}

const POOLS = new WeakMap<object, () => CountedPool | undefined>();

/** Registers `pool()`, the pool of `orm` once created (node-postgres creates it on first use). */
export function registerPool(orm: object, pool: () => CountedPool | undefined): void {
  POOLS.set(orm, pool);
}

/**
 * Why `orm`'s pool is saturated (`all 10 connections in use, 3 checkouts waiting`), or
 * `undefined` when a connection is free or may be opened, or the pool is unknown.
 */
export function poolSaturation(orm: object): string | undefined {
  const pool = POOLS.get(orm)?.();
  if (!pool) return undefined;
  const max = pool.options.max ?? 10;
  if (pool.idleCount > 0 || pool.totalCount < max) return undefined;
  return `all ${pool.totalCount} connections in use, ${pool.waitingCount} checkouts waiting`;
}
