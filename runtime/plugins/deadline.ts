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
 * - While the operation executes, the request's EntityManager (`ctx.em`) carries an `AbortSignal`
 *   that fires when the budget runs out or the client disconnects; MikroORM then cancels the
 *   running statement (`inflightQueryAbortStrategy`, default `"cancel query"`:
 *   `pg_cancel_backend`, `KILL QUERY`). A fork of its own, as `context: () => ({ em:
 *   orm.em.fork() })` gives each request, gets the signal in place (MikroORM's `em.fork({ signal
 *   })` sets the same two fields; a second fork per request would cost more CPU than the rest of
 *   the plugin) and loses it when execution ends; an EntityManager that already carries a signal
 *   (another request's, running on a shared `ctx.em`), the global one, or one that resolves its
 *   context elsewhere (`useContext`) is replaced by a fork with the signal. The Transactioner
 *   binds its transaction to the same signal and sets the statement timeout of the transaction to
 *   the budget (PostgreSQL `SET LOCAL statement_timeout`, MariaDB `max_statement_time`).
 * - When the budget runs out, the response is `QUERY_TIMEOUT` at the latest `graceMs` later
 *   (default 1 s, the time a rollback gets), whatever the database does.
 * - An error caused by a cancelled or timed-out statement is `QUERY_TIMEOUT`; one caused by a
 *   lost or refused connection, or a pool wait that timed out, is `DATABASE_UNAVAILABLE`
 *   (`database/database_faults.ts`); their messages carry no driver text. A query that failed for a
 *   lost connection is run again within the budget by the `ReadRetry` plugin (`read_retry.ts`).
 *
 * Install it after the Transactioner and `ReadRetry`, so that the budget covers the transaction's
 * begin and commit and every attempt of a read. SQLite statements cannot be interrupted (they run synchronously); there the limits
 * bound them.
 *
 * Per request the plugin does no more than execution needs: one timer serves every request's
 * budget (`deadline_clock.ts`), and an operation answered synchronously (`{ __typename }`, no
 * statement) never waits in it nor listens for a disconnect.
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
import { isPromise } from "@whatwg-node/promise-helpers";
import { databaseFault, unavailable } from "../database/database_faults.ts";
import { dialectOf } from "../dialect.ts";
import { ErrorCode, gqlError } from "../error_codes.ts";
import type { MikroContext } from "../request/context.ts";
import { whenForked } from "../request/lazy_entity_manager.ts";
import { DeadlineClock } from "./deadline_clock.ts";

/** Where the Deadline plugin keeps the request's deadline in the GraphQL context. */
const DEADLINE = Symbol.for("mikrogql.deadline");

/** The time budget of one request. */
export interface RequestDeadline {
  /** Fires when the budget runs out or the client disconnects. */
  readonly signal: AbortSignal;
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
  readonly timeoutMs: number;
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

/** A GraphQL context as the plugin sees it. */
type Context = MikroContext & { request?: Request; [DEADLINE]?: Budget };

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
  const settings: Settings = {
    timeoutMs,
    graceMs,
    strategy: options.inflightQueryAbortStrategy,
    clock: new DeadlineClock(),
    timeout: () =>
      gqlError(
        ErrorCode.QUERY_TIMEOUT,
        `the request ran out of its time budget of ${timeoutMs} ms; its statements were cancelled`,
      ),
  };
  return {
    onExecute({ args, executeFn, setExecuteFn }) {
      const ctx = args.contextValue as Context;
      const budget = ctx[DEADLINE] = new Budget(settings, ctx.request);
      setExecuteFn(((args: ExecutionArgs) => budget.run(executeFn as Execute, args)) as never);
    },
  };
}

/** What every request's budget of one plugin shares. */
interface Settings {
  readonly timeoutMs: number;
  readonly graceMs: number;
  readonly strategy: InflightQueryAbortStrategy | undefined;
  readonly clock: DeadlineClock;
  readonly timeout: () => GraphQLError;
}

/** MikroORM's EntityManager fields that `em.fork({ signal, inflightQueryAbortStrategy })` sets. */
interface AbortFields {
  signal?: AbortSignal;
  inflightQueryAbortStrategy?: InflightQueryAbortStrategy;
  readonly global?: boolean;
}

/** Ends the binding of a request's EntityManager to its budget. */
type Unbind = () => void;

/**
 * Binds `ctx.em` to `budget` for the operation's execution: in place when it is a request's own
 * fork without a signal (see the module documentation), else replaced by a fork with the
 * budget's signal. A request's fork not made yet (`serve()` forks on first read,
 * `request/lazy_entity_manager.ts`) is bound when made, if execution makes it: a request that
 * reads nothing is not forked for its budget.
 *
 * @returns how to unbind the EntityManager bound in place when execution ends, or `undefined`
 */
function bindEntityManager(ctx: Context, budget: Budget): Unbind | undefined {
  let forked: EntityManager | undefined;
  const unregister = whenForked(ctx, (em) => {
    forked = em;
    bindInPlace(em, budget.forkOptions(em));
  });
  if (unregister) {
    return () => {
      unregister();
      unbindEntityManager(forked);
    };
  }
  const em = ctx.em;
  if (!em) return undefined;
  const fields = em as unknown as AbortFields;
  const options = budget.forkOptions(em);
  if (
    fields.signal == null && fields.inflightQueryAbortStrategy == null && !fields.global &&
    em.getContext(false) === em
  ) {
    bindInPlace(em, options);
    return () => unbindEntityManager(em);
  }
  ctx.em = em.fork(options);
  return undefined;
}

/** Sets on `em` the two fields `em.fork(options)` would. */
function bindInPlace(em: EntityManager, options: ReturnType<Budget["forkOptions"]>): void {
  const fields = em as unknown as AbortFields;
  fields.signal = options.signal;
  fields.inflightQueryAbortStrategy = options.inflightQueryAbortStrategy;
}

/** Takes the budget's signal off `em`, bound in place by {@linkcode bindEntityManager}. */
function unbindEntityManager(em: EntityManager | undefined): void {
  if (!em) return;
  const fields = em as unknown as AbortFields;
  fields.signal = undefined;
  fields.inflightQueryAbortStrategy = undefined;
}

/**
 * One request's budget. Until execution goes asynchronous it costs an `AbortController` (made
 * when the signal is first read: binding the request's EntityManager); then it waits in the
 * plugin's clock (`deadline_clock.ts`) and listens for the client's disconnect.
 */
class Budget implements RequestDeadline {
  /** When the budget runs out, in `performance.now()` milliseconds (`Infinity` before start). */
  expiresAt = Infinity;
  /** Whether the clock waits for it. */
  waiting = false;
  #controller: AbortController | undefined;
  #spent = false;
  #reason: unknown;
  #onSpent: ((value: "spent") => void) | undefined;

  constructor(readonly settings: Settings, readonly request: Request | undefined) {}

  get timeoutMs(): number {
    return this.settings.timeoutMs;
  }

  get signal(): AbortSignal {
    if (!this.#controller) {
      this.#controller = new AbortController();
      if (this.#spent) this.#controller.abort(this.#reason);
    }
    return this.#controller.signal;
  }

  forkOptions(em: EntityManager): {
    signal: AbortSignal;
    inflightQueryAbortStrategy: InflightQueryAbortStrategy;
  } {
    return {
      signal: this.signal,
      inflightQueryAbortStrategy: this.settings.strategy ??
        (dialectOf(em) === "sqlite" ? "ignore query" : "cancel query"),
    };
  }

  remainingMs(): number {
    return this.expiresAt === Infinity
      ? this.settings.timeoutMs
      : Math.max(0, this.expiresAt - performance.now());
  }

  /**
   * Runs `execute` within the budget, its faults as clean errors; a result given synchronously
   * (no statement awaited) is returned as it is.
   */
  run(execute: Execute, args: ExecutionArgs): Promise<ExecutionResult> | ExecutionResult {
    this.expiresAt = performance.now() + this.settings.timeoutMs;
    const unbind = bindEntityManager(args.contextValue as Context, this);
    let result: Promise<ExecutionResult> | ExecutionResult;
    try {
      result = execute(args);
    } catch (error) {
      unbind?.();
      throw error;
    }
    if (!isPromise(result)) {
      unbind?.();
      return cleanResult(result, this.#spent, this.settings.timeout);
    }
    return this.#race(result, unbind);
  }

  async #race(
    run: Promise<ExecutionResult>,
    unbind: Unbind | undefined,
  ): Promise<ExecutionResult> {
    // The operation's result, or "spent" first: one promise settled by whichever comes first
    // (Promise.race of the two would make three more per request).
    const first = Promise.withResolvers<ExecutionResult | "spent">();
    this.#onSpent = first.resolve;
    run.then(first.resolve, first.reject);
    this.settings.clock.add(this);
    // A disconnect is listened for only while the operation executes: under Deno.serve's legacy
    // abort behaviour request.signal also aborts after every response, which is not a disconnect.
    const signal = this.request?.signal;
    if (signal?.aborted) this.#spend(signal.reason);
    else signal?.addEventListener("abort", this);
    try {
      let result = await first.promise;
      if (result === "spent") {
        const { graceMs } = this.settings;
        const grace = new Promise<"spent">((resolve) => setTimeout(resolve, graceMs, "spent"));
        result = await Promise.race([run, grace]);
        if (result === "spent") {
          // Resolvers still running keep the spent signal (their statements fail at once) until
          // they end.
          const settled = unbind ?? (() => {});
          run.then(settled, settled);
          unbind = undefined;
          return { errors: [this.settings.timeout()], data: null };
        }
      }
      return cleanResult(result, this.#spent, this.settings.timeout);
    } finally {
      this.settings.clock.remove(this);
      signal?.removeEventListener("abort", this);
      unbind?.();
    }
  }

  /** The clock's call: the budget ran out. */
  expire(): void {
    this.#spend(new DOMException("time budget spent", "TimeoutError"));
  }

  /** The client disconnected (`request.signal`'s abort event). */
  handleEvent(): void {
    this.#spend(this.request?.signal.reason);
  }

  #spend(reason: unknown): void {
    if (this.#spent) return;
    this.#spent = true;
    this.#reason = reason;
    this.#controller?.abort(reason);
    this.#onSpent?.("spent");
  }
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
