/**
 * `openOrm`: a MikroORM instance from a database URL, for SQLite (Deno's built-in
 * `node:sqlite`), PostgreSQL and MariaDB/MySQL, with the settings a server wants (a bounded wait
 * for a connection, a statement timeout on MariaDB). The URL's scheme picks the driver, whose
 * module is imported only then: a SQLite server loads neither `pg` nor `mysql2`.
 *
 * @module
 */
import { type EntityName, MikroORM, type Options } from "@mikro-orm/core";
import { SqliteDriver } from "@mikro-orm/sql";
import { exactSqliteDialect } from "./sqlite_dialect.ts";
import { exactFloatTypeCast } from "./mariadb_type_cast.ts";
import { CompiledQuery, type DatabaseConnection } from "kysely";
import { bindConnections } from "../runtime/database/bound_connection.ts";
import { lightenForks } from "../runtime/light_forks.ts";
import { armTimerOnlyToWait, type CheckoutPool } from "./pool_checkout.ts";
import { type CountedPool, registerPool } from "./pool_saturation.ts";
import { prepareStatements, type PreparingPool } from "./prepared_statements.ts";

/** Options of {@linkcode openOrm}. */
export interface OpenOrmOptions {
  /** The entities: classes, `defineEntity` results or `EntitySchema`s. */
  // deno-lint-ignore no-explicit-any
  entities: EntityName<any>[];
  /**
   * Where the database is: `sqlite:app.db` (a file, created when missing), `sqlite::memory:` or
   * `undefined` (in memory), `postgres://user:password@host:5432/db` (or `postgresql://`),
   * `mariadb://user:password@host:3306/db` (or `mysql://`).
   */
  url?: string;
  /** Called with each SQL statement MikroORM runs (its query logger; the text is MikroORM's). */
  onQuery?: (sql: string) => void;
  /**
   * More MikroORM options, applied last (`pool`, `replicas`, `filters`, `debug`, ...); a
   * `driverOptions` here replaces the settings below on SQLite and MariaDB (MariaDB's
   * `typeCast`: `exactFloatTypeCast`, so doubles read back exactly). PostgreSQL:
   * `pool` is merged over `{ idleTimeoutMillis: 0 }` (idle connections stay open until the ORM
   * closes), `driverOptions` over `{ connectionTimeoutMillis: connectionWaitMs, onPoolCreated }`
   * (the pool arms its checkout timer only for a checkout that may wait: `pool_checkout.ts`).
   */
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
  /**
   * PostgreSQL: how many statement texts each pool connection keeps as named prepared statements
   * (the database parses and plans each once per connection: `prepared_statements.ts`); default
   * 100, 0 for none. Behind a connection pooler on a port of its own (PgBouncer) none are named.
   */
  preparedStatements?: number;
}

/** The database a URL selects. */
export type DatabaseKind = "sqlite" | "postgresql" | "mariadb";

/**
 * The database of a URL: `sqlite:` (or no URL), `postgres://`/`postgresql://`,
 * `mariadb://`/`mysql://`.
 *
 * @example
 * ```ts
 * import { databaseKindOf } from "@mikrogql/ext/server";
 * databaseKindOf("postgres://app@db:5432/app"); // "postgresql"
 * ```
 *
 * @throws Error naming the URL when its scheme is none of these
 */
export function databaseKindOf(url: string | undefined): DatabaseKind {
  if (!url || url.startsWith("sqlite:")) return "sqlite";
  if (/^postgres(ql)?:\/\//.test(url)) return "postgresql";
  if (/^(mariadb|mysql):\/\//.test(url)) return "mariadb";
  throw new Error(
    `unsupported database URL ${JSON.stringify(url)}: use sqlite:, postgres:// or mariadb://`,
  );
}

/**
 * Opens and connects a MikroORM instance on the database of `options.url`, every statement of
 * which (`em.find`, `em.flush`, the QueryBuilder, the runtime's reads) sends its values as bound
 * parameters, never in the SQL text. It creates no tables: call `await orm.schema.update({ safe: true })` (adds missing tables and columns,
 * drops nothing) or run your migrations.
 *
 * @example A server's ORM from the environment, SQLite when `DATABASE_URL` is unset
 * ```ts
 * import { openOrm } from "@mikrogql/ext/server";
 * import { Comment } from "./entities/comment.ts";
 * import { Photo } from "./entities/photo.ts";
 * import { Post } from "./entities/post.ts";
 * import { User } from "./entities/user.ts";
 *
 * const orm = await openOrm({
 *   url: Deno.env.get("DATABASE_URL") ?? "sqlite:app.db",
 *   entities: [User, Photo, Post, Comment],
 *   extra: { pool: { max: 10 } },
 * });
 * await orm.schema.update({ safe: true });
 * ```
 *
 * @throws Error for an unsupported URL, or MikroORM's error when it cannot connect (an
 *   unreachable server, a wrong password, a missing database)
 */
export async function openOrm(options: OpenOrmOptions): Promise<MikroORM> {
  const orm = await init(options);
  bindConnections(orm);
  lightenForks(orm);
  return orm;
}

/** MikroORM, initialised and connected, for the database of `options.url`. */
async function init(options: OpenOrmOptions): Promise<MikroORM> {
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
  switch (databaseKindOf(options.url)) {
    case "sqlite": {
      const path = options.url?.slice("sqlite:".length) || ":memory:";
      return await MikroORM.init({
        driver: SqliteDriver,
        dbName: path,
        driverOptions: exactSqliteDialect(path),
        ...common,
      } as Options);
    }
    case "postgresql": {
      const { PostgreSqlDriver } = await import("@mikro-orm/postgresql");
      let created: (CheckoutPool & PreparingPool & CountedPool) | undefined;
      const orm = await MikroORM.init(
        {
          driver: PostgreSqlDriver,
          clientUrl: options.url,
          ...common,
          // No statement_timeout startup parameter: PgBouncer refuses it. PostgreSQL statements are
          // bounded by the Deadline plugin (cancel) and the Transactioner (SET LOCAL) instead. A
          // checkout arms its timer only when it may wait (`pool_checkout.ts`); statements with
          // values are named prepared statements (`prepared_statements.ts`).
          driverOptions: {
            connectionTimeoutMillis: connectionWaitMs,
            onPoolCreated: (pool: CheckoutPool & PreparingPool & CountedPool) => {
              created = pool;
              armTimerOnlyToWait(pool);
              prepareStatements(pool, options.preparedStatements ?? 100);
            },
            ...options.extra?.driverOptions as object | undefined,
          },
          // Idle connections stay open (as a fixed-size pool): node-postgres would otherwise arm
          // a timer each time a connection goes back to the pool above its minimum, that is after
          // nearly every statement under load. `extra.pool.idleTimeoutMillis` closes them.
          pool: { idleTimeoutMillis: 0, ...options.extra?.pool },
        } as Options,
      );
      // `/ready` tells a saturated pool from an unreachable database (`pool_saturation.ts`)
      registerPool(orm, () => created);
      return orm;
    }
    case "mariadb": {
      const { MariaDbDriver } = await import("@mikro-orm/mariadb");
      const clientUrl = options.url!.replace(/^mysql:/, "mariadb:");
      return await MikroORM.init(
        {
          driver: MariaDbDriver,
          clientUrl,
          // doubles read back exactly (mysql2's own parse loses digits past 2^53)
          driverOptions: { connectTimeout: connectionWaitMs, typeCast: exactFloatTypeCast },
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
