/**
 * The error budget of the `Limits` plugin: an answer holds at most `maxErrors` errors (graphql-js
 * stops its validation at 100 too); the errors after them are dropped for one error saying how
 * many were dropped (`TOO_MANY_ERRORS`). Applied when execution is done, before Yoga processes
 * the result (masking, `ClientErrors`, serialisation): 30 aliases of `nodes(ids: $ids)` with
 * 1,000 missing ids answer 100 `NOT_FOUND` errors and one `TOO_MANY_ERRORS`, not 30,000.
 *
 * @module
 */
import type { ExecutionResult, GraphQLError } from "graphql";
import { ErrorCode, gqlError } from "../error_codes.ts";

/** The default of `LimitsOptions.maxErrors`. */
export const DEFAULT_MAX_ERRORS = 100;

/**
 * `result` with at most `maxErrors` of its errors and, when there were more, one error saying how
 * many were dropped; `undefined` when it is within the budget (nothing to change).
 */
export function withinErrorBudget(
  result: ExecutionResult,
  maxErrors: number,
): ExecutionResult | undefined {
  const errors = result.errors;
  if (!errors || errors.length <= maxErrors) return undefined;
  const dropped = errors.length - maxErrors;
  return {
    ...result,
    errors: [
      ...errors.slice(0, maxErrors),
      gqlError(
        ErrorCode.TOO_MANY_ERRORS,
        `${dropped} more errors were dropped; the limit is maxErrors = ${maxErrors}`,
      ) as GraphQLError,
    ],
  };
}
