/**
 * The one seam where every statement MikroORM runs for the runtime reaches its driver with bound
 * parameters. MikroORM 7's `AbstractSqlConnection.execute` formats every value into the SQL text
 * (`platform.formatQuery`) and hands Kysely that text alone; {@linkcode bindConnections} replaces
 * `execute` on an ORM's connections (the primary and every read replica) with the same method
 * that hands Kysely the text and the values apart (`CompiledQuery.raw(sql, params)`, the values
 * converted by `bound_parameters.ts`). Everything else of MikroORM's `execute` is kept, in its
 * order: `ensureConnection`, `onQuery` (the hook receives MikroORM's `?` text and its values),
 * raw fragments and named parameters, the abort signal and in-flight abort strategy carried on
 * the logger context (a statement is stopped in the database when the signal fires,
 * `cancellable_statement.ts`), the transaction (`ctx`), the result's shape per method
 * (`transformRawResult`), and the statement log (`executeQuery` → `logQuery`: the logger, the
 * slow-query log, `server/orm_statements.ts`), which shows the `?` text, or the formatted one
 * when the logger's `query-params` namespace is on, as MikroORM logs. A statement of more
 * parameters than its database binds is refused before it goes out (`parameter_limit.ts`).
 *
 * So `em.find`/`em.count` (inheritance, embeddables, formulas), `em.flush` (inserts, updates,
 * deletes), the QueryBuilder (`qb.execute`), the Transactioner's and MikroORM's session
 * statements (`set_config`), and the runtime's own reads (`bound_statement.ts`) share one path.
 * What the databases receive: PostgreSQL, the extended protocol's parse/bind with an unnamed
 * statement (which PgBouncer in transaction mode allows); SQLite, a `node:sqlite` prepared
 * statement with bound values; MariaDB/MySQL, mysql2's `query(sql, values)` (Kysely's MySQL
 * dialect), which escapes the values into the text with the driver's own escaping (why not its
 * `execute`: ARCHITECTURE.md, "Databases and infrastructure"). A statement without values goes
 * out as MikroORM sends it (the simple protocol on PostgreSQL: schema dumps with many statements
 * keep working).
 *
 * Installed by `openOrm` (`server/open_orm.ts`), by `replicaFailover` before it wraps the
 * replicas, by the `Transactioner` and by `fromContext` (the first request on an ORM a user
 * opened with `MikroORM.init`); installing twice does nothing. Replaced on the connection object,
 * not on MikroORM's classes: other ORMs of the process are untouched.
 *
 * @module
 */
import {
  type Configuration,
  type Connection,
  isRaw,
  type LogContext,
  type Platform,
  raw,
  type RawQueryFragment,
  type Transaction,
} from "@mikro-orm/core";
import { NativeQueryBuilder } from "@mikro-orm/sql";
import { CompiledQuery } from "kysely";
import { bindParameters } from "./bound_parameters.ts";
import { checkParameterCount } from "./parameter_limit.ts";
import { unmarkValues } from "./value_markers.ts";
import { type CancellableExecutor, runCancellable } from "./cancellable_statement.ts";
import { exactArrayLiterals } from "./array_literals.ts";

/** What `bindConnections` reads of an ORM, an EntityManager or a driver: its driver. */
export interface DriverOwner {
  getDriver?(): unknown;
  readonly em?: { getDriver(): unknown };
}

/** The members of MikroORM's `AbstractSqlConnection` the bound `execute` uses (some protected). */
interface SqlConnection {
  readonly config: Configuration;
  readonly platform: Platform;
  ensureConnection(): Promise<void>;
  getClient(): { executeQuery(query: CompiledQuery, abort?: unknown): Promise<unknown> };
  executeQuery<T>(query: string, cb: () => Promise<T>, context?: object): Promise<T>;
  transformRawResult<T>(res: unknown, method?: "all" | "get" | "run"): T;
  execute: Connection["execute"];
}

const BOUND = new WeakSet<object>();

/**
 * Makes every statement of `owner`'s ORM (a `MikroORM`, an EntityManager, or a driver) go out
 * with bound parameters: replaces `execute` on its primary connection and its read replicas
 * (once; later calls return at once), and installs the exact array literals of
 * `array_literals.ts` on its platform.
 */
export function bindConnections(owner: DriverOwner): void {
  const driver = (owner.getDriver?.() ?? owner.em?.getDriver() ?? owner) as {
    getConnection?(type: "write"): Connection;
    getPlatform?(): Platform;
    replicas?: Connection[];
  };
  if (BOUND.has(driver) || typeof driver.getConnection !== "function") return;
  BOUND.add(driver);
  // String arrays written element for element (`array_literals.ts`), on the same ORMs.
  const platform = driver.getPlatform?.();
  if (platform) exactArrayLiterals(platform);
  for (const connection of [driver.getConnection("write"), ...(driver.replicas ?? [])]) {
    if (BOUND.has(connection)) continue;
    BOUND.add(connection);
    (connection as unknown as SqlConnection).execute = boundExecute as Connection["execute"];
  }
}

/** MikroORM's `AbstractSqlConnection.execute`, the values bound rather than formatted in. */
async function boundExecute(
  this: SqlConnection,
  query: string | NativeQueryBuilder | RawQueryFragment,
  params: readonly unknown[] | Record<string, unknown> = [],
  method: "all" | "get" | "run" = "all",
  ctx?: Transaction,
  loggerContext?: LogContext,
): Promise<unknown> {
  await this.ensureConnection();
  let text: string;
  let values: readonly unknown[];
  // As MikroORM's `prepareQuery`: a native builder's raw fragment, named parameters, a fragment.
  let q: unknown = query instanceof NativeQueryBuilder ? query.toRaw() : query;
  if (typeof q === "string" && !Array.isArray(params)) q = raw(q, params as never);
  if (isRaw(q)) {
    text = q.sql;
    values = q.params;
  } else {
    text = q as string;
    values = params as readonly unknown[];
  }
  // Values the runtime wrote into its own SQL fragments as markers become parameters here.
  ({ sql: text, params: values } = unmarkValues(text, values));
  text = this.config.get("onQuery")(text, values as unknown[]);
  const bound = bindParameters(this.platform, text, values);
  checkParameterCount(this.platform, bound.params.length);
  const logger = this.config.getLogger();
  const logged = logger.isEnabled("query", loggerContext) &&
      logger.isEnabled("query-params", loggerContext)
    ? this.platform.formatQuery(text, values as unknown[])
    : text;
  const { signal, inflightQueryAbortStrategy, ...logContext } = loggerContext ??
    {} as LogContext & { signal?: AbortSignal; inflightQueryAbortStrategy?: string };
  const abort = signal == null && inflightQueryAbortStrategy == null
    ? undefined
    : { signal, inflightQueryAbortStrategy };
  return await this.executeQuery(logged, async () => {
    const compiled = CompiledQuery.raw(bound.sql, bound.params);
    const executor = (ctx ?? this.getClient()) as unknown as CancellableExecutor;
    return this.transformRawResult(await runCancellable(executor, compiled, abort), method);
  }, { query: text, params: values, ...logContext });
}
