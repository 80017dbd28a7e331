/**
 * Read refusals: the `FORBIDDEN` errors of a field the viewer may not read (a policy's field rule,
 * `resolve/field_rules.ts`). Such an error refuses a value, never a write: in a mutation's payload
 * the field answers `null` with the error, and the Transactioner still commits the write the
 * rules allowed (`plugins/transactioner.ts`), as a query would answer the same field.
 *
 * @module
 */
import { GraphQLError } from "graphql";
import { ErrorCode, gqlError } from "./error_codes.ts";

const REFUSALS = new WeakSet<Error>();

/** A `FORBIDDEN` error refusing to read a value (`message` names the field), marked as such. */
export function readRefusal(message: string): GraphQLError {
  const error = gqlError(ErrorCode.FORBIDDEN, message);
  REFUSALS.add(error);
  return error;
}

/**
 * Whether `error` (an error of an execution result, or the error a resolver threw, which
 * graphql-js keeps as `originalError`) is a {@linkcode readRefusal}.
 */
export function isReadRefusal(error: Error): boolean {
  return REFUSALS.has(error) ||
    (error instanceof GraphQLError && !!error.originalError && REFUSALS.has(error.originalError));
}
