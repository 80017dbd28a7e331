/**
 * A node-postgres pool that arms its checkout timer only for a checkout that may wait.
 *
 * `pg-pool` 3 bounds a checkout by `connectionTimeoutMillis` with a timer armed on every
 * `connect()`, also when an idle connection is there to take (it is handed over on the next
 * tick): under load that is a timer set, unref'd and cleared per statement, some 2 µs of CPU each
 * under Deno's `node:timers`. {@linkcode armTimerOnlyToWait} makes a checkout that an idle
 * connection will serve (more idle connections than waiting checkouts) skip the timer; a
 * checkout that may wait keeps it, so an exhausted pool still answers within
 * `connectionTimeoutMillis` (`DATABASE_UNAVAILABLE`, tests/graphql/faults_test.ts). A checkout
 * served by an idle connection that closes before the next tick gets a new connection, bounded
 * by the same timeout when it connects.
 *
 * Installed by `openOrm` through MikroORM's `driverOptions.onPoolCreated`.
 *
 * @module
 */

/** What {@linkcode armTimerOnlyToWait} uses of a `pg` Pool (`pg-pool` 3). */
export interface CheckoutPool {
  readonly idleCount: number;
  readonly waitingCount: number;
  readonly options: { connectionTimeoutMillis?: number };
  connect(...args: unknown[]): unknown;
}

/**
 * Replaces `pool.connect` with one that arms the checkout timer only when the checkout may wait
 * (see the module documentation).
 *
 * @example
 * ```ts
 * import pg from "pg";
 * import { armTimerOnlyToWait } from "./pool_checkout.ts";
 *
 * const pool = new pg.Pool({ connectionTimeoutMillis: 5_000, max: 10 });
 * armTimerOnlyToWait(pool);
 * ```
 */
export function armTimerOnlyToWait(pool: CheckoutPool): void {
  const connect = pool.connect;
  pool.connect = function (this: CheckoutPool, ...args: unknown[]) {
    const timeout = this.options.connectionTimeoutMillis;
    if (!timeout || args.length > 0 || this.idleCount <= this.waitingCount) {
      return connect.apply(this, args);
    }
    this.options.connectionTimeoutMillis = 0;
    try {
      return connect.call(this);
    } finally {
      this.options.connectionTimeoutMillis = timeout;
    }
  };
}
