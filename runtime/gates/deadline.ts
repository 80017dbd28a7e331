/**
 * The `Deadline` plugin for GraphQL Yoga: every request gets a time budget (default 10 s), and
 * database faults become clean errors.
 *
 * ```ts
 * createYoga({
 *   schema,
 *   context: () => ({ em: orm.em.fork() }),
 *   plugins: [Limits(), Transactioner({ txOpener: orm }), Deadline({ timeoutMs: 5_000 })],
 * });
 * ```
 *
 * - The request's EntityManager (`ctx.em`) is replaced by a fork bound to an `AbortSignal` that
 *   fires when the budget runs out or the client disconnects; MikroORM then cancels the running
 *   statement (`inflightQueryAbortStrategy`, default `"cancel query"`: `pg_cancel_backend`,
 *   `KILL QUERY`). The Transactioner binds its transaction to the same signal and sets the
 *   statement timeout of the transaction to the budget (PostgreSQL `SET LOCAL
 *   statement_timeout`, MariaDB `max_statement_time`).
 * - When the budget runs out, the response is `QUERY_TIMEOUT` at the latest `graceMs` later
 *   (default 1 s, the time a rollback gets), whatever the database does.
 * - An error caused by a cancelled or timed-out statement is `QUERY_TIMEOUT`; one caused by a
 *   lost or refused connection, or a pool wait that timed out, is `DATABASE_UNAVAILABLE`
 *   (`sql/database_faults.ts`); their messages carry no driver text. A query that failed for a
 *   lost connection is run again within the budget by the `ReadRetry` plugin (`read_retry.ts`).
 *
 * Install it after the Transactioner and `ReadRetry`, so that the budget covers the transaction's
 * begin and commit and every attempt of a read. SQLite statements cannot be interrupted (they run synchronously); there the limits
 * bound them.
 *
 * A disconnect is seen through the request's `request.signal`, the only way a `Deno.serve`
 * handler learns of one before it answers (the handler's `info.completed` settles only once the
 * handler has returned). Run the server with Deno's corrected abort behaviour
 * (`--unstable-no-legacy-abort`, or `"unstable": ["no-legacy-abort"]` in `deno.json`, as this
 * project does): with the legacy one `request.signal` also aborts after every successful response
 * and Deno warns about it at the first one (GraphQL Yoga's `fetch` reads the signal too). The
 * plugin works under both: it listens only while the operation executes.
 *
 * @module
 */
import type { EntityManager, InflightQueryAbortStrategy } from "@mikro-orm/core";
import { type ExecutionArgs, type ExecutionResult, GraphQLError } from "graphql";
import type { Plugin } from "graphql-yoga";
import { databaseFault, unavailable } from "../sql/database_faults.ts";
import { dialectOf } from "../dialect.ts";
import { ErrorCode, gqlError } from "../error_codes.ts";
import type { MikroContext } from "../context.ts";

/** Where the Deadline plugin keeps the request's deadline in the GraphQL context. */
const DEADLINE = Symbol.for("mikrogql.deadline");

/** The time budget of one request. */
export interface RequestDeadline {
  /** Fires when the budget runs out or the client disconnects. */
  signal: AbortSignal;
  /**
   * The options that bind an EntityManager fork to this budget: the signal, and how a cancelled
   * statement is stopped on `em`'s database (the configured strategy, or by default "cancel query"
   * where the driver can cancel one, "ignore query" on SQLite, whose node:sqlite statements
   * cannot be interrupted).
   */
  forkOptions(em: EntityManager): {
    signal: AbortSignal;
    inflightQueryAbortStrategy: InflightQueryAbortStrategy;
  };
  /** The budget, in milliseconds. */
  timeoutMs: number;
  /** Milliseconds left (0 when the budget is spent; the whole budget before execution starts). */
  remainingMs(): number;
}

/** Options of {@linkcode Deadline}. */
export interface DeadlineOptions {
  /** The time budget of a request's execution, in milliseconds; default 10,000. */
  timeoutMs?: number;
  /**
   * How MikroORM stops a running statement when the budget runs out; default "cancel query"
   * (`pg_cancel_backend`, `KILL QUERY`), "ignore query" on SQLite.
   */
  inflightQueryAbortStrategy?: InflightQueryAbortStrategy;
  /** How long a timed-out request may still take to roll back before it is answered; default 1,000. */
  graceMs?: number;
}

/** The deadline of a request, when the {@linkcode Deadline} plugin runs. */
export function deadlineOf(ctx: object): RequestDeadline | undefined {
  return (ctx as { [DEADLINE]?: RequestDeadline })[DEADLINE];
}

type Execute = (args: ExecutionArgs) => Promise<ExecutionResult> | ExecutionResult;

