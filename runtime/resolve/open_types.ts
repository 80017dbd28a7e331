/**
 * The warning `createSchema` prints about the types its policies open to every viewer: a rule
 * that is `allowAll` (`policy.ts`), for reading or for a write. With policies on, everything else
 * is denied unless a rule allows it, so these are the types to look at first.
 *
 * @module
 */
import { Utils } from "@mikro-orm/core";
import { allowAll, type Policy, type PolicyRules } from "../policy.ts";

/**
 * What `policies` open to every viewer, one entry per entity: `Tag (read, create)`.
 *
 * @returns the entries, in the policies' order; empty when no rule is `allowAll`
 */
// deno-lint-ignore no-explicit-any
export function openTypes(policies: readonly Policy<any, any>[]): string[] {
  return policies.flatMap((policy) => {
    const rules = policy.rules as PolicyRules<object, unknown>;
    const open = (["read", "create", "update", "delete"] as const).filter((mode) => {
      const rule = rules[mode];
      return rule === allowAll ||
        (typeof rule === "object" && rule.allow === allowAll && !rule.columns);
    });
    return open.length === 0 ? [] : [`${Utils.className(policy.entity)} (${open.join(", ")})`];
  });
}

/**
 * Prints (`console.warn`) the types `policies` open to every viewer, anonymous included, if any.
 */
// deno-lint-ignore no-explicit-any
export function warnOpenTypes(policies: readonly Policy<any, any>[]): void {
  const open = openTypes(policies);
  if (open.length === 0) return;
  console.warn(`mikrogql: policies open to every viewer, anonymous included: ${open.join("; ")}`);
}
