/**
 * The error budget of a request (`maxErrors` of the `Limits` plugin): an answer holds at most
 * `maxErrors` errors (graphql-js stops its validation at 100 too); the errors after them are
 * dropped for one error saying how many were dropped (`QUERY_TOO_COMPLEX`).
 *
 * Two steps keep it: during execution, a resolver that may answer many errors (`nodes(ids:)`: a
 * `NOT_FOUND` per missing id) asks the request's budget before it creates each
 * ({@linkcode spendError}), and past `maxErrors` creates none, counting it as dropped: a missing
 * id past the budget costs a `null` in its slot, not an error located, kept and then thrown away.
 * When execution is done, {@linkcode withinErrorBudget} keeps the first `maxErrors` of the
 * answer's errors (other fields' errors included) and adds the one saying how many were dropped,
 * before Yoga processes the result (masking, `ClientErrors`, serialisation). 30 aliases of
 * `nodes(ids: $ids)` with 1,000 missing ids answer 100 `NOT_FOUND` errors and one
 * `QUERY_TOO_COMPLEX` saying 29,900 were dropped.
 *
 * @module
 */
import type { ExecutionResult, GraphQLError } from "graphql";
import { ErrorCode, gqlError } from "./error_codes.ts";

/** The default of `LimitsOptions.maxErrors`. */
export const DEFAULT_MAX_ERRORS = 100;

/** A request's error budget, on its GraphQL context. */
export interface ErrorBudget {
  /** The errors an answer may hold (`maxErrors`). */
  readonly max: number;
  /** Errors created by resolvers that ask the budget. */
  spent: number;
  /** Errors those resolvers did not create, the budget being spent. */
  dropped: number;
}

/** Where the budget is kept on a GraphQL context. */
const BUDGET = Symbol.for("mikrogql.errorBudget");
type BudgetHolder = { [BUDGET]?: ErrorBudget };

/**
 * Starts a budget of `max` errors on the GraphQL context `ctx` for the operation about to run
 * (called by the `Limits` plugin before execution).
 */
export function startErrorBudget(ctx: object, max: number): ErrorBudget {
  return (ctx as BudgetHolder)[BUDGET] = { max, spent: 0, dropped: 0 };
}

/** The error budget of the request whose GraphQL context is `ctx`; none without `Limits`. */
export function errorBudget(ctx: object): ErrorBudget | undefined {
  return (ctx as BudgetHolder)[BUDGET];
}

/**
 * Whether a resolver may create one more error: `true` within the budget (or without one), else
 * `false`, the error counted as dropped.
 */
export function spendError(budget: ErrorBudget | undefined): boolean {
  if (!budget) return true;
  if (budget.spent < budget.max) {
    budget.spent++;
    return true;
  }
  budget.dropped++;
  return false;
}

/**
 * `result` with at most `maxErrors` of its errors and, when there were more (or `budget` dropped
 * some before they were created), one error saying how many were dropped; `undefined` when
 * nothing was dropped (nothing to change).
 */
export function withinErrorBudget(
  result: ExecutionResult,
  maxErrors: number,
  budget?: ErrorBudget,
): ExecutionResult | undefined {
  const errors = result.errors ?? [];
  const dropped = Math.max(0, errors.length - maxErrors) + (budget?.dropped ?? 0);
  if (dropped === 0) return undefined;
  return {
    ...result,
    errors: [
      ...errors.slice(0, maxErrors),
      gqlError(
        ErrorCode.QUERY_TOO_COMPLEX,
        `${dropped} more errors were dropped; the limit is maxErrors = ${maxErrors}`,
      ) as GraphQLError,
    ],
  };
}
