/**
 * Column permissions and presets of a create or update (`policy.ts`'s `WritePermission`, after
 * Hasura's insert and update permissions): the input fields the viewer may set and the values the
 * server sets, judged once the input is applied to the entity (nothing written yet), the presets
 * applied after the input and checked against it.
 * Both are asked on the rule EntityManager (`write_rule.ts`'s `ruleManager`: the database before
 * the write).
 *
 * @module
 */
import { type EntityManager, type EntityProperty, Reference, wrap } from "@mikro-orm/core";
import type { NodeType } from "../graph.ts";
import { rulesOf } from "../policy_binding.ts";
import type { InputField, MutationInput } from "./input_fields.ts";
import { permissionOf, refusal, ruleManager } from "./write_rule.ts";

type Row = Record<string, unknown>;

/**
 * Judges the fields a create or update sets against its policy's permission: with policies on,
 * a write without a rule is refused, a field outside `columns` (and not set by `preset` to the
 * same value) is refused naming it; answers the presets to apply.
 *
 * @param fields the input's given fields (`input_fields.ts`)
 * @param request the input, the row before (update) and the entity with the input applied
 * @returns property name -> value the server sets (`{}` when none, or without policies)
 * @throws GraphQLError `FORBIDDEN` naming the field the viewer may not set, or when the policy
 *   has no rule for `mode`
 */
export async function judgeInput(
  em: EntityManager,
  type: NodeType,
  mode: "create" | "update",
  fields: InputField[],
  request: { input: MutationInput; before?: Row; after: Row },
): Promise<Row> {
  const found = rulesOf(em, type.entity);
  if (!found) return {};
  const permission = permissionOf(found.rules, mode);
  if (!permission) {
    throw refusal(type, mode, `the policy of ${type.name} has no ${mode} rule, so it is denied`);
  }
  if (!permission.columns && !permission.preset) return {};
  const asked = { ...request, viewer: found.viewer, em: ruleManager(em) };
  const presets = (await permission.preset?.(asked) ?? {}) as Row;
  const columns = typeof permission.columns === "function"
    ? await permission.columns(asked)
    : permission.columns;
  if (columns) {
    const allowed = new Set(columns);
    for (const { name, field } of fields) {
      if (!allowed.has(name) && !(field.prop in presets)) {
        throw refusal(type, mode, `this viewer may not set input.${name}`);
      }
    }
  }
  return presets;
}

/**
 * Applies the presets {@linkcode judgeInput} answered to `entity`, after the input: a relation
 * as a reference of `em` (an entity of the rule EntityManager or a primary key), any other
 * property as its value.
 *
 * @param fields the input's given fields, whose applied value must equal the preset's
 * @throws GraphQLError `FORBIDDEN` naming the input field that sets a preset property to another
 *   value
 */
export function applyPresets(
  em: EntityManager,
  type: NodeType,
  mode: "create" | "update",
  entity: Row,
  presets: Row,
  fields: InputField[],
): void {
  const meta = wrap(entity, true).__meta;
  for (const [name, value] of Object.entries(presets)) {
    const prop = meta.properties[name];
    if (!prop) throw new Error(`the preset of ${type.name} names "${name}", no property of it`);
    const given = fields.find((f) => f.field.prop === name);
    if (given && valueText(prop, entity[name]) !== valueText(prop, value)) {
      throw refusal(type, mode, `input.${given.name} is set by the server for this viewer`);
    }
    entity[name] = presetValue(em, prop, value);
  }
}

/** A value of `prop` as comparable text: a relation's key (of an entity, a reference or a key). */
function valueText(prop: EntityProperty, value: unknown): string {
  if (value === null || value === undefined) return String(value);
  if (value instanceof Date) return String(value.getTime());
  if (prop.kind === "scalar" || prop.kind === "embedded" || typeof value !== "object") {
    return JSON.stringify(value);
  }
  const entity = Reference.isReference(value) ? value.unwrap() : value;
  return JSON.stringify(wrap(entity, true).getPrimaryKey());
}

/** The preset value as `em` holds it: a relation as its reference, a key as given. */
function presetValue(em: EntityManager, prop: EntityProperty, value: unknown): unknown {
  if (prop.kind === "scalar" || prop.kind === "embedded" || value == null) return value;
  const key = typeof value === "object" && !(value instanceof Date)
    ? wrap(Reference.isReference(value) ? value.unwrap() : value, true).getPrimaryKey()
    : value;
  if (prop.mapToPk) return key;
  const reference = em.getReference(prop.targetMeta!.class, key as never);
  return prop.ref ? Reference.create(reference) : reference;
}
