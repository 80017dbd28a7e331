/**
 * Connection timeouts for `serve()`: how long a client may take to send a request's header block
 * (`headers`), its body (`body`), and how long a keep-alive connection may sit idle between
 * requests (`idle`). `Deno.serve` (Deno 2.9) has none of them: a connection that trickles its
 * headers, its body, or sends nothing is held open for ever, and enough of them exhaust the
 * process's file descriptors (the "slowloris" attack).
 *
 * The header and idle timeouts need to see a connection before the HTTP server has parsed a
 * request on it, which `Deno.serve` does not show: {@linkcode guardConnections} accepts the TCP
 * connections itself and relays each to `Deno.serve` listening on the loopback interface, while
 * `serve()`'s handler tells it when a request on the connection starts and when its response has
 * been sent. The body timeout is the handler's (`server/body_timeout.ts`).
 *
 * @module
 */

/**
 * The timeouts, in milliseconds; `false` (or `0`) turns one off. The body timeout is on by
 * default (a few µs of CPU per request); the header and idle timeouts need the relay of
 * {@linkcode guardConnections} (about 35 µs of CPU per request, a fifth of the cheapest
 * request's), so they are off unless set: set them when clients reach the server without a proxy
 * that has its own (nginx's `client_header_timeout`, a cloud load balancer's idle timeout). The
 * values follow Go's and Node's servers in spirit, shorter where an API's requests are small:
 * Node's `headersTimeout` is 60 s and `requestTimeout` 300 s (for uploads of any size), Go's
 * `ReadHeaderTimeout` is commonly set to 10 s, and Node's `keepAliveTimeout` is 5 s.
 */
export interface ConnectionTimeouts {
  /**
   * The request's header block: from its first byte (from the connection's opening for the
   * first request) to its end; default off, 10,000 recommended: a header block arrives in one
   * packet from any client, and 10 s spares a slow mobile link. Past it the connection is
   * answered 408 and closed.
   */
  headers?: number | false;
  /**
   * The request's body, from the end of its headers to the end of its body (GraphQL Yoga has
   * read and parsed it); default 30,000: a 2 MB body (the default `maxBodyBytes`) at 64 KB/s. It
   * costs a request a promise and a set entry (no timer: one sweep a second).
   * Past it the request is answered 408 with `Connection: close`.
   */
  body?: number | false;
  /**
   * A keep-alive connection with no request in flight, from the end of the last response to the
   * next request's first byte; default off, 5,000 recommended (Node's `keepAliveTimeout`). Past
   * it the connection is closed (as HTTP/1.1 allows any time a connection is idle). Behind a
   * proxy that keeps connections to the server, set it above the proxy's idle timeout, so the
   * server never closes one the proxy is about to reuse (AWS ALB: 60 s).
   */
  idle?: number | false;
}

/** The defaults of {@linkcode ConnectionTimeouts}, in milliseconds. */
export const DEFAULT_CONNECTION_TIMEOUTS: Readonly<
  Required<Record<keyof ConnectionTimeouts, number>>
> = Object.freeze({ headers: 0, body: 30_000, idle: 0 });

/** The timeouts in milliseconds, `0` where one is off. */
export type ResolvedTimeouts = Required<Record<keyof ConnectionTimeouts, number>>;

/**
 * The timeouts with their defaults filled in; `false` for all of them off.
 *
 * @throws Error when a timeout is not `false` or a number of 0 or more milliseconds
 */
export function resolveTimeouts(options: ConnectionTimeouts | false | undefined): ResolvedTimeouts {
  if (options === false) return { headers: 0, body: 0, idle: 0 };
  const resolved = { ...DEFAULT_CONNECTION_TIMEOUTS };
  for (const key of Object.keys(resolved) as (keyof ConnectionTimeouts)[]) {
    const value = options?.[key];
    if (value === undefined) continue;
    if (value !== false && !(typeof value === "number" && value >= 0 && Number.isFinite(value))) {
      throw new Error(`timeouts.${key} must be false or 0 or more milliseconds, got ${value}`);
    }
    resolved[key] = value || 0;
  }
  return resolved;
}

