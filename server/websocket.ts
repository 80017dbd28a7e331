/**
 * GraphQL over WebSocket (the `graphql-transport-ws` protocol of `graphql-ws`) on `serve()`'s
 * GraphQL endpoint: a WebSocket upgrade there is handed to `graphql-ws`'s `makeServer`, whose
 * operations run through the same Yoga instance (`yoga.getEnveloped`: the preset's plugins,
 * validation, limits, the user's context function) as HTTP requests.
 *
 * - Auth on connect: the user's context function (the HTTP viewer function) runs at
 *   `connection_init` on the upgrade request, its `Authorization` header taken from the
 *   `connectionParams.authorization` a browser client sends (browsers cannot set headers on a
 *   WebSocket); a context function that throws closes the socket with 4403 Forbidden.
 * - CORS/CSRF: an upgrade whose `Origin` is neither the server's own nor allowed by `cors` is
 *   refused with 403 (cross-site WebSocket hijacking).
 * - Budgets: at most `maxSubscriptionsPerConnection` operations at once on a socket, and
 *   `maxSubscriptionsPerClient` over all of a client address's sockets and SSE streams
 *   (`SubscriptionBudget`), else the subscribe is answered with `QUERY_TOO_COMPLEX`; a socket
 *   whose unsent data passes `maxBufferedBytes` (a slow consumer) is closed with 1013.
 * - Shutdown: `close()` closes every socket with 1001 (going away) once its operations have
 *   completed (`serve()` completes them through the change feed first).
 *
 * @module
 */
import { type ExecutionArgs, GraphQLError } from "graphql";
import {
  CloseCode,
  GRAPHQL_TRANSPORT_WS_PROTOCOL,
  makeServer,
  type OperationResult,
} from "graphql-ws";
import type { YogaServerInstance } from "graphql-yoga";
import { ErrorCode, gqlError } from "../runtime/error_codes.ts";
import type { CorsOptions } from "./cors.ts";
import type { SubscriptionBudget } from "./subscription_budget.ts";

/** Options of {@linkcode graphqlWebSocket}. */
export interface WebSocketOptions {
  /** Operations one socket may run at once; default 20. */
  maxSubscriptionsPerConnection?: number;
  /** Bytes a socket may have unsent before it is closed as a slow consumer; default 4 MiB. */
  maxBufferedBytes?: number;
  /** Milliseconds a client has to send `connection_init`; default 5,000. */
  connectionInitWaitTimeoutMs?: number;
}

/** The WebSocket side of a server: upgrades and shutdown. */
export interface GraphQLWebSocket {
  /** Whether `request` asks for a WebSocket upgrade. */
  isUpgrade(request: Request): boolean;
  /** Upgrades `request` (from `client`) and serves `graphql-ws` on it. */
  upgrade(request: Request, client: string): Response;
  /** Closes every socket with 1001. */
  close(): void;
}

interface Extra {
  socket: WebSocket;
  request: Request;
  client: string;
  active: Set<string>;
  releases: Map<string, () => void>;
}

type Roots = {
  execute: (args: ExecutionArgs) => OperationResult;
  subscribe: (args: ExecutionArgs) => OperationResult;
};

/**
 * The `graphql-ws` server of `yoga`.
 *
 * @param authenticate runs the user's context function on a request (throws: not allowed)
 */
