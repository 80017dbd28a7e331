/**
 * Named prepared statements on PostgreSQL: a statement with parameters that a connection already
 * ran goes out as Bind/Execute of a statement the server parsed and planned before, instead of
 * Parse/Bind/Execute of an unnamed one. The database then skips parsing and planning: measured
 * with node-postgres on this project's machine (10 concurrent clients, a page of comments by
 * `post_id`), PostgreSQL's CPU per statement fell from ~95 to ~50 µs and statements per second
 * rose by ~40%. PostGraphile does the same (`@dataplan/pg`: a cache of 100 statements per
 * connection).
 *
 * {@linkcode prepareStatements} installs it on a node-postgres pool (through MikroORM's
 * `driverOptions.onPoolCreated`, as `openOrm` does): each new connection's `query(text, values)`
 * with values names its text (`mikrogql_<n>`) from a cache of `size` texts per connection, the
 * least recently used one deallocated when a new text needs the room. Statements without values
 * (`begin`, `set_config` batches) keep the simple protocol.
 *
 * A connection pooler in transaction mode hands a client's statements to any server connection,
 * where a statement prepared on another is unknown (PgBouncer before 1.21, or without
 * `max_prepared_statements`): each new connection therefore first asks the server which port it
 * accepted the connection on (`inet_server_port()`), and names statements only when that is the
 * port the pool connects to (or a Unix socket); behind PgBouncer on its own port it does not.
 * Until the answer arrives, statements go out unnamed. A named statement that fails because the
 * server no longer knows it, or because a schema change altered its result type, is forgotten, so
 * the next run prepares it again.
 *
 * @module
 */

/** What {@linkcode prepareStatements} uses of a node-postgres client. */
interface PgClient {
  readonly port?: number;
  readonly host?: string;
  readonly connection?: { parsedStatements?: Record<string, string> };
  query(config: unknown, values?: unknown, callback?: unknown): unknown;
  on(event: "end", listener: () => void): unknown;
}

/** What {@linkcode prepareStatements} uses of a node-postgres pool. */
export interface PreparingPool {
  on(event: "connect", listener: (client: PgClient) => void): unknown;
}

/** SQLSTATEs after which a named statement is prepared again: unknown, result type changed. */
const FORGET = new Set(["26000", "0A000"]);

/**
 * Names the statements of `pool`'s connections (see the module documentation).
 *
 * @param size how many statement texts each connection keeps prepared; 0 names none
 * @example
 * ```ts
 * import pg from "pg";
 * import { prepareStatements } from "./prepared_statements.ts";
 *
 * const pool = new pg.Pool({ connectionString: "postgres://postgres@127.0.0.1:5432/test" });
 * prepareStatements(pool, 100);
 * ```
 */
export function prepareStatements(pool: PreparingPool, size = 100): void {
  if (!(size > 0)) return;
  let next = 0;
  pool.on("connect", (client) => {
    const query = client.query;
    /** Text -> name, least recently used first. */
    const names = new Map<string, string>();
    let direct = false;
    (query.call(client, "select inet_server_port() as port") as Promise<unknown>).then(
      (result) => {
        const port = (result as { rows: { port: number | null }[] }).rows[0]?.port;
        direct = port == null || port === Number(client.port ?? 5432);
      },
      () => {},
    );
    const forget = (text: string, name: string) => {
      names.delete(text);
      delete client.connection?.parsedStatements?.[name];
    };
    client.query = function (config: unknown, values?: unknown, callback?: unknown) {
      if (
        !direct || typeof config !== "string" || !Array.isArray(values) || values.length === 0 ||
        callback !== undefined
      ) {
        return query.call(this, config, values, callback);
      }
      let name = names.get(config);
      if (name !== undefined) {
        names.delete(config);
        names.set(config, name);
      } else {
        if (names.size >= size) {
          const [oldest, dropped] = names.entries().next().value as [string, string];
          forget(oldest, dropped);
          (query.call(this, `deallocate "${dropped}"`) as Promise<unknown>).catch(() => {});
        }
        names.set(config, name = `mikrogql_${next++}`);
      }
      const text = config;
      const statement = name;
      return (query.call(this, { name, text, values }) as Promise<unknown>).catch(
        (error: { code?: string }) => {
          if (FORGET.has(error?.code ?? "")) forget(text, statement);
          throw error;
        },
      );
    };
  });
}
