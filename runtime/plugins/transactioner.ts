/**
 * The Transactioner: a GraphQL Yoga plugin that runs each mutation operation in one database transaction (entgql's
 * `Transactioner`).
 *
 * ```ts
 * const yoga = createYoga({
 *   schema: createSchema(),
 *   context: () => ({ em: orm.em.fork() }),
 *   plugins: [Transactioner({ txOpener: orm })],
 * });
 * ```
 *
 * @module
 */
import type { EntityManager, SessionContext } from "@mikro-orm/core";
import type { AbstractSqlConnection, AbstractSqlPlatform } from "@mikro-orm/sql";
import { CompiledQuery, type DatabaseConnection } from "kysely";
import {
  type DocumentNode,
  type ExecutionArgs,
  type ExecutionResult,
  getOperationAST,
  GraphQLError,
  Kind,
  type SelectionSetNode,
} from "graphql";
import type { Plugin } from "graphql-yoga";
import { bindConnections } from "../database/bound_connection.ts";
import { databaseFault, isTransactionConflict, unavailable } from "../database/database_faults.ts";
import { deadlineOf } from "./deadline.ts";
import { dialectOf, quoteIdentifiers } from "../dialect.ts";
import { ErrorCode } from "../error_codes.ts";
import { isReadRefusal } from "../read_refusal.ts";
import { nodeBudget, startNodeBudget } from "../node_budget.ts";
import { bindTransaction, type MikroContext } from "../request/context.ts";
import {
  checkReadYourWrites,
  pinRecentWriter,
  type ReadYourWritesOptions,
  stampWriter,
  wrote,
} from "./read_your_writes.ts";

/** What the Transactioner opens transactions on: a `MikroORM` instance, or any `{ em }`. */
export interface TxOpener {
  /**
   * The EntityManager whose connection the transactions run on, and the one forked for an
   * operation whose context holds no `em` (the request's `em` is forked otherwise).
   */
  em: EntityManager;
}

/** Options of {@linkcode Transactioner}. */
export interface TransactionerOptions {
  /** Opens the transactions (entgql `TxOpener`): pass the `MikroORM` instance. */
  txOpener: TxOpener;
  /** Mutation operations, by operation name, that run without a transaction. */
  skipOperations?: string[];
  /**
   * Top-level fields: a mutation operation selecting any of them runs without a transaction
   * (entgql `SkipIfHasFields`).
   */
  skipFields?: string[];
  /**
   * Read-your-writes over read replicas: after a mutation operation the response carries a
   * cookie (and a header of the same name) valid for `seconds`; the client's queries that send
   * it back read from the primary (`ctx.readFrom = "primary"`) until then. Off when unset.
   */
  readYourWrites?: ReadYourWritesOptions;
}

