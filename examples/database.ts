/**
 * Opens a MikroORM instance for the examples and tests: embedded SQLite through Deno's built-in
 * `node:sqlite` by default, PostgreSQL for `postgres://` URLs, MariaDB/MySQL for `mariadb://` or
 * `mysql://` URLs; with a bounded wait for a connection (and a statement timeout on MariaDB).
 *
 * @module
 */
import { type EntityName, MikroORM, type Options } from "@mikro-orm/core";
import { NodeSqliteDialect, SqliteDriver } from "@mikro-orm/sql";
import { CompiledQuery, type DatabaseConnection } from "kysely";

/** Options of {@linkcode openDatabase}. */
export interface DatabaseOptions {
  /** The entities. */
  // deno-lint-ignore no-explicit-any
  entities: EntityName<any>[];
  /**
   * `undefined` or `sqlite::memory:` for an in-memory SQLite database, `sqlite:<path>` for a file,
   * `postgres://user@host:port/db`, `mariadb://user@host:port/db` (or `mysql://`).
   */
  url?: string;
  /** Called with each SQL statement MikroORM runs (its query logger). */
  onQuery?: (sql: string) => void;
  /** Extra MikroORM options (a `driverOptions` here replaces the two settings below). */
  extra?: Partial<Options>;
  /**
   * MariaDB/MySQL: server-side timeout of every statement, in milliseconds (`max_statement_time`,
   * set on each new connection); default 30,000. A safety net behind the request budget of the
   * `Deadline` plugin. (PostgreSQL gets no connection-wide timeout, which PgBouncer would refuse
   * as a startup parameter; the Transactioner sets one per transaction.)
   */
  statementTimeoutMs?: number;
  /**
   * How long a request waits for a PostgreSQL connection (from the pool or a new one) before
   * failing, in milliseconds (node-postgres `connectionTimeoutMillis`); default 5,000. MariaDB:
   * how long opening a connection may take (mysql2 `connectTimeout`).
   */
  connectionWaitMs?: number;
}

/** The dialect a URL selects. */
export type Dialect = "sqlite" | "postgresql" | "mariadb";

/**
 * The dialect of a database URL.
 *
 * @throws Error naming the URL when its scheme is not supported
 */
export function dialectOf(url: string | undefined): Dialect {
  if (!url || url.startsWith("sqlite:")) return "sqlite";
  if (/^postgres(ql)?:\/\//.test(url)) return "postgresql";
  if (/^(mariadb|mysql):\/\//.test(url)) return "mariadb";
  throw new Error(
    `unsupported database URL ${JSON.stringify(url)}: use sqlite:, postgres:// or mariadb://`,
  );
}

/**
 * Opens (and connects) a MikroORM instance. The schema is not created; call
 * `orm.schema.refresh()` or `orm.schema.update()`.
 *
 * @throws Error for an unsupported URL, or MikroORM's connection error
 */
export async function openDatabase(
  options: DatabaseOptions,
): Promise<MikroORM> {
  const logging: Partial<Options> = options.onQuery
    ? {
      debug: ["query"],
      logger: (message: string) => {
        const sql = message.replace(/^\[query\]\s*/, "");
        if (message.startsWith("[query]")) options.onQuery!(sql);
      },
      colors: false,
    }
    : {};
  const common = { entities: options.entities, ...logging, ...options.extra };
  const statementTimeoutMs = options.statementTimeoutMs ?? 30_000;
  const connectionWaitMs = options.connectionWaitMs ?? 5_000;
  switch (dialectOf(options.url)) {
    case "sqlite": {
      const path = options.url?.slice("sqlite:".length) || ":memory:";
      return await MikroORM.init({
        driver: SqliteDriver,
        dbName: path,
        driverOptions: new NodeSqliteDialect(path),
        ...common,
      } as Options);
    }
    case "postgresql": {
      const { PostgreSqlDriver } = await import("@mikro-orm/postgresql");
      return await MikroORM.init(
        {
          driver: PostgreSqlDriver,
          clientUrl: options.url,
          // No statement_timeout startup parameter: PgBouncer refuses it. PostgreSQL statements are
          // bounded by the Deadline plugin (cancel) and the Transactioner (SET LOCAL) instead.
          driverOptions: { connectionTimeoutMillis: connectionWaitMs },
          ...common,
        } as Options,
      );
    }
    case "mariadb": {
      const { MariaDbDriver } = await import("@mikro-orm/mariadb");
      const clientUrl = options.url!.replace(/^mysql:/, "mariadb:");
      return await MikroORM.init(
        {
          driver: MariaDbDriver,
          clientUrl,
          driverOptions: { connectTimeout: connectionWaitMs },
          onCreateConnection: (connection: DatabaseConnection) =>
            connection.executeQuery(
              CompiledQuery.raw(`set session max_statement_time = ${statementTimeoutMs / 1000}`),
            ),
          ...common,
        } as Options,
      );
    }
  }
}
