/**
 * `serve()`'s fast path: a `query` operation whose document the `DocumentCache` has already
 * parsed, sent as a JSON `POST`, answered without GraphQL Yoga's HTTP layer (`yoga.fetch`: the
 * server adapter's abort race and `onRequest`/`onResponse` plumbing, the request parser and its
 * `onRequestParse` hooks, the `onParams` and `onExecutionResult` chains), but with everything
 * GraphQL runs for it exactly as Yoga runs it:
 *
 * - the envelop pipeline through Yoga's own `handleParams` (`yoga.getEnveloped(context)`, then
 *   parse (from the cache), validate, the context factory and execute, with every plugin's
 *   envelop hooks: `Limits`, `Deadline`, `ReadRetry`, `Transactioner`, `Jit`, the masked errors,
 *   the operation recorder), and Yoga's handling of an error thrown in it;
 * - the result processed as Yoga's `processResult` does (`process-request.js`): every plugin's
 *   `onResultProcess` hook (Yoga's result processors, which read `Accept`; `ClientErrors`; the
 *   recorder's error codes), then the processor they chose (graphql-yoga's exported
 *   `processRegularResult` for `application/json` and `application/graphql-response+json`),
 *   or 406 when none;
 * - every plugin's `onResponse` hook, as `@whatwg-node/server`'s adapter runs them (Yoga's CORS
 *   headers, the `Transactioner`'s read-your-writes stamp).
 *
 * What the skipped layer would have done for such a request is checked on it instead: the
 * method, the path ending with the endpoint (Yoga's unhandled-route test), the `Content-Type`
 * (Yoga's JSON parser's match), a JSON object body whose `query`, `variables`, `operationName`
 * and `extensions` are of their types (Yoga's `useCheckGraphQLQueryParams`), other properties
 * dropped as the preset's `UnknownParams` drops them, no batch. With persisted operations, the
 * document is instead one of theirs named by hash (no `query`), and the `onParams` hooks (the
 * persisted operations plugin's, then Yoga's check) run as Yoga runs them. Any other request (a
 * mutation, a subscription, a document not in the cache, `documentId` without persisted
 * operations, a text with them, an unknown hash, a body that is not such an object, GET, ...)
 * goes to `yoga.fetch` as it is, or, once its body is read, as a copy carrying the same body text
 * (or the same read error).
 *
 * It is made only for a Yoga instance whose HTTP-level hooks are the ones this file mirrors:
 * `serve()` leaves it off with plugins of the user's or metrics (their
 * `onRequest`/`onParams`/`onResponse` hooks), and {@linkcode fastPath} itself returns
 * `undefined` when the instance has an `onParams` hook besides Yoga's parameter check (and the
 * persisted operations plugin's, when `persisted` is given), an `onExecutionResult` hook or an
 * instrumentation.
 *
 * @module
 */
import {
  type DocumentNode,
  type ExecutionResult,
  getOperationAST,
  GraphQLError,
  type OperationTypeNode,
} from "graphql";
import {
  createGraphQLError,
  type GraphQLParams,
  isPromise,
  type Plugin,
  type YogaServerInstance,
} from "graphql-yoga";
import type { LRUCache } from "lru-cache";
import { persistedOperationId } from "../runtime/plugins/persisted_operations.ts";

/** What {@linkcode fastPath} needs of `serve()`. */
export interface FastPathOptions {
  /** The Yoga instance (`createYoga` with the preset): its envelop pipeline and plugins. */
  // deno-lint-ignore ban-types
  yoga: YogaServerInstance<{}, {}>;
  /** The GraphQL endpoint's path (`/graphql`). */
  endpoint: string;
  /** The `DocumentCache` plugin's parsed documents by source text (`createDocumentCaches`). */
  documents: LRUCache<string, DocumentNode>;
  /**
   * The documents of the instance's `PersistedOperations` plugin by hash (`persistedDocuments`),
   * when it has one: a request naming one of them by hash is then answered on the fast path after
   * every `onParams` hook (the plugin's, then Yoga's parameter check) as Yoga runs them, and a
   * document sent as text goes to `yoga.fetch`.
   */
  persisted?: ReadonlyMap<string, DocumentNode>;
  /** Called with the request once its body has been read (the body timeout's mark). */
  received?: (request: Request) => void;
  /**
   * Called when a request whose body the fast path read goes to Yoga as a copy: what is keyed
   * by the request (a subscription's client address) is to be keyed by the copy too.
   */
  copied?: (original: Request, copy: Request) => void;
}

