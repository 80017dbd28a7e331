/**
 * The preset: every mikrogql plugin a production server installs, in the order that is right,
 * with the Yoga options they need, so a server spreads one object into `createYoga` instead of
 * wiring eight plugins and two options in an order that matters.
 *
 * The order, and why:
 *
 * 1. `Jit`: replaces the execute function, which the plugins below wrap; it compiles in that
 *    function, so only operations that passed `Limits` (in `onParse`, `onValidate` and, before
 *    the execute function is called, `onExecute`) are ever compiled;
 *    `PlannedReads` right after it answers a planned `node(id)` query in place of that function,
 *    so the same plugins wrap it;
 * 2. `BodyLimit`: refuses an oversized body before it is read (`maxRequestBodySize: false`, so
 *    Yoga does not check it a second time);
 * 3. `Csrf`: refuses a cross-site POST before it is parsed; then `UnknownParams` ignores body
 *    properties the server does not understand (GraphQL over HTTP), where Yoga answers 400;
 * 4. `Limits`: bounds the document and the operation's cost before execution (with the bounded
 *    document cache, `parserAndValidationCache`);
 * 5. `ClientErrors`: clips quoted input in error messages and codes bad variables;
 * 6. `Transactioner`: one transaction per mutation operation;
 * 7. `ReadRetry`: runs a query again after a lost connection;
 * 8. `Deadline`: the request's time budget around all of it (transaction begin and commit, every
 *    attempt of a read);
 * 9. `DocumentCache`: parsed documents and validation results (Yoga's own cache is turned off),
 *    after `Limits`, which checks a document's size before it is parsed.
 *
 * The Yoga options are those of a production server that runs nothing it does not use: no
 * request parser for multipart bodies (`Csrf` refuses them, and the generated schema has no
 * upload), no CORS headers (Yoga's default answers every origin, credentials included: set
 * `cors` after the spread to allow your origins), and no GraphiQL or landing page under
 * `NODE_ENV=production`. Each of them is a hook Yoga would run on every request.
 *
 * @module
 */
import type { Plugin } from "graphql-yoga";
import { BodyLimit, DEFAULT_MAX_BODY_BYTES } from "./body_limit.ts";
import { ClientErrors } from "./client_errors.ts";
import { UnknownParams } from "./unknown_params.ts";
import { Csrf } from "./csrf.ts";
import { Deadline, type DeadlineOptions } from "./deadline.ts";
import { DocumentCache, type DocumentCacheOptions, type DocumentCaches } from "./document_cache.ts";
import { Jit, type JitOptions } from "./jit.ts";
import { Limits, type LimitsOptions } from "./limits.ts";
import { PlannedReads } from "./planned_reads.ts";
import { ReadRetry } from "./read_retry.ts";
import { Transactioner, type TransactionerOptions, type TxOpener } from "./transactioner.ts";

/** Options of {@linkcode mikrogqlPreset}. */
export interface PresetOptions {
  /** Opens the mutations' transactions: pass the `MikroORM` instance. */
  txOpener: TxOpener;
  /** Options of the `Limits` plugin; `false` leaves it out (not for a public server). */
  limits?: LimitsOptions | false;
  /** Options of the Transactioner besides `txOpener` (`readYourWrites`, skipped operations). */
  transactioner?: Omit<TransactionerOptions, "txOpener">;
  /** Options of the `Deadline` plugin; `false` leaves it out. */
  deadline?: DeadlineOptions | false;
  /**
   * The largest request body, in bytes (`BodyLimit`); default 2,000,000. `false` leaves the
   * plugin out: for a server that checks the size before Yoga (`serve()` does).
   */
  maxBodyBytes?: number | false;
  /** The bounded parsed-document cache: its options, or caches made by `createDocumentCaches()`. */
  documentCache?: DocumentCacheOptions | DocumentCaches;
  /**
   * Compiled execution with graphql-jit (`Jit`): `true` (the default), its options, or `false`
   * to run every operation on graphql-js.
   */
  jit?: boolean | JitOptions;
  /**
   * Answer a planned operation (a `node(id)` query of a generated schema without policies) from
   * its plan, without GraphQL execution (`PlannedReads`); default `true`.
   */
  plannedReads?: boolean;
  /** Refuse cross-site POSTs (`Csrf`); default `true`. */
  csrf?: boolean;
  /** Run a query again after a lost connection (`ReadRetry`); default `true`. */
  retryReads?: boolean;
}

/** What {@linkcode mikrogqlPreset} returns: options to spread into `createYoga`. */
export interface Preset {
  /** The plugins, in order; append your own after them. */
  plugins: Plugin[];
  /** `false`: the `DocumentCache` plugin caches parsed documents instead of Yoga. */
  parserAndValidationCache: false;
  /** `false`: the `BodyLimit` plugin checks the body size instead of Yoga. */
  maxRequestBodySize: false;
  /** `false`: no multipart request parser (`Csrf` refuses multipart bodies). */
  multipart: false;
  /** `false`: no CORS headers (same-origin pages only); set your own after the spread. */
  cors: false;
  /** GraphiQL on GET: unless `NODE_ENV=production`. */
  graphiql: boolean;
  /** Yoga's landing page on unknown paths: unless `NODE_ENV=production`. */
  landingPage: boolean;
}

/**
 * The plugins and Yoga options of a production server (see the module documentation).
 *
 * @example A server with every plugin, and a plugin of the user's own after them
 * ```ts
 * import { MikroORM } from "@mikro-orm/core";
 * import { createYoga, useExtendContext } from "graphql-yoga";
 * import { mikrogqlPreset } from "@mikrogql/ext";
 * import config from "./mikro-orm.config.ts";
 * import { createSchema } from "./generated/mod.ts";
 *
 * const orm = await MikroORM.init(config);
 * const preset = mikrogqlPreset({ txOpener: orm, limits: { maxCost: 20_000 } });
 * const yoga = createYoga({
 *   schema: createSchema(),
 *   context: () => ({ em: orm.em.fork() }),
 *   ...preset,
 *   plugins: [...preset.plugins, useExtendContext(() => ({ startedAt: Date.now() }))],
 * });
 * Deno.serve({ hostname: "127.0.0.1", port: 8000 }, (request) => yoga.fetch(request));
 * ```
 *
 * @throws Error naming the option when a limit, the time budget or the body size is not a
 *   positive number (from the plugin that takes it)
 */
export function mikrogqlPreset(options: PresetOptions): Preset {
  const plugins: Plugin[] = [];
  if (options.jit !== false) plugins.push(Jit(options.jit === true ? {} : options.jit));
  if (options.plannedReads !== false) plugins.push(PlannedReads());
  if (options.maxBodyBytes !== false) {
    plugins.push(BodyLimit(options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES));
  }
  if (options.csrf !== false) plugins.push(Csrf());
  plugins.push(UnknownParams());
  if (options.limits !== false) plugins.push(Limits(options.limits ?? {}));
  plugins.push(ClientErrors());
  plugins.push(Transactioner({ ...options.transactioner, txOpener: options.txOpener }));
  if (options.retryReads !== false) plugins.push(ReadRetry());
  if (options.deadline !== false) plugins.push(Deadline(options.deadline ?? {}));
  plugins.push(DocumentCache(options.documentCache));
  const development = Deno.env.get("NODE_ENV") !== "production";
  return {
    plugins,
    parserAndValidationCache: false,
    maxRequestBodySize: false,
    multipart: false,
    cors: false,
    graphiql: development,
    landingPage: development,
  };
}
