/**
 * `serve(options)`: a generated API as a production server in one call. It creates GraphQL
 * Yoga with every plugin of `mikrogqlPreset` (limits, CSRF, transactions, deadlines, ...), serves
 * it with `Deno.serve`, and adds what a server run by an orchestrator needs:
 *
 * - graceful shutdown on SIGTERM/SIGINT: no new connections, requests in flight finish within a
 *   grace period, then the ORM is closed and the process exits (0, or 1 when requests had to be
 *   abandoned);
 * - `/health` (200 while the process runs) and `/ready` (the database answers, and no shutdown
 *   has begun);
 * - one log line per request (operation, status, duration, SQL statement count): JSON when
 *   standard output is not a terminal, coloured text when it is;
 * - a request's body within 30 s of its headers, and optional header and keep-alive idle
 *   timeouts (`timeouts`);
 * - CORS off unless an allow-list is given;
 * - GraphiQL (offline, from the package) and introspection off under `NODE_ENV=production`,
 *   unless asked for.
 *
 * @module
 */
import type { EntityManager, MikroORM } from "@mikro-orm/core";
import type { GraphQLSchema } from "graphql";
import {
  createYoga,
  type Plugin,
  type YogaInitialContext,
  type YogaServerOptions,
} from "graphql-yoga";
import { mikrogqlPreset, type PresetOptions } from "../runtime/plugins/preset.ts";
import {
  persistedDocuments,
  persistedOperationsOf,
  type PersistedOperationsOptions,
} from "../runtime/plugins/persisted_operations.ts";
import { type CorsOptions, yogaCors } from "./cors.ts";
import {
  gracefulShutdown,
  type ShutdownOptions,
  type ShutdownResult,
} from "./graceful_shutdown.ts";
import { OperationRecorder } from "./operation_recorder.ts";
import { observeStatements } from "./orm_statements.ts";
import { dialectOf } from "../runtime/dialect.ts";
import { metrics, type MetricsOptions } from "./metrics.ts";
import { readinessRoute } from "./readiness.ts";
import { IntrospectionOff } from "./introspection_off.ts";
import { tracing, type TracingOptions } from "./tracing.ts";
import { type RequestScope, requestScope } from "./request_scope.ts";
import { bufferedLogWriter, type LogWriter } from "./log_writer.ts";
import { httpChecks } from "./http_checks.ts";
import {
  type ConnectionGuard,
  type ConnectionTimeouts,
  guardConnections,
  resolveTimeouts,
} from "./connection_timeouts.ts";
import { bodyTimeout } from "./body_timeout.ts";
import { fastPath } from "./fast_path.ts";
import { createDocumentCaches, type DocumentCaches } from "../runtime/plugins/document_cache.ts";
import {
  type ChangeFeed,
  type ChangeFeedOptions,
  createChangeFeed,
} from "../runtime/events/change_feed.ts";
import { captureChanges } from "../runtime/events/change_capture.ts";
import { defineLazyEntityManager } from "../runtime/request/lazy_entity_manager.ts";
import { graphqlWebSocket, type WebSocketOptions } from "./websocket.ts";
import { clientAddresses, SubscriptionBudget, SubscriptionLimit } from "./subscription_budget.ts";
import {
  defaultLogFormat,
  formatRequestLog,
  isoTime,
  type RequestLogEntry,
  type RequestLogFormat,
  requestPath,
} from "./request_log.ts";

