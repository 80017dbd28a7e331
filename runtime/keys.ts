/**
 * The key of a node type as one list of parts (`IdDescription.parts`, or the single `id`), the
 * one description every reader of keys works from: global ids (`plan/global_id.ts`), cursors and
 * the keyset tiebreaker (`plan/order_terms.ts`), parents matched to their rows in batched reads
 * (`read/load_collected.ts`, `read/partitioned.ts`) and the rows a mutation names.
 *
 * A part is an entity property: a scalar column (a generated `id`, a natural key such as a
 * member's `firstName`) or a to-one relation (a copy keyed by its title and a number), whose value
 * is the primary key of the row it points to. A row's key is the list of its parts' values,
 * typed as the parts' kinds (numbers for `int` parts, text for `bigint` and `string` parts);
 * its text ({@linkcode keyText}) is what rows are matched by.
 *
 * @module
 */
import { Reference, wrap } from "@mikro-orm/core";
import type { IdDescription, NodeType } from "./graph.ts";

/** One part of a key: the entity property and the kind of its values. */
export type KeyPart = Pick<IdDescription, "prop" | "kind">;

/** The parts of `type`'s key, in key order (one for a single-column key). */
export function keyParts(type: Pick<NodeType, "id">): KeyPart[] {
  return type.id.parts ?? [type.id];
}

/** A decoded key (`GlobalId.pk`): the value of a single-part key, the JSON text of a composite one. */
export type PrimaryKey = string | number;

/**
 * The value of one key part of `row` (an entity, a record or a reference): the column, or for a
 * relation the primary key of the row it points to (a reference, an entity, or the key itself in
 * a record).
 */
function partValue(row: object, prop: string): unknown {
  return keyOfValue((row as Record<string, unknown>)[prop]);
}

/** A key part's value as read from its property: itself, or the key of the row it points to. */
function keyOfValue(value: unknown): unknown {
  if (value === null || typeof value !== "object" || value instanceof Date) return value;
  return wrap(Reference.unwrapReference(value as object), true).getPrimaryKey();
}

/** `value` typed as the part's kind: a number for `int` parts, text for the others. */
function typed(part: KeyPart, value: unknown): unknown {
  if (value == null) return value;
  return part.kind === "int" ? Number(value) : String(value);
}

/**
 * The key values of `row` (an entity, a record, or a reference to a row of `type`), one per part,
 * typed as the parts' kinds. A value that is not an object is the key itself, an array the values
 * of a composite key (a record's foreign key, `read/lean_records.ts`).
 */
export function keyValues(type: Pick<NodeType, "id">, row: unknown): unknown[] {
  const parts = keyParts(type);
  if (row === null || typeof row !== "object") return [typed(parts[0], row)];
  // A record's foreign key to a composite key: its columns' values, in key order.
  if (Array.isArray(row)) return parts.map((part, i) => typed(part, row[i]));
  const target = Reference.unwrapReference(row) as object;
  return parts.map((part) => typed(part, partValue(target, part.prop)));
}

/**
 * The primary key of `row` as global ids and decoded ids hold it: the value of a single-part key
 * as stored (a number, or text for 64-bit and string keys), the JSON array of the parts' typed
 * values for a composite key.
 */
export function primaryKeyOf(type: Pick<NodeType, "id">, row: object): PrimaryKey {
  if (!type.id.parts) {
    const value = partValue(Reference.unwrapReference(row), type.id.prop);
    return typeof value === "number" ? value : String(value);
  }
  return JSON.stringify(keyValues(type, row));
}

/**
 * {@linkcode primaryKeyOf} of a row of a type whose key is a single part, from `value`, the
 * part's property as read from the row (an entity's, a record's or a reference's): what a field
 * reading the property directly, without the row, needs (`resolve/global_id_fields.ts`).
 */
export function primaryKeyOfValue(value: unknown): PrimaryKey {
  const key = keyOfValue(value);
  return typeof key === "number" ? key : String(key);
}

/**
 * The text rows are matched by: the key of a single part as text, the JSON array of a composite
 * key's typed values (so `[1, "a"]` read from one database column set equals the same key read
 * from another, whatever types the driver returned).
 */
export function keyText(type: Pick<NodeType, "id">, values: readonly unknown[]): string {
  const parts = keyParts(type);
  return parts.length === 1
    ? String(values[0])
    : JSON.stringify(parts.map((part, i) => typed(part, values[i])));
}

/** The key values of a decoded primary key `pk` (see {@linkcode primaryKeyOf}). */
export function keyValuesOf(type: Pick<NodeType, "id">, pk: PrimaryKey): unknown[] {
  return type.id.parts ? JSON.parse(String(pk)) as unknown[] : [pk];
}

/**
 * The filter selecting the row of `type` with the primary key `pk` (a decoded global id's):
 * `{ id: 1 }`, or for a composite key `{ book: 1, author: 2 }`.
 */
export function keyFilter(type: Pick<NodeType, "id">, pk: PrimaryKey): Record<string, unknown> {
  const values = keyValuesOf(type, pk);
  return Object.fromEntries(keyParts(type).map((p, i) => [p.prop, values[i]]));
}

/** The filter selecting the rows of `type` with the primary keys `pks` (decoded ids). */
export function keysFilter(
  type: Pick<NodeType, "id">,
  pks: readonly PrimaryKey[],
): Record<string, unknown> {
  return rowsFilter(type, pks.map((pk) => keyValuesOf(type, pk)));
}

/**
 * The filter selecting the rows of `type` whose key values are one of `keys`:
 * `{ id: { $in: [...] } }`, or for a composite key one condition per key (`{ $or: [{ book: 1,
 * copyNumber: 2 }, ...] }`), which MikroORM sends with one parameter per value.
 */
export function rowsFilter(
  type: Pick<NodeType, "id">,
  keys: readonly (readonly unknown[])[],
): Record<string, unknown> {
  const parts = keyParts(type);
  if (parts.length === 1) return { [parts[0].prop]: { $in: keys.map((values) => values[0]) } };
  return {
    $or: keys.map((values) => Object.fromEntries(parts.map((p, i) => [p.prop, values[i]]))),
  };
}

/**
 * The filter selecting the rows whose relation `relation` points to a row of `target` with one of
 * the keys `keys` (key values, see {@linkcode keyValues}): `{ post: { $in: [1, 2] } }`, or for a
 * composite target `{ member: { $in: [["John", "Smith"], ...] } }`, which MikroORM sends as a
 * tuple `IN` over the foreign key's columns with one parameter per value.
 */
export function referencesFilter(
  target: Pick<NodeType, "id">,
  relation: string,
  keys: readonly (readonly unknown[])[],
): Record<string, unknown> {
  const single = keyParts(target).length === 1;
  return { [relation]: { $in: keys.map((values) => single ? values[0] : [...values]) } };
}
