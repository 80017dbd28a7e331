/**
 * Error codes carried in `extensions.code` of the GraphQL errors the runtime raises, and the
 * helper that builds them.
 *
 * @module
 */
import { GraphQLError } from "graphql";

/** The `extensions.code` values mikrogql puts on GraphQL errors. */
export const ErrorCode = {
  /** A global id that is malformed, of an unknown type, or names no row. */
  NOT_FOUND: "NOT_FOUND",
  /** A cursor that does not decode, or does not fit the connection's order. */
  INVALID_CURSOR: "INVALID_CURSOR",
  /** `first`/`last` together, negative, or above the page-size limit. */
  INVALID_PAGINATION: "INVALID_PAGINATION",
  /** An input value that is well-typed but wrong (a where input, a mutation input). */
  BAD_USER_INPUT: "BAD_USER_INPUT",
  /** An operation nested deeper than the configured limit. */
  QUERY_TOO_DEEP: "QUERY_TOO_DEEP",
  /** The Transactioner could not open, commit or roll back a mutation's transaction. */
  TRANSACTION_FAILED: "TRANSACTION_FAILED",
} as const;

/** One of the {@linkcode ErrorCode} values. */
export type ErrorCode = typeof ErrorCode[keyof typeof ErrorCode];

/**
 * Builds a `GraphQLError` whose `extensions.code` is `code`. GraphQL Yoga passes such errors to
 * the client unmasked.
 *
 * @param code one of {@linkcode ErrorCode}
 * @param message what was wrong, naming the value
 */
export function gqlError(code: ErrorCode, message: string): GraphQLError {
  return new GraphQLError(message, { extensions: { code } });
}
