/**
 * Tests written before deny by default: their policies, with every rule they leave out (and every
 * entity without a policy) open (`allowAll`), as policies behaved before.
 *
 * @module
 */
import type { EntityName } from "@mikro-orm/core";
import { allowAll, definePolicy, type Policy } from "@mikrogql/ext";

/**
 * `policies`, each rule left out set to `allowAll`, plus an open policy for every entity of
 * `entities` without one.
 */
export function openPolicies(
  // deno-lint-ignore no-explicit-any
  entities: readonly EntityName<any>[],
  // deno-lint-ignore no-explicit-any
  policies: readonly Policy<any, any>[],
  // deno-lint-ignore no-explicit-any
): Policy<any, any>[] {
  const open = { read: allowAll, create: allowAll, update: allowAll, delete: allowAll };
  return entities.map((entity) => {
    const own = policies.find((p) => p.entity === entity);
    return definePolicy(entity as never, { ...open, ...own?.rules });
  });
}