export function graphqlWebSocket(
  // deno-lint-ignore no-explicit-any
  yoga: YogaServerInstance<any, any>,
  budget: SubscriptionBudget,
  cors: CorsOptions | undefined,
  authenticate: (request: Request) => Promise<unknown>,
  options: WebSocketOptions = {},
): GraphQLWebSocket {
  const perConnection = options.maxSubscriptionsPerConnection ?? 20;
  const maxBuffered = options.maxBufferedBytes ?? 4 * 1024 * 1024;
  const sockets = new Map<WebSocket, Extra>();
  let closing = false;
  const server = makeServer<Record<string, unknown> | undefined, Extra>({
    connectionInitWaitTimeout: options.connectionInitWaitTimeoutMs ?? 5_000,
    execute: (args) => (args.rootValue as Roots).execute(args),
    subscribe: (args) => (args.rootValue as Roots).subscribe(args),
    onConnect: async (ctx) => {
      ctx.extra.request = withAuthorization(ctx.extra.request, ctx.connectionParams);
      try {
        await authenticate(ctx.extra.request);
        return true;
      } catch {
        return false; // 4403 Forbidden
      }
    },
    onSubscribe: async (ctx, id, payload) => {
      const { extra } = ctx;
      if (extra.active.size >= perConnection) {
        return [
          tooMany(`${perConnection} subscriptions per connection`, "maxSubscriptionsPerConnection"),
        ];
      }
      const release = budget.acquire(extra.client);
      if (release instanceof GraphQLError) return [release];
      extra.active.add(id);
      extra.releases.set(id, release);
      const { schema, execute, subscribe, contextFactory, parse, validate } = yoga.getEnveloped({
        request: extra.request,
        params: payload,
        countedSubscription: true,
      });
      try {
        const document = parse(payload.query);
        const errors = validate(schema, document);
        if (errors.length > 0) {
          end(extra, id);
          return errors;
        }
        return {
          schema,
          document,
          operationName: payload.operationName,
          variableValues: payload.variables,
          contextValue: await contextFactory(),
          rootValue: { execute, subscribe },
        };
      } catch (error) {
        end(extra, id);
        if (error instanceof GraphQLError) return [error];
        throw error;
      }
    },
    onNext: (ctx) => {
      if (ctx.extra.socket.bufferedAmount > maxBuffered) {
        ctx.extra.socket.close(1013, "slow consumer: too much unsent data");
      }
    },
    onComplete: (ctx, id) => end(ctx.extra, id),
    onError: (ctx, id) => end(ctx.extra, id),
  });

  return {
    isUpgrade: (request) => request.headers.get("upgrade")?.toLowerCase() === "websocket",
    upgrade(request, client) {
      if (!originAllowed(request, cors)) {
        return new Response("origin not allowed", { status: 403 });
      }
      // A copy: the upgrade consumes the request.
      const kept = new Request(request.url, { headers: new Headers(request.headers) });
      // The subprotocol the client asked for (graphql-ws refuses any but its own with 4406);
      // Deno's server-side socket does not report it.
      const protocols = (request.headers.get("sec-websocket-protocol") ?? "").split(",")
        .map((p) => p.trim()).filter(Boolean);
      const protocol = protocols.includes(GRAPHQL_TRANSPORT_WS_PROTOCOL)
        ? GRAPHQL_TRANSPORT_WS_PROTOCOL
        : protocols[0] ?? "";
      const { socket, response } = Deno.upgradeWebSocket(request, {
        ...(protocol ? { protocol } : {}),
        idleTimeout: 30,
      });
      const extra: Extra = {
        socket,
        request: kept,
        client,
        active: new Set(),
        releases: new Map(),
      };
      let closed: ((code?: number, reason?: string) => Promise<void>) | undefined;
      socket.onopen = () => {
        sockets.set(socket, extra);
        closed = server.opened({
          protocol,
          send: (message) => {
            if (socket.readyState === WebSocket.OPEN) socket.send(message);
          },
          close: (code, reason) => socket.close(code, reason),
          onMessage: (callback) => {
            socket.onmessage = async (event) => {
              try {
                await callback(String(event.data));
              } catch {
                socket.close(CloseCode.InternalServerError, "internal server error");
              }
            };
          },
        }, extra);
      };
      socket.onerror = () => {};
      socket.onclose = (event) => {
        sockets.delete(socket);
        for (const id of [...extra.active]) end(extra, id);
        closed?.(event.code, event.reason);
      };
      return response;
    },
    close() {
      // A socket closes once its operations have completed (the change feed completes them).
      closing = true;
      for (const [socket, extra] of sockets) {
        if (extra.active.size === 0) socket.close(1001, "server shutting down");
      }
    },
  };

  function end(extra: Extra, id: string): void {
    extra.active.delete(id);
    extra.releases.get(id)?.();
    extra.releases.delete(id);
    if (closing && extra.active.size === 0) {
      // after graphql-ws has sent the operation's `complete`
      queueMicrotask(() => extra.socket.close(1001, "server shutting down"));
    }
  }
}

function tooMany(what: string, limit: string): GraphQLError {
  return gqlError(ErrorCode.QUERY_TOO_COMPLEX, `at most ${what}; the limit is ${limit}`);
}

/**
 * The upgrade request with `connectionParams.authorization` (or `Authorization`) as its
 * `Authorization` header, so the HTTP viewer function reads it.
 */
function withAuthorization(request: Request, params: Record<string, unknown> | undefined): Request {
  const value = params?.authorization ?? params?.Authorization;
  if (typeof value !== "string") return request;
  const headers = new Headers(request.headers);
  headers.set("authorization", value);
  return new Request(request.url, { method: "GET", headers });
}

/** Same origin (host header) or an allowed CORS origin; no `Origin` (not a browser) passes. */
function originAllowed(request: Request, cors: CorsOptions | undefined): boolean {
  const origin = request.headers.get("origin");
  if (!origin) return true;
  try {
    if (new URL(origin).host === request.headers.get("host")) return true;
  } catch {
    return false;
  }
  return cors?.origins.includes(origin) ?? false;
}
