/**
 * The GraphQL over HTTP specification's status of a response without `data` (a request error:
 * the operation never ran): 4xx under `application/graphql-response+json`. graphql-js's
 * validation errors carry it in Yoga already; a refusal of the `Limits` plugin before execution
 * and a variable graphql-jit could not coerce (the `Jit` plugin answers them as an execution
 * result without `data`) get it here: `extensions.http = { status: 400, spec: true }`, which Yoga
 * reads for the status (keeping 200 under `application/json`, as the specification allows) and
 * leaves out of the response body.
 *
 * @module
 */
import { type ExecutionResult, GraphQLError } from "graphql";

const HTTP = { status: 400, spec: true };

/** `error` marked as a request error (HTTP 400 under `application/graphql-response+json`). */
export function requestError(error: GraphQLError): GraphQLError {
  // graphql-jit's coercion errors carry no `extensions` (nor nodes): only what is there is kept
  if (error.extensions?.http) return error;
  const marked = new GraphQLError(error.message, {
    nodes: error.nodes,
    source: error.source,
    positions: error.positions,
    path: error.path,
    originalError: error.originalError,
    extensions: { ...error.extensions, http: HTTP },
  });
  if (!error.nodes && error.locations) {
    Object.defineProperty(marked, "locations", { value: error.locations, enumerable: true });
  }
  return marked;
}

/**
 * `result` with its errors marked as request errors when it holds no `data` (the operation did
 * not run); `undefined` when it holds `data` or no error (nothing to change).
 */
export function withRequestErrorStatus(result: ExecutionResult): ExecutionResult | undefined {
  if (result.data !== undefined || !result.errors?.length) return undefined;
  if (result.errors.every((error) => error.extensions?.http)) return undefined;
  return {
    ...result,
    errors: result.errors.map((error) =>
      error instanceof GraphQLError ? requestError(error) : error
    ),
  };
}
