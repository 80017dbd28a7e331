/**
 * Every read statement of the runtime runs here, with its values as bound parameters: the SQL
 * text MikroORM's QueryBuilder builds (`qb.toQuery()`, `?` placeholders) goes to the database
 * driver with its values beside it (PostgreSQL `$1, $2, ...`, MariaDB/MySQL and SQLite `?`),
 * never formatted into the text. MikroORM 7's own `Connection.execute` inlines every value
 * (`platform.formatQuery`) before handing the text to Kysely; this module does what it does
 * otherwise, in the same order and on the same objects: the connection's `onQuery` hook, the
 * request's transaction (`em.getTransactionContext()`), its abort signal and in-flight abort
 * strategy (`Deadline`'s fork options), a session context (row-level security) in a short
 * transaction, the connection's query logging (`logQuery`: the logger, the slow-query log,
 * `server/orm_statements.ts`), and the read connection the statement was built for (a replica,
 * with `replica_failover.ts`'s failover, or the primary).
 *
 * Values are converted as MikroORM's platform would before quoting them (dates in the
 * platform's format and time zone, JSON objects as text, booleans as 1/0 on SQLite, bigints as
 * text on PostgreSQL); a list value (`in (?)` of a raw fragment) becomes one placeholder per
 * element; a nested `raw()` fragment is spliced in with its own parameters. What the database
 * receives: PostgreSQL, the extended protocol's parse/bind with the values apart from the text
 * (an unnamed statement, so PgBouncer in transaction mode works); SQLite, a prepared
 * `node:sqlite` statement with bound values; MariaDB/MySQL, mysql2's `query(sql, values)` (Kysely's
 * MySQL dialect), which escapes the values into the text it sends with its own escaping.
 *
 * @module
 */
import {
  type Connection,
  type ConnectionType,
  type EntityManager,
  isRaw,
  JsonProperty,
  type Transaction,
  Utils,
} from "@mikro-orm/core";
import type { AbstractSqlPlatform } from "@mikro-orm/sql";
import { CompiledQuery } from "kysely";
import { type Dialect, dialectOf } from "../dialect.ts";

type Row = Record<string, unknown>;

/** A statement as MikroORM's QueryBuilder builds it: SQL with `?` placeholders and its values. */
export interface Statement {
  readonly sql: string;
  readonly params: readonly unknown[];
}

/**
 * What {@linkcode readRows} reads of a QueryBuilder besides its statement: MikroORM's own state
 * of it (set by `em.createQueryBuilder`), which `qb.execute` reads the same way.
 */
interface BuilderState {
  toQuery(): { sql: string; params: readonly unknown[] };
  readonly context?: Transaction;
  readonly connectionType?: ConnectionType;
  readonly loggerContext?: Record<string, unknown>;
  readonly em?: EntityManager;
}

/** The parts of a MikroORM SQL connection a bound statement runs through. */
interface SqlConnection {
  ensureConnection(): Promise<void>;
  getClient(): unknown;
  /** Protected in MikroORM: runs `cb`, then logs `query` as every statement of the ORM is. */
  executeQuery<T>(query: string, cb: () => Promise<T>, context?: object): Promise<T>;
}

/**
 * Runs a statement on `connection` (outside a transaction when `trx` is undefined): the one
 * place a bound statement reaches a driver; `replica_failover.ts` wraps it per replica.
 */
export type StatementRunner = (
  connection: Connection,
  statement: BoundStatement,
  trx: Transaction | undefined,
  logContext: LogContext,
) => Promise<Row[]>;

/** A statement ready for its driver: placeholders of the database, values converted. */
export interface BoundStatement {
  /** The text as MikroORM built it (`?` placeholders), for the `onQuery` hook and logs. */
  readonly text: string;
  /** The text the driver receives (`$n` on PostgreSQL). */
  readonly sql: string;
  /** The values, in placeholder order. */
  readonly params: unknown[];
}

/** What MikroORM's statement log receives besides the text, and how a statement is cancelled. */
export interface LogContext {
  readonly id?: number;
  readonly signal?: AbortSignal;
  readonly inflightQueryAbortStrategy?: string;
  readonly [key: string]: unknown;
}

const RUNNER = Symbol("mikrogql.statementRunner");

/** The runner of statements on `connection`: its own (a replica's failover) or the direct one. */
function runnerOf(connection: Connection): StatementRunner {
  return (connection as { [RUNNER]?: StatementRunner })[RUNNER] ?? runDirect;
}

/**
 * Replaces how bound statements run on `connection` with `wrap(current)` (the replica failover
 * of `replica_failover.ts`).
 */
export function wrapStatements(
  connection: Connection,
  wrap: (run: StatementRunner) => StatementRunner,
): void {
  (connection as { [RUNNER]?: StatementRunner })[RUNNER] = wrap(runnerOf(connection));
}

/** Runs `statement` directly on `connection`'s driver (Kysely), logged as MikroORM logs. */
export const runDirect: StatementRunner = async (connection, statement, trx, logContext) => {
  const sql = connection as unknown as SqlConnection;
  await sql.ensureConnection();
  const { signal, inflightQueryAbortStrategy, ...log } = logContext;
  const abort = signal || inflightQueryAbortStrategy
    ? { signal, inflightQueryAbortStrategy }
    : undefined;
  return await sql.executeQuery(statement.text, async () => {
    const compiled = CompiledQuery.raw(statement.sql, statement.params);
    const client = (trx ?? sql.getClient()) as {
      executeQuery(query: CompiledQuery, options?: unknown): Promise<{ rows: unknown[] }>;
    };
    const result = await client.executeQuery(compiled, abort);
    return result.rows as Row[];
  }, { ...log, query: statement.text, params: statement.params });
};