/**
 * The deadline plugin (see the module documentation).
 *
 * @example A 5 s budget per request, installed after the Transactioner and `ReadRetry`
 * ```ts
 * import { MikroORM } from "@mikro-orm/core";
 * import { createYoga } from "graphql-yoga";
 * import { Deadline, ReadRetry, Transactioner } from "@mikrogql/ext";
 * import config from "./mikro-orm.config.ts";
 * import { createSchema } from "./generated/mod.ts";
 *
 * const orm = await MikroORM.init(config);
 * const yoga = createYoga({
 *   schema: createSchema(),
 *   context: () => ({ em: orm.em.fork() }),
 *   plugins: [
 *     Transactioner({ txOpener: orm }),
 *     ReadRetry(),
 *     // over 5,000 ms: statements cancelled, QUERY_TIMEOUT at most 500 ms later
 *     Deadline({ timeoutMs: 5_000, graceMs: 500 }),
 *   ],
 * });
 * ```
 *
 * @param options `timeoutMs` (default 10,000), `graceMs` (default 1,000), both in milliseconds,
 *   and `inflightQueryAbortStrategy`
 * @returns a Yoga/envelop plugin
 * @throws Error naming the option when `timeoutMs` or `graceMs` is not a positive number
 */
export function Deadline(options: DeadlineOptions = {}): Plugin {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const graceMs = options.graceMs ?? 1_000;
  for (const [name, value] of Object.entries({ timeoutMs, graceMs })) {
    if (!(value > 0)) throw new Error(`Deadline: option ${name} must be a positive number`);
  }
  const timeout = () =>
    gqlError(
      ErrorCode.QUERY_TIMEOUT,
      `the request ran out of its time budget of ${timeoutMs} ms; its statements were cancelled`,
    );
  return {
    onContextBuilding() {
      return ({ context, extendContext }) => {
        const controller = new AbortController();
        const request = (context as { request?: Request }).request;
        let expiresAt: number | undefined;
        const deadline: RequestDeadline & {
          controller: AbortController;
          start(): () => void;
        } = {
          signal: controller.signal,
          forkOptions: (em) => ({
            signal: controller.signal,
            inflightQueryAbortStrategy: options.inflightQueryAbortStrategy ??
              (dialectOf(em) === "sqlite" ? "ignore query" : "cancel query"),
          }),
          timeoutMs,
          controller,
          remainingMs: () =>
            expiresAt === undefined ? timeoutMs : Math.max(0, expiresAt - Date.now()),
          start: () => {
            expiresAt = Date.now() + timeoutMs;
            const timer = setTimeout(
              () => controller.abort(new DOMException("time budget spent", "TimeoutError")),
              timeoutMs,
            );
            const disconnect = () => controller.abort(request?.signal.reason);
            request?.signal.addEventListener("abort", disconnect, { once: true });
            // stopped when execution ends: under Deno.serve's legacy abort behaviour
            // request.signal also aborts after every response, which is not a disconnect
            return () => {
              clearTimeout(timer);
              request?.signal.removeEventListener("abort", disconnect);
            };
          },
        };
        const em = (context as MikroContext).em;
        extendContext({
          [DEADLINE]: deadline,
          ...(em ? { em: em.fork(deadline.forkOptions(em)) } : {}),
        } as Record<string, unknown>);
      };
    },
    onExecute({ args, executeFn, setExecuteFn }) {
      const deadline = deadlineOf(args.contextValue as object) as
        | (RequestDeadline & { start(): () => void })
        | undefined;
      if (!deadline) return;
      /** The execution within the budget, its faults as clean errors. */
      const execute: Execute = async (args) => {
        const stop = deadline.start();
        try {
          const run = Promise.resolve((executeFn as Execute)(args));
          const spent = new Promise<"spent">((resolve) =>
            deadline.signal.addEventListener("abort", () => resolve("spent"), { once: true })
          );
          let result = await Promise.race([run, spent]);
          if (result === "spent") {
            const grace = new Promise<"spent">((resolve) => setTimeout(resolve, graceMs, "spent"));
            result = await Promise.race([run, grace]);
            if (result === "spent") return { errors: [timeout()], data: null };
          }
          return cleanResult(result as ExecutionResult, deadline.signal.aborted, timeout);
        } finally {
          stop();
        }
      };
      setExecuteFn(execute as never);
    },
  };
}

/** `result` with database faults (and anything failing after the deadline) as clean errors. */
function cleanResult(
  result: ExecutionResult,
  aborted: boolean,
  timeout: () => GraphQLError,
): ExecutionResult {
  if (!result.errors?.length || Symbol.asyncIterator in result) return result;
  const errors = result.errors.map((error) => {
    const fault = databaseFault(error.originalError ?? error) ??
      (aborted && !error.extensions?.code ? "timeout" : undefined);
    if (!fault) return error;
    const clean = fault === "timeout" ? timeout() : unavailable();
    return new GraphQLError(clean.message, {
      nodes: error.nodes,
      path: error.path,
      extensions: clean.extensions,
    });
  });
  return { ...result, errors };
}