/** What a request's connection did, for the guard's timers. */
export interface GuardedConnection {
  /** The client's address (the handler sees the relay's loopback address). */
  readonly remoteAddr: Deno.NetAddr;
  /** A request arrived on it (its header block is complete); `completed` settles once answered. */
  requestStarted(completed: Promise<void>): void;
  /** It became a WebSocket: no more timeouts (the WebSocket's own budgets apply). */
  upgraded(): void;
}

/** The guard of a listening port: see {@linkcode guardConnections}. */
export interface ConnectionGuard {
  /** The address clients connect to. */
  readonly addr: Deno.NetAddr;
  /** The connection a request came through, by the remote address `Deno.serve` gives it. */
  connectionOf(upstreamAddr: Deno.Addr): GuardedConnection | undefined;
  /** Relays accepted connections to the HTTP server at `upstream` (until {@linkcode close}). */
  start(upstream: Deno.NetAddr): void;
  /** Stops accepting connections; relayed ones end as the HTTP server closes its side. */
  close(): void;
}

/** The answer to a header block that did not arrive in time (as Node's server writes it). */
const REQUEST_TIMEOUT = new TextEncoder().encode(
  "HTTP/1.1 408 Request Timeout\r\nConnection: close\r\nContent-Length: 0\r\n\r\n",
);

/** Bytes read at once from either side of a relayed connection. */
const CHUNK_BYTES = 16 * 1024;

/** One relayed connection and its timer. */
class Relayed implements GuardedConnection {
  /**
   * `head`: awaiting a header block; `busy`: requests in flight; `idle`: between requests;
   * `ending`: the HTTP server closed its side, the client's is left to close.
   */
  #phase: "head" | "busy" | "idle" | "upgraded" | "ending" | "closed" = "head";
  #inFlight = 0;
  /**
   * Whether the HTTP server's side sent bytes since the last request started: until it has, a
   * request that ended (its `completed` settled) still has its answer in the relay's socket,
   * and the connection is not idle.
   */
  #answered = false;
  #timer: ReturnType<typeof setTimeout> | undefined;
  readonly remoteAddr: Deno.NetAddr;

  constructor(
    readonly client: Deno.TcpConn,
    readonly upstream: Deno.TcpConn,
    readonly timeouts: ResolvedTimeouts,
    readonly onClose: () => void,
  ) {
    this.remoteAddr = client.remoteAddr;
    this.#arm(timeouts.headers);
  }