/** Options of {@linkcode serve}. */
export interface ServeOptions {
  /** The ORM (`openOrm`, or your own `MikroORM.init`); closed when the server shuts down. */
  orm: MikroORM;
  /** The GraphQL schema: the generated `createSchema(...)`. */
  schema: GraphQLSchema;
  /**
   * More context for each request, merged over `{ em }` (a fresh `orm.em.fork()`, made when
   * first read): a viewer, a `readFrom`, ... It gets Yoga's initial context (`request`,
   * `params`) and that `em`; an `em` it returns replaces the request's.
   */
  context?: (
    initial: YogaInitialContext & { em: EntityManager },
  ) => Record<string, unknown> | Promise<Record<string, unknown>>;
  /** Options of `mikrogqlPreset` besides `txOpener` (which is `orm`). */
  preset?: Omit<PresetOptions, "txOpener">;
  /**
   * Persisted operations (trusted documents): answer only the manifest's documents, by hash
   * (`PersistedOperations`); documents sent as text are answered 400 `PERSISTED_QUERY_ONLY`
   * unless `allowArbitraryOperations`. Default off.
   */
  persistedOperations?: PersistedOperationsOptions;
  /** Your own Yoga plugins, installed after the preset's. */
  plugins?: Plugin[];
  /** Interface to listen on; default `127.0.0.1` (`0.0.0.0` in a container). */
  hostname?: string;
  /** Port; default 8000 (`0`: any free port, see `url`). */
  port?: number;
  /**
   * Connection timeouts in milliseconds: a request's body within `body` of its headers (default
   * 30,000; answered 408 with `Connection: close`); a request's header block within `headers`
   * (answered 408 and closed) and a keep-alive connection idle at most `idle` between requests
   * (closed), both off by default: they need a relay in this process in front of `Deno.serve`,
   * which has no such timeouts (`server/connection_timeouts.ts`), at about 35 µs of CPU per
   * request. Served without a proxy that has its own (nginx, a cloud load balancer), set
   * `{ headers: 10_000, idle: 5_000 }`. `false` for all off.
   */
  timeouts?: ConnectionTimeouts | false;
  /** The GraphQL path; default `/graphql`. */
  graphqlEndpoint?: string;
  /** Browser origins allowed to call the API; default none (same-origin only). */
  cors?: CorsOptions;
  /** Serve GraphiQL on GET `graphqlEndpoint`; default: unless `NODE_ENV=production`. */
  graphiql?: boolean;
  /** Answer introspection queries; default: unless `NODE_ENV=production`. */
  introspection?: boolean;
  /** Graceful shutdown: its signals and grace period. */
  shutdown?: ShutdownOptions & {
    /** Exit the process when a signal's shutdown has finished; default `true`. */
    exit?: boolean;
  };
  /** The database wait of `/ready`, in milliseconds; default 2,000. */
  readyTimeoutMs?: number;
  /** The request log: `"json"`, `"text"`, a function, or `false`; default JSON unless a terminal. */
  log?: RequestLogFormat | false;
  /**
   * OpenTelemetry: a span per operation and one per SQL statement under it, sent to your
   * `tracerProvider`; default off.
   */
  tracing?: TracingOptions;
  /** Prometheus metrics at `/metrics` (`true`) or your endpoint and registry; default off. */
  metrics?: boolean | MetricsOptions;
  /**
   * Answer a `query` whose document is cached (or, with `persistedOperations`, named by a hash of
   * the manifest) without Yoga's HTTP layer (`server/fast_path.ts`: the same plugins, answers and
   * log); default `true`. Off by itself with `plugins`, `metrics`, or `yoga` options besides
   * `maskedErrors`, `batching` and `logging`.
   */
  fastPath?: boolean;
  /** More `createYoga` options (`maskedErrors`, `batching`, ...), applied last. */
  // deno-lint-ignore ban-types
  yoga?: Partial<YogaServerOptions<{}, {}>>;
  /** Stops the server (gracefully) when aborted. */
  signal?: AbortSignal;
  /**
   * The change feed of the schema's subscriptions (`Subscriptions()`): a feed, the options of
   * `createChangeFeed` (`{ redis: "redis://..." }` to share events between server processes),
   * or `false` for none. Default: in-process, when the schema has a `Subscription` type. The
   * ORM's commits are captured into it (`captureChanges`).
   */
  changes?: ChangeFeed | ChangeFeedOptions | false;
  /**
   * Subscription budgets (SSE and WebSocket on the GraphQL endpoint): per connection and per
   * client address (default 100), the slow consumer's buffer, the `connection_init` wait.
   */
  subscriptions?: WebSocketOptions & { maxSubscriptionsPerClient?: number };
}

/** A running server. */
export interface MikrogqlServer {
  /** The GraphQL endpoint's URL (`http://127.0.0.1:8000/graphql`). */
  url: string;
  /** The address listened on. */
  addr: Deno.NetAddr;
  /** Shuts down gracefully (as on SIGTERM, without exiting the process). */
  shutdown(): Promise<ShutdownResult>;
  /** Settles when the server has shut down and the ORM is closed. */
  finished: Promise<ShutdownResult>;
}

/** The change feed `serve` uses: none without a `Subscription` type or with `changes: false`. */
function changeFeedOf(options: ServeOptions): ChangeFeed | undefined {
  if (options.changes === false || !options.schema.getSubscriptionType()) return undefined;
  const given = options.changes;
  if (given && "subscribe" in given) return given;
  return createChangeFeed(given ?? {});
}

