/**
 * Judging one create, update or delete against the policy's write rules (`policy.ts`): the rule
 * and any query it runs see the database as it was before the write. Rules run on a fork of the
 * write's EntityManager in the same transaction (`keepTransactionContext`: the same connection,
 * its locks and row-level security session, earlier writes of the operation), with an empty
 * identity map (a `findOne` of the row being updated reads the stored row, not the changed
 * entity) and `FlushMode.COMMIT` (a query never flushes the pending insert, change or delete
 * first, as MikroORM's default `AUTO` mode would). After the write, the policy's `check` rule is
 * asked on the write's own EntityManager, where the written row is visible.
 *
 * Once policies are on, a write with no rule for it is refused (deny by default).
 *
 * @module
 */
import { type EntityManager, FlushMode, wrap } from "@mikro-orm/core";
import { ErrorCode, gqlError } from "../error_codes.ts";
import type { NodeType } from "../graph.ts";
import { bindingOf, bindPolicies, rulesOf } from "../policy_binding.ts";
import type { PolicyRules, WritePermission, WriteRule } from "../policy.ts";
import type { MutationInput } from "./input_fields.ts";

type Row = Record<string, unknown>;
type Rules = PolicyRules<Row, unknown>;

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
 * The EntityManager write rules query with: a fork of `em` in its transaction, with `em`'s
 * filters, policies and database session, an empty identity map and flushing off.
 */
export function ruleManager(em: EntityManager): EntityManager {
  const fork = em.fork({ keepTransactionContext: true, flushMode: FlushMode.COMMIT, clear: true });
  const binding = bindingOf(em);
  return binding ? bindPolicies(fork, binding) : fork;
}

/** A write's `create`/`update` rule as a permission (a bare rule is `{ allow }`). */
export function permissionOf(
  rules: Rules,
  mode: "create" | "update",
): WritePermission<Row, unknown> | undefined {
  const rule = rules[mode];
  return typeof rule === "function" ? { allow: rule } : rule;
}

/** The `FORBIDDEN` error of a write the policy refuses, its message a whole sentence. */
export function refusal(type: NodeType, mode: string, why: string) {
  return gqlError(ErrorCode.FORBIDDEN, `cannot ${mode} ${type.name}: ${why}`);
}

/**
 * Asks the write rule of `type`'s policy under `em`'s binding whether the request's viewer may
 * make this write, on {@linkcode ruleManager}'s EntityManager (the database before the write).
 * Nothing to ask without policies; with policies, no rule for `mode` refuses.
 *
 * @param request the rule's input, and the row before (update, delete) and after (create, update)
 * @throws GraphQLError `FORBIDDEN` when the rule refuses or there is none
 */
export async function checkWriteRule(
  em: EntityManager,
  type: NodeType,
  mode: "create" | "update" | "delete",
  request: { input: MutationInput; before?: Row; after?: Row },
): Promise<void> {
  const found = rulesOf(em, type.entity);
  if (!found) return;
  const rule: WriteRule<Row, unknown> | undefined = mode === "delete"
    ? found.rules.delete
    : found.rules[mode] && (permissionOf(found.rules, mode)!.allow ?? (() => true));
  if (!rule) {
    throw refusal(type, mode, `the policy of ${type.name} has no ${mode} rule, so it is denied`);
  }
  if (await rule({ ...request, viewer: found.viewer, em: ruleManager(em) }) !== true) {
    throw refusal(type, mode, `the ${mode} rule of its policy refuses this viewer`);
  }
}

/**
 * Asks the `check` rule of `type`'s policy, if any, about the row just written (flushed in the
 * write's transaction), on the write's own EntityManager.
 *
 * @throws GraphQLError `FORBIDDEN` when the check refuses (the caller's transaction rolls back)
 */
export async function checkWrittenRow(
  em: EntityManager,
  type: NodeType,
  mode: "create" | "update",
  request: { input: MutationInput; before?: Row; after: Row },
): Promise<void> {
  const found = rulesOf(em, type.entity);
  const check = found?.rules.check;
  if (!check) return;
  if (await check({ ...request, mode, viewer: found.viewer, em }) !== true) {
    throw refusal(type, mode, `the row written does not pass the check rule of its policy`);
  }
}