/**
 * Runs `qb`'s statement (a select; its rows as the driver returns them, keyed by column) with
 * bound parameters, on the connection and in the transaction `qb` was created for.
 */
export async function readRows(qb: unknown): Promise<Row[]> {
  const builder = qb as BuilderState;
  return await runStatement(
    builder.em!,
    builder.connectionType,
    builder.toQuery(),
    builder.context,
    builder.loggerContext,
  );
}

/**
 * Runs `statement` (MikroORM's `?` placeholders and its values) as `em`'s QueryBuilders run
 * theirs: on the connection of `connectionType`, in `trx` (default: `em`'s transaction), logged
 * with `loggerContext` (default: `em`'s).
 */
export async function runStatement(
  em: EntityManager,
  connectionType: ConnectionType | undefined,
  statement: Statement,
  trx: Transaction | undefined = em.getTransactionContext(),
  loggerContext: Record<string, unknown> | undefined = (em.getContext(false) as unknown as {
    loggerContext?: Record<string, unknown>;
  }).loggerContext,
): Promise<Row[]> {
  const connection = em.getDriver().getConnection(
    connectionType ?? (em.config.get("preferReadReplicas") ? "read" : "write"),
  );
  const text = em.config.get("onQuery")(statement.sql, statement.params as unknown[]);
  const bound = bind(em, text, statement.params);
  const logContext: LogContext = { id: em.id, ...loggerContext, ...abortOptions(em) };
  const run = runnerOf(connection);
  const session = trx ? undefined : em.getTransactionSessionContext();
  if (!session) return await run(connection, bound, trx, logContext);
  // As `qb.execute`: a session context (row-level security) applies in a short transaction.
  return await connection.transactional(
    (inner) => run(connection, bound, inner, logContext),
    { sessionContext: session, loggerContext: logContext } as never,
  );
}

/**
 * `qb`, a QueryBuilder of rows, made the statement counting them (`count` column), as
 * `qb.getCount()` makes it before running it.
 */
export function countQuery<Q>(qb: Q): Q {
  const builder = qb as {
    processPopulateHint(): void;
    hasToManyJoins(): boolean;
    count(field: undefined, distinct: boolean): unknown;
  };
  builder.processPopulateHint();
  builder.count(undefined, builder.hasToManyJoins());
  return qb;
}

/** The abort options `em.createQueryBuilder` gives its builders (`Deadline`'s signal). */
function abortOptions(em: EntityManager): object | undefined {
  return (em.getContext(false) as unknown as { getAbortOptions(): object | undefined })
    .getAbortOptions();
}

/**
 * `sql` (MikroORM's `?` placeholders, `??` identifiers, `\?` a literal question mark) with its
 * values bound for `em`'s database, as `platform.formatQuery` reads the text.
 */
export function bind(em: EntityManager, sql: string, params: readonly unknown[]): BoundStatement {
  const platform = em.getPlatform() as AbstractSqlPlatform;
  const dialect = dialectOf(em);
  const values: unknown[] = [];
  const text = splice(platform, dialect, sql, params, values);
  return { text: sql, sql: text, params: values };
}

function splice(
  platform: AbstractSqlPlatform,
  dialect: Dialect,
  sql: string,
  params: readonly unknown[],
  into: unknown[],
): string {
  if (params.length === 0) return sql;
  let out = "";
  let pos = 0;
  let next = 0;
  for (let at = sql.indexOf("?"); at !== -1; at = sql.indexOf("?", pos)) {
    if (at > 0 && sql[at - 1] === "\\") {
      out += sql.slice(pos, at - 1) + "?";
      pos = at + 1;
      continue;
    }
    out += sql.slice(pos, at);
    if (sql[at + 1] === "?") {
      out += platform.quoteIdentifier(params[next++] as string);
      pos = at + 2;
      continue;
    }
    out += placeholders(platform, dialect, params[next++], into);
    pos = at + 1;
  }
  return out + sql.slice(pos);
}

/** The placeholder text of one parameter, its values appended to `into`. */
function placeholders(
  platform: AbstractSqlPlatform,
  dialect: Dialect,
  value: unknown,
  into: unknown[],
): string {
  if (isRaw(value)) return splice(platform, dialect, value.sql, value.params, into);
  if (Array.isArray(value)) {
    // A list inlines as its elements separated by commas (a MySQL tuple in parentheses).
    return value.map((v) =>
      Array.isArray(v) && dialect === "mysql"
        ? `(${placeholders(platform, dialect, v, into)})`
        : placeholders(platform, dialect, v, into)
    ).join(", ");
  }
  into.push(driverValue(platform, dialect, value));
  return dialect === "postgresql" ? `$${into.length}` : "?";
}

/** `value` as the driver binds it, meaning what MikroORM's quoting of it would. */
function driverValue(platform: AbstractSqlPlatform, dialect: Dialect, value: unknown): unknown {
  if (value === undefined) return null;
  if (value === null || typeof value === "string" || typeof value === "number") return value;
  if (typeof value === "boolean") return dialect === "sqlite" ? (value ? 1 : 0) : value;
  if (typeof value === "bigint") return dialect === "postgresql" ? String(value) : value;
  if (value instanceof Date) {
    // SQLite: milliseconds; the others: the platform's text of the date (its time zone).
    return dialect === "sqlite" ? +value : (platform.escape(value) as string).slice(1, -1);
  }
  if (ArrayBuffer.isView(value)) return value;
  // As `platform.quoteValue`: plain objects and embeddables tagged as JSON are their JSON text.
  if (Utils.isPlainObject(value) || (value as { [JsonProperty]?: unknown })[JsonProperty]) {
    return JSON.stringify(value);
  }
  return value;
}
