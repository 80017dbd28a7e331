/**
 * The data a create hands `em.create` (MikroORM's `EntityFactory`), so the entity's `@OnInit`
 * hooks, `onInit` of an `EntitySchema`, and constructor-derived values see the input as they do
 * for `em.create(Entity, data)` in user code (an entity created empty and assigned afterwards
 * runs its hooks on an empty entity: a `code` built from two inputs became
 * `"undefined - undefined"`). The input is still applied field by field afterwards
 * (`apply_input_field.ts`); the data holds what `em.create` takes as `assign` would: plain
 * scalars and the nodes of unique edges, not embeddables, scalar references, `mapToPk` relations
 * or collections, which the field-by-field step sets.
 *
 * @module
 */
import type { EntityMetadata } from "@mikro-orm/core";
import type { InputField } from "./input_fields.ts";

/**
 * The `em.create` data of a create's input `fields` on an entity of `meta`.
 *
 * @param nodes the nodes the input's global ids name (`input_nodes.ts`), by input field name
 * @returns property name -> value, for the plain scalars and unique edges set
 */
export function creationData(
  meta: EntityMetadata,
  fields: readonly InputField[],
  nodes: ReadonlyMap<string, object | object[]>,
): Record<string, unknown> {
  const data: Record<string, unknown> = {};
  for (const { name, field, value } of fields) {
    if (field.op !== "set") continue;
    const prop = meta.properties[field.prop];
    if (!prop || prop.ref || prop.mapToPk) continue;
    if (prop.kind === "scalar" && field.kind === "field") data[field.prop] = value;
    else if ((prop.kind === "m:1" || prop.kind === "1:1") && !Array.isArray(nodes.get(name))) {
      data[field.prop] = nodes.get(name);
    }
  }
  return data;
}
