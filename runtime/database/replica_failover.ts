/**
 * What a read does when its read replica is down: MikroORM sends reads outside transactions to a
 * replica (`replicas` in its config) and, by itself, fails them while that replica is stopped or
 * unreachable. {@linkcode replicaFailover} makes such a read run on the primary instead (or fail
 * fast with the connection error, `DATABASE_UNAVAILABLE` under the `Deadline` plugin), skips the
 * replica for a while, then tries it again, so the server recovers on its own when the replica is
 * back.
 *
 * ```ts
 * const orm = await MikroORM.init({ ...options, replicas: [{ name: "replica-1", port: 5433 }] });
 * replicaFailover(orm, { whenDown: "primary", retryAfterMs: 5_000 });
 * ```
 *
 * @module
 */
import type { Connection, MikroORM } from "@mikro-orm/core";
import { bindConnections } from "./bound_connection.ts";
import { databaseFault } from "./database_faults.ts";

/** Options of {@linkcode replicaFailover}. */
export interface ReplicaFailoverOptions {
  /**
   * What a read does while its replica is down: `"primary"` (default) runs it on the primary;
   * `"error"` fails it with the replica's connection error (which the `Deadline` plugin
   * reports as `DATABASE_UNAVAILABLE`).
   */
  whenDown?: "primary" | "error";
  /**
   * How long reads skip a replica after it failed to answer, in milliseconds (default 5000); the
   * first read after that tries it again.
   */
  retryAfterMs?: number;
}

/**
 * Installs the failover on `orm`'s read replicas (the connections MikroORM keeps in its driver).
 * A statement on a replica that fails because the replica is unreachable (`databaseFault` says `"unavailable"`: refused, reset or terminated
 * connections, a server shutting down, a pool wait that timed out) is
 * re-run on the primary, or fails with that error; the replica is skipped for `retryAfterMs`. Statements of transactions never run on replicas and are untouched.
 *
 * @example A server reading from a streaming replica, the primary answering while it is down
 * ```ts
 * import { MikroORM } from "@mikro-orm/core";
 * import { createYoga } from "graphql-yoga";
 * import { mikrogqlPreset, replicaFailover } from "@mikrogql/ext";
 * import config from "./mikro-orm.config.ts";
 * import { createSchema } from "./generated/mod.ts";
 *
 * const orm = await MikroORM.init({
 *   ...config, // clientUrl: the primary
 *   replicas: [{ name: "replica-1", clientUrl: "postgres://app@replica-1:5432/app" }],
 * });
 * replicaFailover(orm, { whenDown: "primary", retryAfterMs: 5_000 });
 * const yoga = createYoga({
 *   schema: createSchema({ readFrom: "replica" }),
 *   context: () => ({ em: orm.em.fork() }),
 *   ...mikrogqlPreset({ txOpener: orm }),
 * });
 * ```
 *
 * @param orm the MikroORM instance whose config lists `replicas`
 * @throws Error naming `retryAfterMs` or `whenDown` when invalid, or when `orm` has no replicas
 */
export function replicaFailover(orm: MikroORM, options: ReplicaFailoverOptions = {}): void {
  const whenDown = options.whenDown ?? "primary";
  const retryAfterMs = options.retryAfterMs ?? 5000;
  if (!(retryAfterMs >= 0) || !Number.isFinite(retryAfterMs)) {
    throw new Error(`retryAfterMs must be a number of milliseconds >= 0, got ${retryAfterMs}`);
  }
  if (whenDown !== "primary" && whenDown !== "error") {
    throw new Error(`whenDown must be "primary" or "error", got ${JSON.stringify(whenDown)}`);
  }
  const driver = orm.em.getDriver();
  const primary = driver.getConnection("write");
  const replicas = (driver as unknown as { replicas?: Connection[] }).replicas ?? [];
  if (replicas.length === 0) {
    throw new Error("replicaFailover: the MikroORM config has no `replicas`");
  }
  // Bound parameters first, so the failover wraps the bound `execute` (bound_connection.ts).
  bindConnections(orm);
  for (const replica of replicas) {
    let downUntil = 0;
    let lastError: unknown;
    /** `run` on the replica, or on the primary (`onPrimary`) while it is down. */
    const failingOver = async <T>(run: () => Promise<T>, onPrimary: () => Promise<T>) => {
      if (Date.now() < downUntil) {
        if (whenDown === "error") throw lastError;
        return await onPrimary();
      }
      try {
        return await run();
      } catch (error) {
        if (databaseFault(error) !== "unavailable") throw error;
        downUntil = Date.now() + retryAfterMs;
        lastError = error;
        if (whenDown === "error") throw error;
        return await onPrimary();
      }
    };
    const execute = replica.execute.bind(replica);
    replica.execute = (async (...args: Parameters<Connection["execute"]>) => {
      // A transaction context (4th argument) runs on its own connection, never the replica's.
      if (args[3] !== undefined) return await execute(...args);
      return await failingOver(() => execute(...args), () => primary.execute(...args));
    }) as Connection["execute"];
  }
}
