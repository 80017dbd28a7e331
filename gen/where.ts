/**
 * The filter part of the Model: each node type's `<T>WhereInput`, with the predicates entgql
 * generates, named as entgql names them (`text`, `textNEQ`, `textIn`, ..., `textContainsFold`,
 * `textIsNil`, `hasParent`, `hasParentWith`):
 *
 * - the node id (`id`, global ids) and every number, date, UUID and 64-bit integer: `EQ`, `NEQ`,
 *   `In`, `NotIn`, `GT`, `GTE`, `LT`, `LTE`;
 * - strings: those, plus `Contains`, `HasPrefix`, `HasSuffix`, `EqualFold`, `ContainsFold`;
 * - booleans: `EQ`, `NEQ`; enums and foreign keys (`<edge>ID` of an owning unique edge, global
 *   ids of the target): `EQ`, `NEQ`, `In`, `NotIn`;
 * - nullable properties add `IsNil`, `NotNil`; JSON properties get none;
 * - per edge `has<Edge>: Boolean`, and `has<Edge>With: [<Target>WhereInput!]` when the target
 *   has a where input; plus `not`, `and`, `or`.
 *
 * `Skip(SkipWhereInput)` on an entity drops its where input (and the `has<Edge>With` predicates
 * pointing at it); on a property or edge it drops that property's predicates.
 *
 * @module
 */
import { SkipWhereInput } from "../runtime/annotations.ts";
import type { WhereOpFamily } from "../runtime/graph.ts";
import {
  edgeIdName,
  embeddedPredicateName,
  hasPredicateName,
  predicateName,
  whereInputName,
} from "../runtime/names.ts";
import { whereOps } from "../runtime/plan/where_filter.ts";
import type { Diagnostics } from "./diagnostics.ts";
import type { ModelEmbeddable, ModelField, ModelType, ModelWhereField } from "./model.ts";

/**
 * Decides the where inputs of all `types` (in place: sets `type.where`). Run after every type's
 * fields and edges are known.
 *
 * @param diagnostics records the problem (naming the entity file and property of the type) when
 *   two predicates of one input get the same name; every clash of every type is reported
 */
export function buildWhereInputs(
  types: ModelType[],
  embeddables: ModelEmbeddable[],
  diagnostics: Diagnostics,
): void {
  const skippedTypes = new Set(types.filter((t) => skipped(t)).map((t) => t.name));
  for (const type of types) {
    if (skippedTypes.has(type.name)) continue;
    // A composite key (a pivot entity's) has no `id` predicates: filter by its edges' ids.
    const fields: ModelWhereField[] = type.id.parts ? [] : [{
      prop: type.id.prop,
      kind: "id",
      target: type.name,
      ops: "comparison",
      name: "id",
      graphqlType: "ID",
    }];
    for (const field of type.fields) {
      if (field.embedded && !field.list && !skipped(field)) {
        fields.push(...embeddedWhereFields(field, !!field.object, embeddables));
        continue;
      }
      if (
        field.kind === "json" || field.kind === "bytes" || field.list || field.computed ||
        skipped(field)
      ) continue;
      const ops: WhereOpFamily = field.kind === "boolean"
        ? "boolean"
        : field.kind === "enum"
        ? "equality"
        : field.kind === "string" && !field.uuid && !field.valueText
        ? "string"
        : "comparison";
      fields.push({
        prop: field.prop,
        kind: field.kind,
        ops,
        nullable: field.nullable || undefined,
        name: field.name,
        graphqlType: field.graphqlType,
      });
    }
    for (const edge of type.edges) {
      if (!edge.unique || !edge.owner || skipped(edge)) continue;
      fields.push({
        prop: edge.prop,
        kind: "id",
        target: edge.target,
        ops: "equality",
        nullable: edge.nullable || undefined,
        name: edgeIdName(edge.name),
        graphqlType: "ID",
      });
    }
    const edges = type.edges.filter((e) => !skipped(e)).map((e) => ({
      name: e.name,
      target: e.target,
      with: !skippedTypes.has(e.target),
    }));
    const names = new Map<string, string>();
    const claim = (name: string, prop: string) => {
      if (names.has(name)) {
        diagnostics.error({
          file: type.file,
          entity: type.meta.className,
          prop,
          message: `where predicate "${name}" of ${whereInputName(type.name)} is also made by ${
            names.get(name)
          }`,
        });
      }
      names.set(name, prop);
    };
    for (const name of ["not", "and", "or"]) claim(name, name);
    for (const f of fields) for (const op of whereOps(f)) claim(predicateName(f.name, op), f.prop);
    for (const e of edges) {
      claim(hasPredicateName(e.name), e.name);
      if (e.with) claim(hasPredicateName(e.name, true), e.name);
    }
    type.where = { name: whereInputName(type.name), fields, edges };
  }
}

/**
 * The predicates on the leaves of an embedded property, flattened into the owner's where input:
 * `addressCity`, `addressGeoLat` filter on `address.city`, `address.geo.lat`. Inline embeddables
 * get the operators of their columns; object-mode ones (a JSON column) get equality predicates
 * on their strings and enums only.
 */
function embeddedWhereFields(
  field: ModelField,
  object: boolean,
  embeddables: ModelEmbeddable[],
  path = field.prop,
  name = field.name,
  nullable = field.nullable,
): ModelWhereField[] {
  const type = embeddables.find((e) => e.name === field.embedded);
  if (!type) return [];
  return type.fields.flatMap((leaf) => {
    const leafName = embeddedPredicateName(name, leaf.name);
    const leafPath = `${path}.${leaf.prop}`;
    const leafNullable = nullable || leaf.nullable;
    if (leaf.embedded) {
      return leaf.list
        ? []
        : embeddedWhereFields(leaf, object, embeddables, leafPath, leafName, leafNullable);
    }
    if (leaf.kind === "json" || leaf.kind === "bytes" || leaf.list || leaf.computed) return [];
    // In a JSON column, only text compares alike on every database (PostgreSQL's ->> is text, a
    // missing key and a JSON null differ on MariaDB): strings and enums by equality.
    if (object && leaf.kind !== "string" && leaf.kind !== "enum") return [];
    const ops: WhereOpFamily = leaf.kind === "boolean"
      ? "boolean"
      : leaf.kind === "enum" || (object && leaf.kind === "string")
      ? "equality"
      : leaf.kind === "string" && !leaf.valueText
      ? "string"
      : "comparison";
    return [{
      prop: leafPath,
      kind: leaf.kind,
      ops,
      nullable: (leafNullable && !object) || undefined,
      name: leafName,
      graphqlType: leaf.graphqlType,
    }];
  });
}

/** `Skip(SkipWhereInput)` is on the type or property. */
function skipped(annotated: { skip: number }): boolean {
  return (annotated.skip & SkipWhereInput) !== 0;
}