/**
 * The Transactioner (entgql `Transactioner{TxOpener: client}`): a GraphQL Yoga plugin that runs
 * each mutation operation in one transaction.
 *
 * - For a mutation operation it forks the request's EntityManager (`ctx.em`; `txOpener.em` when
 *   the context holds none), begins a transaction on the fork, and {@linkcode fromContext} returns
 *   the fork to every resolver of the operation; its root fields run serially inside the one
 *   transaction. The fork inherits the request's MikroORM filters, their parameters and the
 *   viewer of the request's policies, so a mutation reads (the row it writes, the ids of its
 *   input, its payload) what the request may read, and nothing else.
 * - With `ctx.databaseSession` (PostgreSQL row-level security) its variables (`set_config(...,
 *   true)`) and role (`SET LOCAL ROLE`) are applied right after `BEGIN`.
 * - When execution ends without errors the fork is flushed and the transaction committed.
 * - Any error in the result (from any resolver, nested ones included) or a thrown exception rolls
 *   the transaction back; the response then carries the errors and `data: null`. Except a field
 *   of a payload the viewer may not read (a policy's field rule: `null` and a `FORBIDDEN` error,
 *   `read_refusal.ts`): it refuses a value, not the write, which is committed as if the field
 *   had not been selected, the answer keeping its data and the error.
 * - A failure to open is the error `cannot create transaction`, a failure to commit (the final
 *   flush included) `cannot commit transaction`, both with code `TRANSACTION_FAILED`, or
 *   `DATABASE_UNAVAILABLE` / `QUERY_TIMEOUT` when the connection was lost or the statement timed
 *   out; the driver's text is never in the message.
 * - A transaction that loses to a concurrent one (a deadlock or a serialization failure, in any
 *   statement or at commit: `isTransactionConflict` of `database/database_faults.ts`) is rolled back
 *   and the whole operation runs again from the start in a new transaction, after a random
 *   pause (full jitter, up to 20, 40, 80, 160 ms), at most {@linkcode CONFLICT_ATTEMPTS} times in
 *   all and within the request's time budget; then it is the error `TRANSACTION_CONFLICT` with
 *   `extensions.retryable: true`, nothing written. What a client was answered was committed.
 * - The connection goes back to the pool however the transaction ends (a dead one is dropped by
 *   the pool), so faults never exhaust the pool.
 * - Under the {@linkcode Deadline} plugin the transaction's statements are cancelled when the
 *   request's time budget runs out, and run with a statement timeout of the remaining budget.
 * - Queries and subscriptions open no transaction, nor do the operations the options skip; but a
 *   query with `ctx.databaseSession` (row-level security) runs in one transaction that applies the
 *   session once and is rolled back at the end, its result kept as it is.
 *
 * Inside a mutation, resolvers reach the database through {@linkcode fromContext}, not `ctx.em`:
 * a query on another connection would not see the transaction's writes (and on SQLite's single
 * connection it would wait for the transaction to end).
 *
 * @example One transaction per mutation operation, but not for a bulk import
 * ```ts
 * import { MikroORM } from "@mikro-orm/core";
 * import { createYoga } from "graphql-yoga";
 * import { Transactioner } from "@mikrogql/ext";
 * import config from "./mikro-orm.config.ts";
 * import { createSchema } from "./generated/mod.ts";
 *
 * const orm = await MikroORM.init(config);
 * const yoga = createYoga({
 *   schema: createSchema(),
 *   context: () => ({ em: orm.em.fork() }),
 *   plugins: [
 *     Transactioner({
 *       txOpener: orm,
 *       skipOperations: ["ImportPosts"], // `mutation ImportPosts { ... }` commits as it goes
 *       readYourWrites: { seconds: 5 }, // with read replicas: a writer reads the primary for 5 s
 *     }),
 *   ],
 * });
 * ```
 *
 * @param options `txOpener` (the `MikroORM` instance), the operations and fields that skip the
 *   transaction, and `readYourWrites`
 * @returns a Yoga/envelop plugin
 * @throws Error naming `readYourWrites.seconds` when it is not a positive, finite number
 */
export function Transactioner(options: TransactionerOptions): Plugin {
  const skipOperations = new Set(options.skipOperations ?? []);
  const skipFields = new Set(options.skipFields ?? []);
  const readYourWrites = options.readYourWrites;
  if (readYourWrites) checkReadYourWrites(readYourWrites);
  // Its statements (the session's `set_config` values) and the operation's go out bound.
  bindConnections(options.txOpener.em);
  const plugin: Plugin = {
    onExecute({ args, executeFn, setExecuteFn }) {
      const operation = getOperationAST(args.document, args.operationName);
      const ctx = args.contextValue as MikroContext;
      if (operation?.operation !== "mutation") {
        if (readYourWrites) pinRecentWriter(ctx, readYourWrites);
        // Row-level security: a query's statements share one transaction, which applies the
        // session once (MikroORM would wrap each statement in a transaction of its own).
        if (operation?.operation === "query" && ctx.databaseSession) {
          setExecuteFn((args) =>
            inTransaction(options.txOpener, args, executeFn as Execute, true) as ReturnType<
              Execute
            >
          );
        }
        return;
      }
      // Reads of a mutation operation (its payloads) come from the primary, in or out of a
      // transaction.
      ctx.readFrom = "primary";
      if (readYourWrites) wrote(ctx);
      if (operation.name && skipOperations.has(operation.name.value)) return;
      if (
        skipFields.size > 0 &&
        topLevelFields(args.document, operation.selectionSet).some((f) => skipFields.has(f))
      ) return;
      setExecuteFn((args) =>
        inTransaction(options.txOpener, args, executeFn as Execute) as ReturnType<Execute>
      );
    },
  };
  // A response hook only with read-your-writes: a hook that does nothing still runs per request.
  if (readYourWrites) {
    plugin.onResponse = ({ request, response }) => stampWriter(request, response, readYourWrites);
  }
  return plugin;
}

