/**
 * The body timeout of `serve()` (`timeouts.body`, see `server/connection_timeouts.ts`): a request
 * whose body has not been received within the timeout of its headers' arrival is answered 408
 * with `Connection: close`, so the HTTP server closes the connection instead of waiting on a
 * client that trickles its body. "Received" is GraphQL Yoga having read and parsed the request's
 * parameters and built its context, which `serve()`'s context function records
 * ({@linkcode BodyTimeout.received}: no Yoga hook of its own per request; the context is built in
 * the same turn as the parameters are parsed, after the document's parse and validation): a
 * request whose body arrived but which waited for the process longer than the timeout (an event
 * loop held that long) is answered 408 too.
 *
 * One sweep a second (or every `ms`, when shorter) finds the requests past their deadline, as
 * Node's server checks its `requestTimeout` (`connectionsCheckingInterval`): no timer per request.
 *
 * @module
 */

/** The answer to a body that did not arrive in time. */
function requestTimeout(ms: number): Response {
  return Response.json(
    {
      errors: [{
        message: `The request body did not arrive within ${ms} ms`,
        extensions: { code: "REQUEST_TIMEOUT" },
      }],
    },
    { status: 408, headers: { connection: "close" } },
  );
}

/** The methods whose requests carry no body (`fetch`'s `Request` refuses one). */
const BODYLESS = new Set(["GET", "HEAD"]);

/** A request awaiting its body. */
interface Pending {
  readonly deadline: number;
  readonly request: Request;
  readonly timedOut: (response: Response) => void;
}

/** The body timeout of one server: see {@linkcode bodyTimeout}. */
export interface BodyTimeout {
  /** Marks the body of `request` (the one `run` was given) received. */
  received(request: Request): void;
  /**
   * `answer()`'s response, or a 408 once the timeout has passed without the body received (marked
   * by {@linkcode BodyTimeout.received}). A GET or HEAD request (no body) is answered as it is. The
   * abandoned answer fails once the HTTP server closes the connection.
   */
  run(
    request: Request,
    answer: () => Response | Promise<Response>,
  ): Response | Promise<Response>;
  /** Stops the sweep (the server has shut down). */
  stop(): void;
}

/**
 * A body timeout of `ms` milliseconds for one server's requests.
 *
 * @throws Error when `ms` is not a positive number
 */
export function bodyTimeout(ms: number): BodyTimeout {
  if (!(ms > 0)) throw new Error(`the body timeout must be positive, got ${ms}`);
  const pending = new Set<Pending>();
  // The requests whose body Yoga has read: keyed by the request handed to `yoga.fetch`, so the
  // mark needs no request scope.
  const received = new WeakSet<Request>();
  const sweep = setInterval(() => {
    const now = performance.now();
    for (const request of pending) {
      if (received.has(request.request)) pending.delete(request);
      else if (request.deadline <= now) {
        pending.delete(request);
        request.timedOut(requestTimeout(ms));
      }
    }
  }, Math.min(ms, 1_000));
  Deno.unrefTimer(sweep);
  // One promise per request, settled by the answer or by the sweep (an async function racing two
  // promises cost some 12 µs of CPU per request under the request scope's AsyncLocalStorage).
  const race = (request: Request, answer: () => Response | Promise<Response>) =>
    new Promise<Response>((resolve, reject) => {
      const entry = { deadline: performance.now() + ms, request, timedOut: resolve };
      pending.add(entry);
      Promise.resolve(answer()).then((response) => {
        pending.delete(entry);
        resolve(response);
      }, (error) => {
        pending.delete(entry);
        reject(error);
      });
    });
  return {
    received: (request) => void received.add(request),
    // The method, not `request.body`: reading that makes Deno build the body's ReadableStream,
    // which the JSON is then read through (some 15 µs of CPU per request, as much as a bare
    // `Deno.serve` answer).
    run: (request, answer) => BODYLESS.has(request.method) ? answer() : race(request, answer),
    stop: () => clearInterval(sweep),
  };
}
