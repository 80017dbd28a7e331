/**
 * One statement on Kysely, stopped in the database when its abort signal fires (the `Deadline`
 * plugin's signal: the request's time budget spent, or its client gone), at the cost of one
 * listener.
 *
 * Kysely 0.29 takes its cancellation flow for every statement that carries a signal (a controlled
 * connection with two deferred promises, the session's id collected, two `Promise.race`s): some
 * 10 µs of CPU per statement, for the rare statement a budget outlives. Here a statement runs on
 * the connection Kysely provides, as without a signal, and only an abort does the work: it calls
 * the connection's own `cancelQuery` (PostgreSQL `pg_cancel_backend`, MariaDB `KILL QUERY`) or
 * `killSession` through a control connection, as Kysely's flow would; the statement then fails
 * with the database's cancellation error. A signal that fired before the statement starts (or
 * while it waited for a pool connection) stops it before it is sent, with the signal's reason.
 *
 * Kysely's own flow is kept for an executor with plugins (which transform results) and for a
 * strategy the connection does not support (Kysely names it in its error).
 *
 * @module
 */
import type { CompiledQuery, DatabaseConnection, QueryResult } from "kysely";

/** The abort options MikroORM hands a statement (`em.fork({ signal, ... })`). */
export interface StatementAbort {
  signal?: AbortSignal;
  inflightQueryAbortStrategy?: string;
}

/** What {@linkcode runCancellable} uses of a Kysely instance or transaction. */
export interface CancellableExecutor {
  executeQuery(query: CompiledQuery, abort?: StatementAbort): Promise<QueryResult<unknown>>;
  getExecutor(): {
    readonly plugins: readonly unknown[];
    provideConnection<T>(consumer: (connection: DatabaseConnection) => Promise<T>): Promise<T>;
  };
}

/** The stopping methods Kysely's connections have (PostgreSQL, MySQL/MariaDB). */
interface StoppableConnection extends DatabaseConnection {
  collectSessionInfo?(): Promise<void>;
  cancelQuery?(control: unknown): Promise<void>;
  killSession?(control: unknown): Promise<void>;
}

/**
 * Runs `query` on `kysely` (the ORM's client or its open transaction), stopped in the database
 * when `abort.signal` fires (see the module documentation).
 *
 * @throws the signal's reason when it fired before the statement was sent; the database's error
 *   (cancellation included) otherwise
 */
export async function runCancellable(
  kysely: CancellableExecutor,
  query: CompiledQuery,
  abort: StatementAbort | undefined,
): Promise<QueryResult<unknown>> {
  const signal = abort?.signal;
  if (!signal) return await kysely.executeQuery(query);
  const executor = kysely.getExecutor();
  if (executor.plugins.length > 0) return await kysely.executeQuery(query, abort);
  signal.throwIfAborted();
  const strategy = abort.inflightQueryAbortStrategy ?? "ignore query";
  let unsupported = false;
  const result = await executor.provideConnection(async (connection: StoppableConnection) => {
    signal.throwIfAborted();
    const stop = strategy === "cancel query"
      ? connection.cancelQuery
      : strategy === "kill session"
      ? connection.killSession
      : undefined;
    if (strategy !== "ignore query" && !stop) {
      unsupported = true;
      return undefined;
    }
    if (!stop) return await connection.executeQuery(query);
    // The session's id (PostgreSQL's backend pid, MariaDB's thread id), read before the
    // statement occupies the connection, as Kysely does.
    await connection.collectSessionInfo?.();
    signal.throwIfAborted();
    const control = (consumer: (connection: DatabaseConnection) => Promise<unknown>) =>
      executor.provideConnection(consumer);
    // The connection goes back to the pool only once a stop has settled, so that a stop never
    // reaches another request's statement on it (the connection also checks which statement it
    // runs before stopping it).
    let stopping: Promise<void> | undefined;
    const onAbort = () => stopping = stop.call(connection, control).catch(() => {});
    signal.addEventListener("abort", onAbort, { once: true });
    try {
      return await connection.executeQuery(query);
    } finally {
      signal.removeEventListener("abort", onAbort);
      await stopping;
    }
  });
  // Kysely's flow, for its error naming the strategy the dialect lacks.
  return unsupported ? await kysely.executeQuery(query, abort) : result!;
}