/** The request log's status of a request whose client closed its connection before the answer. */
const CLIENT_CLOSED_REQUEST = 499;

/**
 * The `createYoga` options (`ServeOptions.yoga`) the fast path is taken with: they change no
 * HTTP-level hook (`maskedErrors` is Yoga's, reused; a batch goes to Yoga).
 */
const FAST_PATH_YOGA_OPTIONS = new Set(["maskedErrors", "batching", "logging"]);

/** Whether `NODE_ENV` is `production`. */
function production(): boolean {
  return Deno.env.get("NODE_ENV") === "production";
}

/** Writes a server event (not a request) in the log's format. */
function logEvent(
  format: RequestLogFormat | false,
  out: LogWriter | undefined,
  message: string,
  fields = {},
): void {
  if (!out || format === false || typeof format === "function") return;
  if (format === "json") {
    out.write(JSON.stringify({ time: new Date().toISOString(), event: message, ...fields }));
  } else {
    const extra = Object.entries(fields).map(([k, v]) => `${k}=${v}`).join(" ");
    out.write(`${message}${extra ? ` ${extra}` : ""}`);
  }
}

/**
 * Serves `schema` until a signal (or `signal`, or `shutdown()`) stops it; resolves once it
 * listens.
 *
 * @example A server from the environment
 * ```ts
 * import { openOrm, serve } from "@mikrogql/ext/server";
 * import { Comment } from "./entities/comment.ts";
 * import { Photo } from "./entities/photo.ts";
 * import { Post } from "./entities/post.ts";
 * import { User } from "./entities/user.ts";
 * import { createSchema } from "./generated/mod.ts";
 *
 * const orm = await openOrm({
 *   url: Deno.env.get("DATABASE_URL") ?? "sqlite:app.db",
 *   entities: [User, Photo, Post, Comment],
 * });
 * await orm.schema.update({ safe: true });
 * await serve({
 *   orm,
 *   schema: createSchema(),
 *   hostname: "0.0.0.0",
 *   port: Number(Deno.env.get("PORT") ?? 8000),
 *   cors: { origins: ["https://app.example.com"], credentials: true },
 * });
 * ```
 *
 * @throws Error for a bad option (a limit, a CORS origin, a negative grace period), or
 *   `Deno.serve`'s error when the port is taken
 */
