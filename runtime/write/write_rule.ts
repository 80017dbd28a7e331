/**
 * Asking a policy's write rule (`policy.ts`) about one create, update or delete, with the row
 * before the write as the rule's `before`.
 *
 * @module
 */
import { type EntityManager, wrap } from "@mikro-orm/core";
import { ErrorCode, gqlError } from "../error_codes.ts";
import type { NodeType } from "../graph.ts";
import { rulesOf } from "../policy_binding.ts";
import type { MutationInput } from "./input_fields.ts";

type Row = Record<string, unknown>;

/**
 * A copy of `entity`'s properties (references and collections as they are): a rule's `before`,
 * unchanged by the write applied to `entity` afterwards.
 *
 * @param entity a managed entity
 */
export function snapshot(entity: Row): Row {
  const meta = wrap(entity, true).__meta;
  return Object.fromEntries(meta.props.map((prop) => [prop.name, entity[prop.name]]));
}

/**
 * Asks the write rule of `type`'s policy under `em`'s binding whether the request's viewer may
 * make this write; nothing to ask without a policy or a rule for `mode`.
 *
 * @param request the rule's input, and the row before (update, delete) and after (create, update)
 * @throws GraphQLError `FORBIDDEN` when the rule refuses
 */
export async function checkWriteRule(
  em: EntityManager,
  type: NodeType,
  mode: "create" | "update" | "delete",
  request: { input: MutationInput; before?: Row; after?: Row },
): Promise<void> {
  const found = rulesOf(em, type.entity);
  const rule = found?.rules[mode];
  if (!rule) return;
  if (await rule({ ...request, viewer: found.viewer, em }) !== true) {
    throw gqlError(
      ErrorCode.FORBIDDEN,
      `cannot ${mode} ${type.name}: the policy does not allow this request to`,
    );
  }
}