/**
 * How many requests the fast paths of this process have taken (counted once a request is found
 * eligible, before it runs): for tests and benchmarks, to tell which path a request took.
 */
export const fastPathStats: { taken: number } = { taken: 0 };

/** The body properties Yoga's parameter check knows; others are dropped (`UnknownParams`). */
const PARAMS = new Set(["query", "variables", "operationName", "extensions"]);
/** The same with persisted operations: also their hash's names (`UnknownParams` keeps them). */
const PERSISTED_PARAMS = new Set([...PARAMS, "documentId", "doc_id"]);

type Hook = (payload: Record<string, unknown>) => unknown;

/** Yoga's error masking (`YogaServer.maskedErrorsOpts`, `null` with `maskedErrors: false`). */
interface MaskedErrors {
  maskError(error: unknown, message: string, isDev?: boolean): Error;
  errorMessage: string;
  isDev?: boolean;
}

/**
 * The fast path over `options.yoga` (see the module documentation): a function answering a
 * request as `yoga.fetch` would, or `undefined` when the instance has HTTP-level hooks the fast
 * path does not mirror (then `serve()` hands every request to `yoga.fetch`).
 *
 * The function rejects as `yoga.fetch` does as soon as the client goes away (with
 * `request.signal.reason`); the operation itself is then cancelled by `Deadline`, as on Yoga's
 * path.
 */