  requestStarted(completed: Promise<void>): void {
    if (this.#phase !== "head" && this.#phase !== "idle" && this.#phase !== "busy") return;
    this.#inFlight++;
    this.#phase = "busy";
    this.#answered = false;
    clearTimeout(this.#timer);
    const ended = () => this.#requestEnded();
    completed.then(ended, ended);
  }

  upgraded(): void {
    if (this.#phase === "closed") return;
    this.#phase = "upgraded";
    clearTimeout(this.#timer);
  }

  /** Bytes from the client: a new request's first bytes start its header timeout. */
  clientSent(): void {
    if (this.#phase !== "idle") return;
    this.#phase = "head";
    this.#arm(this.timeouts.headers);
  }

  /**
   * Bytes from the HTTP server, on their way to the client: while idle, the idle time starts
   * again after them (an answer relayed late on a loaded machine is not cut off).
   */
  serverSent(): void {
    this.#answered = true;
    if (this.#phase === "idle") this.#arm(this.timeouts.idle);
  }

  /**
   * The HTTP server closed its side (after a `Connection: close` answer, at shutdown): the client
   * has the header timeout (or the idle one) to read the rest and close its side, then both close.
   * (Closing at once could reset the connection before the client has read the answer.)
   */
  serverClosed(): void {
    if (this.#phase === "closed" || this.#phase === "ending") return;
    this.#phase = "ending";
    this.#arm(this.timeouts.headers || this.timeouts.idle);
  }

  close(): void {
    if (this.#phase === "closed") return;
    this.#phase = "closed";
    clearTimeout(this.#timer);
    for (const conn of [this.client, this.upstream]) {
      try {
        conn.close();
      } catch { /* closed already */ }
    }
    this.onClose();
  }

  #requestEnded(): void {
    if (--this.#inFlight > 0 || this.#phase !== "busy") return;
    this.#phase = "idle";
    this.#arm(this.timeouts.idle);
  }

  #arm(ms: number): void {
    clearTimeout(this.#timer);
    if (ms > 0) this.#timer = setTimeout(() => this.#expire(), ms);
  }

  #expire(): void {
    if (this.#phase === "head") {
      // Nothing was answered on this request yet: say why before closing, as Node does.
      this.client.write(REQUEST_TIMEOUT).catch(() => {}).finally(() => this.close());
    } else if (this.#phase === "idle" && !this.#answered) {
      // the request ended, but its answer has not been relayed yet
      this.#arm(this.timeouts.idle);
    } else if (this.#phase === "idle" || this.#phase === "ending") this.close();
  }
}

/** Copies `from` to `to` until `from` ends, telling `onData` of each chunk; then half-closes `to`. */
async function pump(from: Deno.Conn, to: Deno.Conn, onData?: () => void): Promise<void> {
  const buffer = new Uint8Array(CHUNK_BYTES);
  try {
    for (let read = await from.read(buffer); read !== null; read = await from.read(buffer)) {
      onData?.();
      for (let written = 0; written < read;) {
        written += await to.write(buffer.subarray(written, read));
      }
    }
    await to.closeWrite();
  } catch { /* either side closed: the caller closes both */ }
}

/**
 * Listens on `hostname:port` and relays each connection to the HTTP server given to `start`,
 * closing it when a header block takes longer than `timeouts.headers` (answered 408) or when it
 * is idle between requests longer than `timeouts.idle`. The HTTP server's handler reports each
 * request with `connectionOf(info.remoteAddr)?.requestStarted(info.completed)`.
 *
 * `Deno.serve` listens on a free port of the loopback interface, which local processes can reach
 * without the timeouts. The relay costs each request four socket operations in this process (a read and a write each
 * way) and `Deno.serve` two more: about 35 µs of CPU per request on the benchmark machine
 * (`docs/limits.md`).
 *
 * @throws Deno.errors.AddrInUse and the like from `Deno.listen`
 */
export function guardConnections(
  listen: { hostname: string; port: number },
  timeouts: ResolvedTimeouts,
): ConnectionGuard {
  const listener = Deno.listen({ hostname: listen.hostname, port: listen.port });
  const byUpstreamPort = new Map<number, Relayed>();
  const relay = async (client: Deno.TcpConn, upstreamAddr: Deno.NetAddr) => {
    let upstream: Deno.TcpConn;
    try {
      upstream = await Deno.connect({ hostname: upstreamAddr.hostname, port: upstreamAddr.port });
    } catch {
      client.close();
      return;
    }
    const port = upstream.localAddr.port;
    const connection = new Relayed(client, upstream, timeouts, () => byUpstreamPort.delete(port));
    byUpstreamPort.set(port, connection);
    await Promise.all([
      pump(client, upstream, () => connection.clientSent()),
      pump(upstream, client, () => connection.serverSent()).then(() => connection.serverClosed()),
    ]);
    connection.close();
  };
  return {
    addr: listener.addr,
    connectionOf: (addr) =>
      addr.transport === "tcp" ? byUpstreamPort.get((addr as Deno.NetAddr).port) : undefined,
    start(upstream) {
      (async () => {
        try {
          for await (const client of listener) relay(client, upstream);
        } catch { /* the listener closed */ }
      })();
    },
    close() {
      try {
        listener.close();
      } catch { /* closed already */ }
    },
  };
}
