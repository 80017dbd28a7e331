/**
 * Every read statement of the runtime runs here: the SQL text MikroORM's QueryBuilder builds
 * (`qb.toQuery()`, `?` placeholders) and its values, or a cached text of `statement_cache.ts`
 * with the request's values, go to the connection's `execute` as MikroORM's `qb.execute` sends
 * them, on the same objects: the read connection the statement was built for (a replica, with
 * `replica_failover.ts`'s failover, or the primary), the request's transaction
 * (`em.getTransactionContext()`), its abort signal and in-flight abort strategy (`Deadline`'s
 * fork options), a session context (row-level security) in a short transaction, and the
 * EntityManager's logger context. `execute` binds the values as parameters
 * (`bound_connection.ts`, installed on the ORM's connections); the rows come back as the driver
 * returns them, keyed by column, with no entity mapping.
 *
 * @module
 */
import type { ConnectionType, EntityManager, LoggingOptions, Transaction } from "@mikro-orm/core";
import type { AbstractSqlConnection } from "@mikro-orm/sql";
import { bindConnections } from "./bound_connection.ts";

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
  bindConnections(em);
  const connection = em.getDriver().getConnection(
    connectionType ?? (em.config.get("preferReadReplicas") ? "read" : "write"),
  ) as AbstractSqlConnection;
  const logContext = { id: em.id, ...loggerContext, ...abortOptions(em) } as LoggingOptions;
  const params = statement.params;
  const session = trx ? undefined : em.getTransactionSessionContext();
  if (!session) {
    return await connection.execute<Row[]>(statement.sql, params, "all", trx, logContext);
  }
  // As `qb.execute`: a session context (row-level security) applies in a short transaction.
  return await connection.transactional(
    (inner) => connection.execute<Row[]>(statement.sql, params, "all", inner, logContext),
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