export function fastPath(
  options: FastPathOptions,
): ((request: Request) => Promise<Response>) | undefined {
  const { yoga, endpoint, documents, persisted, received, copied } = options;
  // The plugins as Yoga and its server adapter take their hooks from (`getEnveloped._plugins`).
  const plugins = (yoga as unknown as { plugins: (Plugin | undefined)[] }).plugins
    .filter((plugin): plugin is Plugin => Boolean(plugin));
  const hooks = (name: string) =>
    plugins.flatMap((plugin) => {
      const hook = (plugin as Record<string, unknown>)[name];
      // Called unbound, as Yoga and its adapter call them.
      return typeof hook === "function" ? [hook as Hook] : [];
    });
  // Yoga's own `onParams` hook is its parameter check (`useCheckGraphQLQueryParams`), mirrored
  // below for a document sent as text; with persisted operations, their plugin's hook too, and
  // both run for a hash. Any other would have to run.
  const onParams = hooks("onParams");
  if (
    onParams.length !== (persisted ? 2 : 1) || hooks("onExecutionResult").length > 0 ||
    plugins.some((plugin) => "instrumentation" in plugin && plugin.instrumentation)
  ) return undefined;
  // Yoga's health check answers any URL ending with its endpoint, `/health`.
  if (endpoint.endsWith("/health")) return undefined;
  const onResultProcess = hooks("onResultProcess");
  const onResponse = hooks("onResponse");
  const handleParams = yoga.handleParams;
  const fetchAPI = yoga.fetchAPI;
  const waitUntil = yoga.waitUntil;
  const masked = (yoga as unknown as { maskedErrorsOpts: MaskedErrors | null }).maskedErrorsOpts;

  /** Yoga's `processResult` (`process-request.js`), then the adapter's `onResponse` hooks. */
  const respond = async (
    request: Request,
    serverContext: Record<string, unknown>,
    given: ExecutionResult,
  ): Promise<Response> => {
    let result: unknown = given;
    let processor: ((...args: unknown[]) => Response | Promise<Response>) | undefined;
    const acceptableMediaTypes: string[] = [];
    let acceptedMediaType = "*/*";
    for (const hook of onResultProcess) {
      const done = hook({
        request,
        acceptableMediaTypes,
        result,
        setResult: (next: unknown) => void (result = next),
        resultProcessor: processor,
        setResultProcessor: (next: typeof processor, mediaType: string) => {
          processor = next;
          acceptedMediaType = mediaType;
        },
        serverContext,
      });
      if (isPromise(done)) await done;
    }
    let response = processor
      ? await processor(result, fetchAPI, acceptedMediaType)
      : new fetchAPI.Response(null, {
        status: 406,
        statusText: "Not Acceptable",
        headers: { accept: acceptableMediaTypes.join("; charset=utf-8, ") },
      });
    for (const hook of onResponse) {
      const done = hook({
        request,
        response,
        serverContext,
        setResponse: (next: Response) => void (response = next),
        fetchAPI,
      });
      if (isPromise(done)) await done;
    }
    return response;
  };

  /**
   * Yoga's `handleError` (`error.js`) for one error thrown while the result was processed (not
   * an `AggregateError`): an abort error left out; masked, logged when masking changed it; with
   * masking off, a `GraphQLError` kept, an `Error` wrapped, anything else an unexpected error.
   */
  const thrown = (error: unknown): ExecutionResult => {
    if (isAbortError(error)) return { errors: [] };
    if (masked) {
      const shown = masked.maskError(error, masked.errorMessage, masked.isDev);
      if (shown !== error) yoga.logger.error(error);
      return {
        errors: [
          shown instanceof GraphQLError
            ? shown
            : createGraphQLError(shown.message, { originalError: shown }),
        ],
      };
    }
    if (error instanceof GraphQLError) return { errors: [error] };
    if (error instanceof Error) {
      return { errors: [createGraphQLError(error.message, { originalError: error })] };
    }
    const toString = (error as { toString?: unknown } | null | undefined)?.toString;
    if (typeof toString === "function") {
      const message = String(toString.call(error));
      const extensions = { code: "INTERNAL_SERVER_ERROR", unexpected: true };
      return { errors: [createGraphQLError(message, { extensions })] };
    }
    yoga.logger.error(error);
    const extensions = { unexpected: true };
    return { errors: [createGraphQLError("Unexpected error.", { extensions })] };
  };

  /** `request` (whose body is `body`, already read) answered by Yoga as it is answered now. */
  const toYoga = (request: Request, body: BodyInit): Promise<Response> => {
    const copy = new Request(request.url, {
      method: request.method,
      headers: request.headers,
      signal: request.signal,
      body,
      // @ts-ignore: `duplex` (needed for a stream body) is missing from Deno's RequestInit type
      duplex: "half",
    });
    copied?.(request, copy);
    return Promise.resolve(yoga.fetch(copy));
  };

  /**
   * Yoga's `getResultForParams` (`server.js`) without `onExecutionResult` hooks (the instance has
   * none): every `onParams` hook in order, then the parameter handler they leave, unless one set
   * a result.
   */
  const resultForParams = async (
    request: Request,
    given: GraphQLParams,
    context: Record<string, unknown>,
  ): Promise<unknown> => {
    let params = given;
    let paramsHandler = handleParams as unknown as (payload: Record<string, unknown>) => unknown;
    let result: unknown;
    for (const hook of onParams) {
      const done = hook({
        params,
        request,
        setParams: (next: GraphQLParams) => void (params = next),
        paramsHandler,
        setParamsHandler: (next: typeof paramsHandler) => void (paramsHandler = next),
        setResult: (next: unknown) => void (result = next),
        fetchAPI,
        context,
      });
      if (isPromise(done)) await done;
    }
    return result ?? await paramsHandler({ request, params, context });
  };

  /** The answer of a request whose method, path and content type fit (see the module doc). */
  const answer = async (request: Request): Promise<Response> => {
    let text: string;
    try {
      text = await request.text();
    } catch (error) {
      // The body limit's 413, a body cut short: Yoga reads the same error and answers it.
      return toYoga(request, new ReadableStream({ start: (c) => c.error(error) }));
    }
    received?.(request);
    const params = eligibleParams(text, documents, persisted);
    if (!params) return toYoga(request, text);
    fastPathStats.taken++;
    // The server context `yoga.fetch` would make (`isolateObject(undefined, waitUntil)`), to
    // which Yoga's `handleParams` adds `request` and `params`: the GraphQL context's base.
    const serverContext: Record<string, unknown> = { waitUntil };
    try {
      // With persisted operations the request names a hash: their plugin's hook must run.
      const result = persisted
        ? await resultForParams(request, params, serverContext)
        : await handleParams({ request, params, context: serverContext as never });
      return await respond(request, serverContext, result as ExecutionResult);
    } catch (error) {
      // Yoga's `handle` answers an error thrown after `handleParams` the same way.
      return await respond(request, serverContext, thrown(error));
    }
  };

  return (request) => {
    if (
      request.method !== "POST" || !request.url.endsWith(endpoint) ||
      !isJsonContentType(request.headers.get("content-type"))
    ) return Promise.resolve(yoga.fetch(request));
    return abortable(request.signal, answer(request));
  };
}

/**
 * `answer`, or a rejection with `signal`'s reason as soon as it aborts (the client went away):
 * `@whatwg-node/server`'s `handleAbortSignalAndPromiseResponse`, which `yoga.fetch` runs.
 */
