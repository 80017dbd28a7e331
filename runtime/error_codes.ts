/**
 * Error codes carried in `extensions.code` of the GraphQL errors the runtime raises, and the
 * helper that builds them.
 *
 * @module
 */
import { GraphQLError } from "graphql";

/** The `extensions.code` values mikrogql puts on GraphQL errors. */
export const ErrorCode = {
  /** A global id that is malformed, of an unknown type, or names no row the request may read. */
  NOT_FOUND: "NOT_FOUND",
  /**
   * The viewer may read the row but not do this to it (a write rule refused it, a field or an
   * order or where predicate on a field the viewer may not read, a written row the viewer could
   * not read back). A row the viewer may not read is `NOT_FOUND`, never `FORBIDDEN`.
   */
  FORBIDDEN: "FORBIDDEN",
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
  /**
   * A mutation's transaction kept conflicting with concurrent ones (a deadlock or a
   * serialization failure on every attempt the Transactioner made); nothing was written, and
   * the error carries `extensions.retryable: true`: the same request may succeed later.
   */
  TRANSACTION_CONFLICT: "TRANSACTION_CONFLICT",
  /**
   * An operation over a limit of the `Limits` plugin (document size, tokens, aliases, field
   * repeats, cost, where tree size or depth), refused before any SQL runs.
   */
  QUERY_TOO_COMPLEX: "QUERY_TOO_COMPLEX",
  /**
   * The answer held more errors than the `Limits` plugin's `maxErrors`: the first ones are kept,
   * this one says how many more were dropped.
   */
  TOO_MANY_ERRORS: "TOO_MANY_ERRORS",
  /** The request ran out of its time budget; its statements were cancelled or rolled back. */
  QUERY_TIMEOUT: "QUERY_TIMEOUT",
  /** No database connection could be had within the wait limit, or the connection died. */
  DATABASE_UNAVAILABLE: "DATABASE_UNAVAILABLE",
  /** A request refused for its HTTP shape: a POST that is not `application/json` (CSRF). */
  BAD_REQUEST: "BAD_REQUEST",
  /**
   * The change feed's broker (Redis) is unreachable: open subscriptions end with this code and
   * new ones are refused until it is back; queries and mutations are not affected.
   */
  SUBSCRIPTIONS_UNAVAILABLE: "SUBSCRIPTIONS_UNAVAILABLE",
  /**
   * A subscription whose client did not take its events as fast as they came: more than the
   * feed's `maxBufferedEvents` waited, and the subscription ended (subscribe again and refetch).
   */
  SLOW_CONSUMER: "SLOW_CONSUMER",
} as const;

/** One of the {@linkcode ErrorCode} values. */
export type ErrorCode = typeof ErrorCode[keyof typeof ErrorCode];

/**
 * Builds a `GraphQLError` whose `extensions.code` is `code`. GraphQL Yoga passes such errors to
 * the client unmasked.
 *
 * @example A resolver of your own refusing a value with a code clients can branch on
 * ```ts
 * import { ErrorCode, type FieldResolver, fromContext, gqlError, quoteInput } from "@mikrogql/ext";
 * import { Post } from "./entities/post.ts";
 * import { createSchema } from "./generated/mod.ts";
 *
 * // The field the SDL adds, declared so its resolver type-checks.
 * type PostsByTitle = FieldResolver<number, unknown, { title: string }>;
 *
 * const schema = createSchema<{ Query: { postsByTitle: PostsByTitle } }>({
 *   typeDefs: "extend type Query { postsByTitle(title: String!): Int! }",
 *   resolvers: {
 *     Query: {
 *       postsByTitle: (_root, { title }, ctx) => {
 *         if (title.trim() === "") {
 *           // { "message": "title \"  \" is blank", "extensions": { "code": "BAD_USER_INPUT" } }
 *           throw gqlError(ErrorCode.BAD_USER_INPUT, `title ${quoteInput(title)} is blank`);
 *         }
 *         return fromContext(ctx).count(Post, { title });
 *       },
 *     },
 *   },
 * });
 * ```
 *
 * @param code one of {@linkcode ErrorCode}
 * @param message what was wrong, naming the value
 */
export function gqlError(code: ErrorCode, message: string): GraphQLError {
  return new GraphQLError(message, { extensions: { code } });
}

/** Longest piece of user input an error message quotes. */
export const MAX_QUOTED_INPUT = 100;

/**
 * A user's string as a JSON string for an error message, cut to {@linkcode MAX_QUOTED_INPUT}
 * characters (an ellipsis and the full length follow a cut value).
 */
export function quoteInput(text: string): string {
  if (text.length <= MAX_QUOTED_INPUT) return JSON.stringify(text);
  return `${JSON.stringify(text.slice(0, MAX_QUOTED_INPUT))}… (${text.length} characters)`;
}

/**
 * `message` with every quoted string longer than {@linkcode MAX_QUOTED_INPUT} characters cut
 * (graphql-js quotes the offending value in its coercion and validation errors).
 */
export function clipMessage(message: string): string {
  return message.replace(
    new RegExp(`"((?:[^"\\\\]|\\\\.){${MAX_QUOTED_INPUT}})(?:[^"\\\\]|\\\\.)+"`, "g"),
    `"$1…"`,
  );
}

/**
 * The `NOT_FOUND` error for a global id, with entgql's text (an id longer than
 * `MAX_QUOTED_INPUT` characters is cut); its `stack` is its message (no stack formatted).
 */
export function notFound(id: string): Error {
  const error = gqlError(
    ErrorCode.NOT_FOUND,
    `Could not resolve to a node with the global id of '${
      id.length <= MAX_QUOTED_INPUT
        ? id
        : `${id.slice(0, MAX_QUOTED_INPUT)}… (${id.length} characters)`
    }'`,
  );
  // A client's missing id is no server fault: its stack is the message alone. V8 formats a
  // captured stack when it is first read (graphql-jit reads it for every error it locates):
  // about 70 µs each, 2 s for `nodes` answering 30,000 of them.
  Object.defineProperty(error, "stack", {
    value: `GraphQLError: ${error.message}`,
    writable: true,
    configurable: true,
  });
  return error;
}
