/**
 * The request's error budget (`runtime/error_budget.ts`): a resolver asking it may create
 * `maxErrors` errors, the rest are counted as dropped; the answer keeps `maxErrors` errors and
 * one saying how many were dropped, those never created included.
 */
import { assertEquals } from "@std/assert";
import { GraphQLError } from "graphql";
import {
  errorBudget,
  spendError,
  startErrorBudget,
  withinErrorBudget,
} from "../../runtime/error_budget.ts";

const errors = (n: number) => Array.from({ length: n }, (_, i) => new GraphQLError(`e${i}`));

Deno.test("spendError allows maxErrors errors, then counts the rest as dropped", () => {
  const ctx = {};
  assertEquals(errorBudget(ctx), undefined);
  assertEquals(spendError(undefined), true); // no budget: every error is created
  const budget = startErrorBudget(ctx, 2);
  assertEquals(errorBudget(ctx), budget);
  assertEquals([1, 2, 3, 4, 5].map(() => spendError(budget)), [true, true, false, false, false]);
  assertEquals(budget, { max: 2, spent: 2, dropped: 3 });
});

Deno.test("withinErrorBudget: errors over the limit and errors never created are counted", () => {
  assertEquals(withinErrorBudget({ data: {}, errors: errors(2) }, 2), undefined);
  const trimmed = withinErrorBudget({ data: {}, errors: errors(5) }, 2)!;
  assertEquals(trimmed.errors!.map((e) => e.message), [
    "e0",
    "e1",
    "3 more errors were dropped; the limit is maxErrors = 2",
  ]);
  // Within the limit, but a resolver dropped 7 before creating them.
  const budget = { max: 2, spent: 2, dropped: 7 };
  const added = withinErrorBudget({ data: {}, errors: errors(2) }, 2, budget)!;
  assertEquals(added.errors!.map((e) => e.message), [
    "e0",
    "e1",
    "7 more errors were dropped; the limit is maxErrors = 2",
  ]);
  assertEquals(added.errors![2].extensions.code, "QUERY_TOO_COMPLEX");
  // Both: 1 over the limit (another field's) and 7 never created.
  const both = withinErrorBudget({ data: {}, errors: errors(3) }, 2, budget)!;
  assertEquals(both.errors![2].message, "8 more errors were dropped; the limit is maxErrors = 2");
});
