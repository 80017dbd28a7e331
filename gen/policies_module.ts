/**
 * A project's policies module (`policies.ts`, the `definePolicy` results it hands to
 * `createSchema({ policies })`), read by the generator when the config names it (`policies`), so
 * the generated SDL and `types.ts` show what the served schema serves: a field a field rule names
 * is nullable there (`runtime/resolve/field_rules.ts`: a denied value is `null`).
 *
 * @module
 */
import { Utils } from "@mikro-orm/core";
import { type GraphQLSchema, isNonNullType, isObjectType } from "graphql";
import { toFileUrl } from "@std/path";
import type { Policy } from "../runtime/policy.ts";
import { GenerateError } from "./generate_error.ts";
import type { Model } from "./model.ts";

/**
 * Imports the policies module at `file` (absolute): its export `policies`, else its default
 * export, an array of `definePolicy` results.
 *
 * @throws GenerateError naming the file when it cannot be imported or exports no such array
 */
export async function loadPolicies(file: string): Promise<Policy[]> {
  let module: Record<string, unknown>;
  try {
    module = await import(toFileUrl(file).href);
  } catch (error) {
    const why = String((error as Error)?.message ?? error).split("\n")[0];
    throw new GenerateError(`${file}: cannot import the policies: ${why}`);
  }
  const policies = module.policies ?? module.default;
  const valid = Array.isArray(policies) &&
    policies.every((p) => p && typeof p === "object" && "entity" in p && "rules" in p);
  if (!valid) {
    throw new GenerateError(
      `${file}: a policies module must export \`policies\` (or export default) an array of definePolicy(...) results`,
    );
  }
  return policies as Policy[];
}

/**
 * Makes every field a policy's field rule names nullable in `schema` (`email: String!` becomes
 * `email: String`) on each node type of the rule's entity, as `createSchema({ policies })` serves
 * it; a field already nullable stays so.
 *
 * @throws GenerateError naming the entity and the property when a rule names a property that is
 *   no field of the entity's node types (`createSchema` refuses it too)
 */
export function nullableRuledFields(schema: GraphQLSchema, model: Model, policies: Policy[]): void {
  for (const policy of policies) {
    const className = Utils.className(policy.entity as never);
    const types = model.types.filter((t) => t.entity.className === className);
    for (const prop of Object.keys(policy.rules.fields ?? {})) {
      const named = types.flatMap((type) =>
        type.fields.filter((f) => f.prop === prop).map((f) => ({ type, name: f.name }))
      );
      if (named.length === 0) {
        throw new GenerateError(
          `the policy of ${className} has a read rule for "${prop}", which is no field of ${className}`,
        );
      }
      for (const { type, name } of named) {
        const object = schema.getType(type.name);
        const field = isObjectType(object) ? object.getFields()[name] : undefined;
        if (field && isNonNullType(field.type)) field.type = field.type.ofType;
      }
    }
  }
}