type Execute = (args: ExecutionArgs) => Promise<ExecutionResult> | ExecutionResult;

/**
 * How often the Transactioner runs a mutation operation at most when its transaction keeps
 * losing to concurrent ones (deadlocks, serialization failures): 5 attempts.
 */
export const CONFLICT_ATTEMPTS = 5;

/** The longest pause before the second attempt, in ms; it doubles for each attempt after. */
const CONFLICT_PAUSE_MS = 20;

/** What {@linkcode run} returns when the transaction lost to a concurrent one (rolled back). */
const CONFLICT = Symbol("conflict");

/**
 * Runs the operation in a transaction ({@linkcode beginAndRun}), again from the start while it
 * loses to concurrent transactions (see {@linkcode Transactioner}).
 */
async function inTransaction(
  opener: TxOpener,
  args: ExecutionArgs,
  execute: Execute,
  read = false,
): Promise<ExecutionResult> {
  const ctx = args.contextValue as MikroContext;
  for (let attempt = 1;; attempt++) {
    const result = await beginAndRun(opener, args, execute, read);
    if (result !== CONFLICT) return result;
    const signal = deadlineOf(ctx)?.signal;
    if (attempt >= CONFLICT_ATTEMPTS || signal?.aborted) {
      return { errors: [conflictError(attempt)], data: null };
    }
    // full jitter: the two sides of a deadlock rarely meet again
    await pause(Math.random() * CONFLICT_PAUSE_MS * 2 ** (attempt - 1), signal);
    // the operation starts again with its whole node budget
    const budget = nodeBudget(ctx);
    startNodeBudget(ctx, budget.max, budget.limit);
  }
}

/** Waits `ms`, or less when `signal` aborts. */
function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener("abort", done, { once: true });
  });
}

/** The `TRANSACTION_CONFLICT` error after `attempts` attempts. */
function conflictError(attempts: number): GraphQLError {
  return new GraphQLError(
    `the transaction lost to concurrent ones (deadlock or serialization failure) on each of ${attempts} attempts; nothing was written; try again`,
    { extensions: { code: ErrorCode.TRANSACTION_CONFLICT, retryable: true } },
  );
}

/**
 * Runs `execute` with a transaction bound to the context; commits or rolls back.
 *
 * The transaction runs on one connection reserved from the pool for the whole operation (Kysely's
 * `connection()`), which goes back to the pool however the transaction ends: when the rollback
 * fails (the connection died, or the database refused), a plain `ROLLBACK` is sent on the raw
 * connection, and the pool drops a connection that is dead when it is released (node-postgres,
 * mysql2). Without this, Kysely keeps a connection whose rollback failed reserved for ever. When
 * the transaction cannot begin because its connection is dead, it begins again on another (up to
 * 4 times in all).
 */
async function beginAndRun(
  opener: TxOpener,
  args: ExecutionArgs,
  execute: Execute,
  read: boolean,
): Promise<ExecutionResult | typeof CONFLICT> {
  // Nothing ran before a failed begin: the pool may have handed out a connection that died
  // while idle (node-postgres then drops it), so begin again, up to BEGIN_ATTEMPTS times.
  for (let i = 0; i < BEGIN_ATTEMPTS; i++) {
    const result = await attemptTransaction(opener, args, execute, read);
    if (result !== BEGIN_UNAVAILABLE) return result;
  }
  return { errors: [unavailable()], data: null };
}

/** How often a transaction is begun at most when its connection turns out dead. */
const BEGIN_ATTEMPTS = 4;

