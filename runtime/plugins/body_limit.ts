/**
 * The `BodyLimit` plugin for GraphQL Yoga: Yoga's request body size limit
 * (`maxRequestBodySize`, the same errors) without its cost on every request. Yoga pipes every
 * request body through a counting `TransformStream` and builds a new `Request` around it, even
 * when the `Content-Length` header already bounds the body: about 0.04 ms of CPU per request,
 * a third of a `{ __typename }` request's (`deno task bench:cpu`). This plugin does
 * the same checks but wraps only a body without `Content-Length` (chunked).
 *
 * ```ts
 * createYoga({
 *   schema,
 *   context: () => ({ em: orm.em.fork() }),
 *   maxRequestBodySize: false, // the plugin checks the size instead
 *   plugins: [Jit(), BodyLimit(), Limits(), Transactioner({ txOpener: orm }), Deadline()],
 * });
 * ```
 *
 * A body with `Content-Length` is trusted to be no longer than the header says: the HTTP server
 * reads exactly that many bytes and refuses a request that also has `Transfer-Encoding`
 * (`Deno.serve`, as `tests/graphql/body_limit_test.ts` checks, and Node's `http`; HTTP/2 refuses a
 * body longer than its `content-length`). A `Request` built in-process with a wrong header is not
 * checked further.
 *
 * @module
 */
import { createGraphQLError, type Plugin } from "graphql-yoga";

/**
 * The default largest body: 2,000,000 bytes, Apollo Router's default `http_max_request_bytes`
 * (Yoga's `maxRequestBodySize` defaults to 25,000,000: parsing a 20 MB JSON body costs the
 * server about 120 ms of CPU before any limit can look at the document, a request that holds
 * every other client; the fuzz test found it).
 */
export const DEFAULT_MAX_BODY_BYTES = 2_000_000;

/** Only a single non-negative integer is a valid `Content-Length` (as Yoga checks it). */
const CONTENT_LENGTH = /^\d+$/;

/**
 * The `BodyLimit` plugin: refuses a request whose body is longer than `maxBytes` with HTTP 413
 * and the code `REQUEST_ENTITY_TOO_LARGE` (`Request body too large`), and a malformed
 * `Content-Length` with HTTP 400 and the code `BAD_REQUEST`, as Yoga's `maxRequestBodySize`
 * does. Pass `maxRequestBodySize: false` to `createYoga` with it, or the body is checked twice.
 *
 * @example Bodies up to 1 MB
 * ```ts
 * import { createYoga } from "graphql-yoga";
 * import { BodyLimit } from "@mikrogql/ext";
 * import { createSchema } from "./generated/mod.ts";
 *
 * const yoga = createYoga({
 *   schema: createSchema(),
 *   maxRequestBodySize: false, // the plugin checks the size instead of Yoga
 *   plugins: [BodyLimit(1_000_000)], // a longer body: HTTP 413, REQUEST_ENTITY_TOO_LARGE
 * });
 * ```
 *
 * @param maxBytes the largest body accepted, in bytes; default 2,000,000
 * @throws Error when `maxBytes` is not a positive number
 */
export function BodyLimit(maxBytes: number = DEFAULT_MAX_BODY_BYTES): Plugin {
  if (!(typeof maxBytes === "number" && maxBytes > 0)) {
    throw new Error(`BodyLimit: maxBytes must be a positive number, got ${String(maxBytes)}`);
  }
  return {
    onRequestParse({ request, requestParser, setRequestParser }) {
      const length = request.headers.get("content-length");
      if (length != null) {
        if (!CONTENT_LENGTH.test(length)) throw invalidLength();
        if (Number(length) > maxBytes) throw tooLarge();
        return;
      }
      if (requestParser == null || request.body == null) return;
      setRequestParser((req) => requestParser(limited(req, maxBytes)));
    },
  };
}

/** `request` with its body cut off by a `tooLarge` error after `maxBytes` bytes. */
/**
 * The body-size check of {@linkcode BodyLimit} for an HTTP handler before GraphQL Yoga
 * (`serve()` runs it instead of the plugin, one hook fewer per request): `request` itself when
 * its `Content-Length` is within `maxBytes` (or it has no body), else a copy whose body stream
 * fails with the 413 error once more than `maxBytes` bytes are read.
 *
 * @throws GraphQLError 413 `REQUEST_ENTITY_TOO_LARGE` when `Content-Length` exceeds `maxBytes`,
 *   400 `BAD_REQUEST` when it is not a number
 */
export function limitBody(request: Request, maxBytes: number): Request {
  const length = request.headers.get("content-length");
  if (length != null) {
    if (!CONTENT_LENGTH.test(length)) throw invalidLength();
    if (Number(length) > maxBytes) throw tooLarge();
    return request;
  }
  return request.body == null ? request : limited(request, maxBytes);
}

function limited(request: Request, maxBytes: number): Request {
  let read = 0;
  const body = request.body!.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        read += chunk.byteLength;
        if (read > maxBytes) controller.error(tooLarge());
        else controller.enqueue(chunk);
      },
    }),
  );
  return new Request(request.url, {
    method: request.method,
    headers: request.headers,
    signal: request.signal,
    body,
    // @ts-ignore: `duplex` (needed for a stream body) is missing from Deno's RequestInit type
    duplex: "half",
  });
}

function tooLarge(): Error {
  return createGraphQLError("Request body too large", {
    extensions: { http: { status: 413 }, code: "REQUEST_ENTITY_TOO_LARGE" },
  });
}

function invalidLength(): Error {
  return createGraphQLError("Content-Length header is invalid.", {
    extensions: { http: { status: 400 }, code: "BAD_REQUEST" },
  });
}