export async function serve(options: ServeOptions): Promise<MikrogqlServer> {
  const { orm } = options;
  const format = options.log === undefined ? defaultLogFormat() : options.log;
  // Lines and events go through a bounded buffer, written asynchronously: never blocking.
  const out = format === "json" || format === "text" ? bufferedLogWriter(Deno.stdout) : undefined;
  const graphiql = options.graphiql ?? !production();
  const introspection = options.introspection ?? !production();
  // The document cache's caches made here: the fast path looks documents up in them.
  const given = options.preset?.documentCache;
  const documentCaches: DocumentCaches = given && "documentCache" in given
    ? given
    : createDocumentCaches(given);
  // Body size and CSRF checked in the HTTP handler below, not as Yoga hooks (`http_checks.ts`).
  const preset = mikrogqlPreset({
    ...options.preset,
    documentCache: documentCaches,
    txOpener: orm,
    maxBodyBytes: false,
    csrf: false,
  });
  const { maxBodyBytes, csrf } = options.preset ?? {};
  const check = httpChecks({
    maxBodyBytes: maxBodyBytes === false ? undefined : maxBodyBytes,
    csrf,
  });
  const timeouts = resolveTimeouts(options.timeouts);
  const bodyDeadline = timeouts.body ? bodyTimeout(timeouts.body) : undefined;
  const changes = changeFeedOf(options);
  if (changes) captureChanges(orm, (committed) => changes.publish(committed));
  const budget = new SubscriptionBudget(options.subscriptions?.maxSubscriptionsPerClient ?? 100);
  let draining = () => false;
  const traced = options.tracing ? tracing(orm, dialectOf(orm.em), options.tracing) : undefined;
  const measured = options.metrics
    ? metrics(orm, options.metrics === true ? {} : options.metrics)
    : undefined;
  // The request scope feeds the log line and the metrics' statement counter: without either, no
  // request pays for it (an AsyncLocalStorage run, the recorder's two hooks).
  const scoped = format !== false || measured !== undefined;
  // The manifest's documents, parsed and validated once: served by the plugin, read by the fast
  // path.
  const persisted = options.persistedOperations &&
    persistedDocuments(options.schema, options.persistedOperations.manifest);
  const plugins: Plugin[] = [
    ...preset.plugins,
    // After Jit, which replaces the execute function that tracing wraps in its span's context.
    ...(traced ? [traced.plugin] : []),
    ...(measured ? [measured.plugin] : []),
    ...(scoped ? [OperationRecorder()] : []),
    ...(changes ? [SubscriptionLimit(budget)] : []),
    ...(introspection ? [] : [IntrospectionOff()]),
    ...(persisted ? [persistedOperationsOf(persisted, options.persistedOperations!)] : []),
    ...options.plugins ?? [],
  ];
  // GraphiQL from the package (scripts and styles inlined), loaded only when served: offline.
  const renderGraphiQL = graphiql
    ? (await import("@graphql-yoga/render-graphiql")).renderGraphiQL
    : undefined;
  // The request's EntityManager forked when first read (`lazy_entity_manager.ts`): a request that
  // reads nothing skips MikroORM's fork. Without a context option of the user's, the context is
  // built without a promise.
  const fork = () => orm.em.fork();
  const userContext = options.context;
  // The body timeout's mark: the context is built once Yoga has the request's parameters.
  const received = bodyDeadline?.received;
  // What the context function adds besides `em`: one object for every request.
  const extension = changes ? { changes } : {};
  const context = userContext
    ? async (initial: YogaInitialContext) => {
      received?.(initial.request);
      // The user's function gets `em` as a getter of the same lazy fork (a spread would fork).
      const given = { ...initial } as YogaInitialContext & { em: EntityManager };
      defineLazyEntityManager(initial, fork);
      defineLazyEntityManager(given, fork, initial);
      return { ...extension, ...await userContext(given) };
    }
    : (initial: YogaInitialContext) => {
      received?.(initial.request);
      defineLazyEntityManager(initial, fork);
      return extension;
    };
  const yoga = createYoga({
    schema: options.schema,
    context,
    graphqlEndpoint: options.graphqlEndpoint ?? "/graphql",
    parserAndValidationCache: preset.parserAndValidationCache,
    maxRequestBodySize: preset.maxRequestBodySize,
    multipart: preset.multipart,
    plugins,
    cors: yogaCors(options.cors),
    graphiql,
    ...(renderGraphiQL ? { renderGraphiQL } : {}),
    landingPage: !production(),
    logging: production() ? "warn" : "info",
    ...options.yoga,
  });
  const endpoint = options.graphqlEndpoint ?? "/graphql";
  const sockets = changes
    ? graphqlWebSocket(
      yoga,
      budget,
      options.cors,
      (request) =>
        Promise.resolve(options.context?.({ request, params: {}, em: orm.em.fork() } as never)),
      options.subscriptions,
    )
    : undefined;
  // The fast path only over plugins and options it mirrors (`fast_path.ts`).
  const fast = options.fastPath !== false && !options.plugins?.length &&
      !measured &&
      Object.keys(options.yoga ?? {}).every((key) => FAST_PATH_YOGA_OPTIONS.has(key))
    ? fastPath({
      yoga,
      endpoint,
      documents: documentCaches.documentCache,
      persisted,
      received,
      copied: sockets
        ? (original, copy) => {
          const address = clientAddresses.get(original);
          if (address) clientAddresses.set(copy, address);
        }
        : undefined,
    })
    : undefined;
  const graphql = fast ?? ((request: Request) => yoga.fetch(request));
  const ready = readinessRoute(orm, {
    timeoutMs: options.readyTimeoutMs,
    draining: () => draining(),
    onUnavailable: (reason) => logEvent(format, out, "not ready", { reason }),
    onSaturated: (reason) => logEvent(format, out, "ready, pool saturated", { reason }),
  });
  const stopObserving = scoped
    ? observeStatements(orm, () => {
      const scope = requestScope.getStore();
      if (scope) scope.statements++;
    })
    : () => {};
  let inFlight = 0;
  const write = format === false
    ? undefined
    : typeof format === "function"
    ? format
    : (entry: RequestLogEntry) => out!.write(formatRequestLog(entry, format));
  // Header and idle timeouts: connections accepted by the guard, relayed to Deno.serve.
  const hostname = options.hostname ?? "127.0.0.1";
  const port = options.port ?? 8000;
  const guard: ConnectionGuard | undefined = timeouts.headers || timeouts.idle
    ? guardConnections({ hostname, port }, timeouts)
    : undefined;
  const handler = async (
    request: Request,
    info: Deno.ServeHandlerInfo<Deno.NetAddr>,
  ): Promise<Response> => {
    const connection = guard?.connectionOf(info.remoteAddr);
    connection?.requestStarted(info.completed);
    // A WebSocket upgrade is a GET: a POST is not looked at for one.
    if (sockets && request.method === "GET" && sockets.isUpgrade(request)) {
      if (new URL(request.url).pathname === endpoint) {
        connection?.upgraded();
        return sockets.upgrade(request, (connection ?? info).remoteAddr.hostname);
      }
    }
    const arrived = Date.now();
    const started = performance.now();
    const scope: RequestScope = { statements: 0, errorCodes: [] };
    inFlight++;
    let status = 500;
    try {
      // `/ready` inside the scope too: its `select 1` counts in its log line.
      const checked = check(request);
      if (checked instanceof Response) {
        status = checked.status;
        return checked;
      }
      // The client's address, read only for a subscription (behind the guard, the relayed one's).
      if (sockets) clientAddresses.set(checked, connection ?? info);
      const answer = () =>
        ready(checked) ??
          (bodyDeadline?.run(checked, () => graphql(checked)) ?? graphql(checked));
      const response = await (scoped ? requestScope.run(scope, answer) : answer());
      status = response.status;
      return response;
    } catch (error) {
      // The client went away first (Yoga rejects with the request signal's reason): nobody reads
      // an answer, and `Deno.serve` would print the AbortError's stack. Logged as 499, nginx's
      // "client closed request".
      if (!request.signal.aborted) throw error;
      status = CLIENT_CLOSED_REQUEST;
      return new Response(null, { status });
    } finally {
      inFlight--;
      write?.({
        time: isoTime(arrived),
        method: request.method,
        path: requestPath(request.url),
        status,
        ...(scope.operationType
          ? { operation: scope.operationName, operationType: scope.operationType }
          : {}),
        durationMs: Math.round((performance.now() - started) * 10) / 10,
        statements: scope.statements,
        ...(scope.errorCodes.length ? { errors: scope.errorCodes } : {}),
      });
    }
  };
  const listening = Promise.withResolvers<Deno.NetAddr>();
  const served = Deno.serve({
    // Behind the guard, on a free port of the loopback interface.
    hostname: guard ? "127.0.0.1" : hostname,
    port: guard ? 0 : port,
    onListen: (addr) => listening.resolve(addr as Deno.NetAddr),
  }, handler);
  const servedAddr = await listening.promise;
  guard?.start(servedAddr);
  const addr = guard ? guard.addr as Deno.NetAddr : servedAddr;
  const server = guard
    ? {
      finished: served.finished,
      shutdown: () => {
        guard.close();
        return served.shutdown();
      },
    }
    : served;
  const url = `http://${addr.hostname}:${addr.port}${options.graphqlEndpoint ?? "/graphql"}`;
  const exit = options.shutdown?.exit ?? true;
  const shutdown = gracefulShutdown(server, () => inFlight, {
    draining: (cause) => {
      logEvent(format, out, "shutting down", { cause, inFlight });
      // Open subscriptions complete, so their SSE responses end and the sockets close.
      changes?.close();
      sockets?.close();
    },
    close: async () => {
      stopObserving();
      bodyDeadline?.stop();
      traced?.stop();
      measured?.stop();
      await orm.close();
    },
  }, options.shutdown);
  shutdown.finished.then((result) => {
    logEvent(format, out, "stopped", { abandoned: result.abandoned });
    if (exit && result.cause.startsWith("SIG")) {
      const code = result.abandoned ? 1 : 0;
      (out?.flush() ?? Promise.resolve()).then(() => Deno.exit(code));
    }
  });
  draining = () => shutdown.draining;
  options.signal?.addEventListener("abort", () => shutdown.shutdown("signal"), { once: true });
  logEvent(format, out, "listening", {
    url,
    graphiql: graphiql ? "on" : "off",
    introspection: introspection ? "on" : "off",
  });
  return { url, addr, shutdown: () => shutdown.shutdown(), finished: shutdown.finished };
}