/** What {@linkcode attemptTransaction} returns when the transaction could not begin for a lost connection. */
const BEGIN_UNAVAILABLE = Symbol("begin unavailable");

async function attemptTransaction(
  opener: TxOpener,
  args: ExecutionArgs,
  execute: Execute,
  read: boolean,
): Promise<ExecutionResult | typeof BEGIN_UNAVAILABLE | typeof CONFLICT> {
  const ctx = args.contextValue as MikroContext;
  const deadline = deadlineOf(ctx);
  try {
    const connection = opener.em.getConnection() as AbstractSqlConnection;
    await connection.ensureConnection(); // MariaDB creates its Kysely client asynchronously
    return await connection.getClient().connection().execute(async (db) => {
      const raw = await db.getExecutor().provideConnection((c) => Promise.resolve(c));
      let em: EntityManager;
      try {
        const trx = await db.startTransaction().execute();
        const logger = opener.em.config.getLogger();
        for (
          const query of (opener.em.getPlatform() as AbstractSqlPlatform).getBeginTransactionSQL()
        ) {
          logger.logQuery({ query, level: "info" });
        }
        // The request's EntityManager: its filters, their parameters and its viewer carry over.
        const request = ctx.em ?? opener.em;
        em = request.fork(deadline ? deadline.forkOptions(request) : {});
        em.setTransactionContext(trx);
        // Row-level security: the request's session variables and role, for this transaction.
        if (ctx.databaseSession) await applySession(em, connection, trx, ctx.databaseSession);
        if (deadline) await setStatementTimeout(em, raw, deadline.remainingMs());
      } catch (error) {
        await release(raw);
        if (databaseFault(error) === "unavailable") return BEGIN_UNAVAILABLE;
        return { errors: [txError("cannot create transaction", error)], data: null };
      }
      return await run(em, raw, ctx, args, execute, read);
    });
  } catch (error) {
    if (error instanceof GraphQLError) throw error;
    return { errors: [txError("cannot create transaction", error)], data: null };
  }
}

/**
 * Runs the operation in the open transaction of `em`. A mutation's is committed when the result
 * holds no error but payload read refusals, else rolled back with `data: null`; a query's (`read`, row-level security mode)
 * is rolled back, its result kept as it is (partial data and field errors included).
 */
async function run(
  em: EntityManager,
  raw: DatabaseConnection,
  ctx: MikroContext,
  args: ExecutionArgs,
  execute: Execute,
  read: boolean,
): Promise<ExecutionResult | typeof CONFLICT> {
  let result: ExecutionResult;
  bindTransaction(ctx, em);
  try {
    result = await execute(args);
  } catch (error) {
    await rollback(em, raw);
    if (isTransactionConflict(error)) return CONFLICT;
    throw error;
  } finally {
    bindTransaction(ctx, undefined);
  }
  if (Symbol.asyncIterator in result) {
    const rolledBack = await rollback(em, raw);
    return {
      errors: [
        txError("incremental delivery (@defer/@stream) is not supported in a transaction"),
        ...rolledBack,
      ],
      data: null,
    };
  }
  if (read) {
    const rolledBack = await rollback(em, raw);
    return rolledBack.length
      ? { ...result, errors: [...result.errors ?? [], ...rolledBack] }
      : result;
  }
  if (result.errors?.some((error) => !inPayload(error))) {
    const rolledBack = await rollback(em, raw);
    if (result.errors.some(isTransactionConflict)) return CONFLICT;
    return { ...result, errors: [...result.errors, ...rolledBack], data: null };
  }
  try {
    await em.commit();
  } catch (error) {
    await rollback(em, raw);
    if (isTransactionConflict(error)) return CONFLICT;
    return { ...result, errors: [txError("cannot commit transaction", error)], data: null };
  }
  return result;
}

/**
 * Whether `error` refuses a value of a root field's payload and nothing of the write: a
 * `readRefusal` (a field the viewer may not read, `null` in the answer) below a root field.
 */
function inPayload(error: GraphQLError): boolean {
  return (error.path?.length ?? 0) > 1 && isReadRefusal(error);
}

