/**
 * Applies one field of a mutation input to an entity: a scalar, a scalar reference, an
 * embeddable, a `mapToPk` relation, a unique edge or a collection, as the field's `op` says
 * (`graph.ts`'s `MutationInputFieldDescription`).
 *
 * @module
 */
import { Collection, type EntityManager, ScalarReference, wrap } from "@mikro-orm/core";
import type { MutationInputFieldDescription } from "../graph.ts";

/**
 * Applies one input field to `entity` (a managed entity of the field's node type); a collection
 * is initialized first.
 *
 * @param value the scalar value, or the node(s) an edge field's global id(s) name
 */
export async function applyInputField(
  em: EntityManager,
  entity: Record<string, unknown>,
  field: MutationInputFieldDescription,
  value: unknown,
): Promise<void> {
  const current = entity[field.prop];
  if (!(current instanceof Collection)) {
    const prop = wrap(entity, true).__meta.properties[field.prop];
    if (prop?.mapToPk && field.op === "set") {
      // A `mapToPk` relation holds the key of the row it points to, not the entity.
      entity[field.prop] = wrap(value as object, true).getPrimaryKey();
      return;
    }
    const embedded = prop?.kind === "embedded";
    if (prop?.kind === "scalar" && prop.ref) {
      // A scalar reference (`ref: true`) holds its value in a `Ref`: set it, or bind a new one.
      const set = field.op === "clear" ? null : value;
      if (ScalarReference.isScalarReference(current)) current.set(set);
      else {
        const ref = new ScalarReference(set, true);
        ref.bind(entity, field.prop);
        entity[field.prop] = ref;
      }
    } else if (embedded && field.op === "set") {
      // An embeddable input replaces the whole value, as instances of the embeddable classes.
      wrap(entity).assign({ [field.prop]: value }, { em, mergeEmbeddedProperties: false });
    } else {
      entity[field.prop] = field.op === "clear" ? null : value;
    }
    return;
  }
  if (!current.isInitialized()) await current.init();
  const items = value as object[];
  if (field.op === "clear") current.removeAll();
  else if (field.op === "set") current.set(items);
  else if (field.op === "add") current.add(items);
  else current.remove(items);
}
