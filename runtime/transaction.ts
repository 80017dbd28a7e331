/**
 * The request's EntityManager in the GraphQL context (`fromContext`), and the Transactioner: a
 * GraphQL Yoga plugin that runs each mutation operation in one database transaction (the spec's
 * rules 7 and 8, entgql's `Transactioner`).
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
import type { EntityManager } from "@mikro-orm/core";
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
import { ErrorCode } from "./errors.ts";
import { type ReadFrom, readFrom } from "./read_from.ts";
import {
  checkReadYourWrites,
  pinRecentWriter,
  type ReadYourWritesOptions,
  stampWriter,
  wrote,
} from "./read_your_writes.ts";

/** Where the Transactioner keeps the EntityManager bound to the open transaction. */
const TX = Symbol.for("mikrogql.tx");

/** The part of a GraphQL context that mikrogql reads. */
export interface MikroContext {
  /** The request's EntityManager (a fork per request: `context: () => ({ em: orm.em.fork() })`). */
  em?: EntityManager;
  /**
   * Where this request's reads outside a transaction go when MikroORM has read replicas; wins
   * over the schema's `readFrom`. The Transactioner sets `"primary"` for a mutation operation and,
   * with `readYourWrites`, for a client's requests shortly after its own mutation.
   */
  readFrom?: ReadFrom;
  [TX]?: EntityManager;
}

/**
 * Returns the EntityManager resolvers must use: the one bound to the operation's transaction when
 * the Transactioner opened one (spec rule 7, entgql `FromContext`), else the request's `em`, its
 * runtime reads sent to `ctx.readFrom ?? schemaReadFrom` (MikroORM's read connection when neither
 * is set; a transaction always reads from the primary).
 *
 * @param schemaReadFrom the schema's `readFrom` option
 * @throws Error when the context holds no EntityManager
 */
export function fromContext(ctx: MikroContext, schemaReadFrom?: ReadFrom): EntityManager {
  const em = ctx[TX] ?? ctx.em;
  if (!em) {
    throw new Error(
      "no EntityManager in the GraphQL context: pass `context: () => ({ em: orm.em.fork() })` to createYoga",
    );
  }
  const target = ctx.readFrom ?? schemaReadFrom;
  return target ? readFrom(em, target) : em;
}

/** What the Transactioner opens transactions on: a `MikroORM` instance, or any `{ em }`. */
export interface TxOpener {
  /** The EntityManager forked for each transaction. */
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
 * - For a mutation operation it forks `txOpener.em`, begins a transaction on the fork, and
 *   {@linkcode fromContext} returns the fork to every resolver of the operation; its root fields
 *   run serially inside the one transaction.
 * - When execution ends without errors the fork is flushed and the transaction committed.
 * - Any error in the result (from any resolver, nested ones included) or a thrown exception rolls
 *   the transaction back; the response then carries the errors and `data: null`.
 * - A failure to open is the error `cannot create transaction: …`, a failure to commit (the final
 *   flush included) `cannot commit transaction: …`, both with code `TRANSACTION_FAILED`.
 * - Queries and subscriptions never open a transaction, nor do the operations the options skip.
 *
 * Inside a mutation, resolvers reach the database through {@linkcode fromContext}, not `ctx.em`:
 * a query on another connection would not see the transaction's writes (and on SQLite's single
 * connection it would wait for the transaction to end).
 */
export function Transactioner(options: TransactionerOptions): Plugin {
  const skipOperations = new Set(options.skipOperations ?? []);
  const skipFields = new Set(options.skipFields ?? []);
  const readYourWrites = options.readYourWrites;
  if (readYourWrites) checkReadYourWrites(readYourWrites);
  return {
    onExecute({ args, executeFn, setExecuteFn }) {
      const operation = getOperationAST(args.document, args.operationName);
      const ctx = args.contextValue as MikroContext;
      if (operation?.operation !== "mutation") {
        if (readYourWrites) pinRecentWriter(ctx, readYourWrites);
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
    onResponse({ request, response }) {
      if (readYourWrites) stampWriter(request, response, readYourWrites);
    },
  };
}

type Execute = (args: ExecutionArgs) => Promise<ExecutionResult> | ExecutionResult;

/** Runs `execute` with a transaction bound to the context; commits or rolls back. */
async function inTransaction(
  opener: TxOpener,
  args: ExecutionArgs,
  execute: Execute,
): Promise<ExecutionResult> {
  const ctx = args.contextValue as MikroContext;
  let em: EntityManager;
  try {
    em = opener.em.fork();
    await em.begin();
  } catch (error) {
    return { errors: [txError(`cannot create transaction: ${messageOf(error)}`)], data: null };
  }
  let result: ExecutionResult;
  ctx[TX] = em;
  try {
    result = await execute(args);
  } catch (error) {
    await rollback(em);
    throw error;
  } finally {
    delete ctx[TX];
  }
  if (Symbol.asyncIterator in result) {
    const rolledBack = await rollback(em);
    return {
      errors: [
        txError("incremental delivery (@defer/@stream) is not supported in a transaction"),
        ...rolledBack,
      ],
      data: null,
    };
  }
  if (result.errors?.length) {
    return { ...result, errors: [...result.errors, ...await rollback(em)], data: null };
  }
  try {
    await em.commit();
  } catch (error) {
    await rollback(em);
    return {
      ...result,
      errors: [txError(`cannot commit transaction: ${messageOf(error)}`)],
      data: null,
    };
  }
  return result;
}

/** Rolls back; a failure to do so is returned as an error for the response. */
async function rollback(em: EntityManager): Promise<GraphQLError[]> {
  try {
    await em.rollback();
    return [];
  } catch (error) {
    return [txError(`cannot roll back transaction: ${messageOf(error)}`)];
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

function txError(message: string): GraphQLError {
  return new GraphQLError(message, { extensions: { code: ErrorCode.TRANSACTION_FAILED } });
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