/**
 * Sets the statement timeout of the transaction's connection: PostgreSQL `SET LOCAL
 * statement_timeout` (this transaction only), MariaDB/MySQL `max_statement_time` (the session;
 * every transaction sets it again). Nothing on SQLite.
 */
async function setStatementTimeout(
  em: EntityManager,
  raw: DatabaseConnection,
  ms: number,
): Promise<void> {
  const millis = Math.max(1, Math.ceil(ms));
  const dialect = dialectOf(em);
  if (dialect === "postgresql") {
    await raw.executeQuery(CompiledQuery.raw(`set local statement_timeout = ${millis}`));
  } else if (dialect === "mysql") {
    await raw.executeQuery(
      CompiledQuery.raw(`set session max_statement_time = ${(millis / 1000).toFixed(3)}`),
    );
  }
}

/**
 * Applies a database session (`ctx.databaseSession`) to the transaction `trx`, as MikroORM applies
 * `em.setSessionContext` at a `BEGIN` it sends itself: `select set_config(name, value, true), ...`
 * with bound parameters, then `set local role "<role>"` (quoted by the platform, `quoteIdentifiers`).
 */
async function applySession(
  em: EntityManager,
  connection: AbstractSqlConnection,
  trx: unknown,
  session: SessionContext,
): Promise<void> {
  const variables = Object.entries(session.variables ?? {});
  if (variables.length > 0) {
    await connection.execute(
      `select ${variables.map(() => "set_config(?, ?, true)").join(", ")}`,
      variables.flatMap(([name, value]) => [
        name,
        value instanceof Date ? value.toISOString() : String(value),
      ]),
      "run",
      trx as never,
    );
  }
  if (session.role) {
    await connection.execute(
      `set local role ${quoteIdentifiers(em, session.role)}`,
      [],
      "run",
      trx as never,
    );
  }
}

/**
 * Rolls back; a failure to do so is returned as an error for the response, after a plain
 * `ROLLBACK` on the raw connection (see {@linkcode inTransaction}).
 */
async function rollback(em: EntityManager, raw: DatabaseConnection): Promise<GraphQLError[]> {
  try {
    await em.rollback();
    return [];
  } catch (error) {
    await release(raw);
    return [txError("cannot roll back transaction", error)];
  }
}

/** Ends whatever transaction the raw connection is in; a dead connection is left to the pool. */
async function release(raw: DatabaseConnection): Promise<void> {
  try {
    await raw.executeQuery(CompiledQuery.raw("rollback"));
  } catch {
    // dead: node-postgres and mysql2 drop it from the pool when Kysely releases it
  }
}

/** The names of the fields of the operation's root selection, through fragments. */
function topLevelFields(document: DocumentNode, selectionSet: SelectionSetNode): string[] {
  return selectionSet.selections.flatMap((selection) => {
    if (selection.kind === Kind.FIELD) return [selection.name.value];
    if (selection.kind === Kind.INLINE_FRAGMENT) {
      return topLevelFields(document, selection.selectionSet);
    }
    const fragment = document.definitions.find((d) =>
      d.kind === Kind.FRAGMENT_DEFINITION && d.name.value === selection.name.value
    );
    return fragment?.kind === Kind.FRAGMENT_DEFINITION
      ? topLevelFields(document, fragment.selectionSet)
      : [];
  });
}

/**
 * The error of a failed begin, commit or rollback, without the driver's text:
 * `DATABASE_UNAVAILABLE` or `QUERY_TIMEOUT` for a database fault (`database/database_faults.ts`), else
 * `TRANSACTION_FAILED`.
 */
function txError(message: string, cause?: unknown): GraphQLError {
  const fault = cause === undefined ? undefined : databaseFault(cause);
  if (fault === "unavailable") return unavailable();
  const code = fault === "timeout" ? ErrorCode.QUERY_TIMEOUT : ErrorCode.TRANSACTION_FAILED;
  return new GraphQLError(
    fault === "timeout" ? `${message}: the request ran out of its time budget` : message,
    { extensions: { code } },
  );
}