function abortable(signal: AbortSignal, answer: Promise<Response>): Promise<Response> {
  if (signal.aborted) return Promise.reject(signal.reason);
  const raced = Promise.withResolvers<Response>();
  const onAbort = () => raced.reject(signal.reason);
  signal.addEventListener("abort", onAbort, { once: true });
  answer.then((response) => {
    signal.removeEventListener("abort", onAbort);
    raced.resolve(response);
  }, (error) => {
    signal.removeEventListener("abort", onAbort);
    raced.reject(error);
  });
  return raced.promise;
}

/**
 * Yoga's JSON request parser's match (`isContentTypeMatch(request, "application/json")`): the
 * first of a list of types, `application/json` alone or with parameters.
 */
function isJsonContentType(header: string | null): boolean {
  const type = header?.split(",")[0];
  return type === "application/json" || type?.startsWith("application/json;") === true;
}

/**
 * The parameters of a body the fast path answers, or `undefined` for one it hands to Yoga: not
 * JSON, not an object (a batch, `null`, a number), a property of the wrong type (Yoga's
 * `checkGraphQLQueryParams`: `query` a string, `variables` and `extensions` objects or null;
 * `operationName` a string or null, which Yoga leaves unchecked), or an operation other than a
 * query (none matching `operationName` included). Its document is either:
 *
 * - its `query` text, which the document cache holds, without `documentId` or `doc_id`, when the
 *   server has no persisted operations;
 * - a persisted document named by hash (`documentId`, `doc_id` or
 *   `extensions.persistedQuery.sha256Hash`: `persistedOperationId`), without `query`, when it has.
 *
 * Unknown properties are dropped, as `UnknownParams` drops them (the body itself when it has none).
 */
function eligibleParams(
  text: string,
  documents: LRUCache<string, DocumentNode>,
  persisted: ReadonlyMap<string, DocumentNode> | undefined,
): GraphQLParams | undefined {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (body === null || typeof body !== "object" || Array.isArray(body)) return undefined;
  const { query, variables, operationName, extensions } = body as Record<string, unknown>;
  if (!isObjectOrNull(variables) || !isObjectOrNull(extensions)) return undefined;
  if (operationName != null && typeof operationName !== "string") return undefined;
  let document: DocumentNode | undefined;
  if (persisted) {
    if (query != null) return undefined;
    const hash = persistedOperationId(body as GraphQLParams);
    document = hash === null ? undefined : persisted.get(hash);
  } else {
    if (typeof query !== "string") return undefined;
    document = documents.peek(query);
  }
  if (!document || operationType(document, operationName ?? null) !== "query") return undefined;
  const known = persisted ? PERSISTED_PARAMS : PARAMS;
  let unknown = false;
  for (const key in body) {
    if (!persisted && (key === "documentId" || key === "doc_id")) return undefined;
    if (!known.has(key)) unknown = true;
  }
  if (!unknown) return body as GraphQLParams;
  return Object.fromEntries(
    Object.entries(body).filter(([key]) => known.has(key)),
  ) as GraphQLParams;
}

/** Per document: the type of the operation a request's `operationName` names (`null`: none). */
const OPERATION_TYPES = new WeakMap<DocumentNode, Map<string | null, OperationTypeNode | null>>();

/**
 * The type of the operation of `document` that `operationName` names (`getOperationAST`'s, made
 * once per document and name the document holds; `null` when it names none).
 */
function operationType(
  document: DocumentNode,
  operationName: string | null,
): OperationTypeNode | null {
  let types = OPERATION_TYPES.get(document);
  if (!types) OPERATION_TYPES.set(document, types = new Map());
  let type = types.get(operationName);
  if (type === undefined) {
    type = getOperationAST(document, operationName)?.operation ?? null;
    // Kept for a name the document holds (or none given): a client's other names are not.
    if (type !== null || operationName === null) types.set(operationName, type);
  }
  return type;
}

/** An object (not an array), `null` or `undefined`: what Yoga accepts for `variables`. */
function isObjectOrNull(value: unknown): boolean {
  return value == null || (typeof value === "object" && !Array.isArray(value));
}

/** Yoga's `isAbortError` (`error.js`): a `DOMException` named `AbortError` or `TimeoutError`. */
function isAbortError(error: unknown): boolean {
  return error instanceof DOMException &&
    (error.name === "AbortError" || error.name === "TimeoutError");
}
