/**
 * The filter part of the Graph: each node type's `<T>WhereInput`, with the predicates entgql
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
import type { EntityProperty } from "@mikro-orm/core";
import { type Annotation, annotationsOf, SkipWhereInput } from "../runtime/annotations.ts";
import type { ScalarKind, WhereOpFamily } from "../runtime/graph.ts";
import {
  edgeIdName,
  embeddedPredicateName,
  hasPredicateName,
  predicateName,
  whereInputName,
} from "../runtime/names.ts";
import { whereOps } from "../runtime/where.ts";
import type { GraphEmbeddable } from "./embeddables.ts";
import type { GraphField, GraphType } from "./graph.ts";

/** The predicates of one property in a where input. */
export interface GraphWhereField {
  /** Predicate base name: the GraphQL field name, `id`, or `<edge>ID` for a foreign key. */
  name: string;
  /** The entity property. */
  prop: string;
  /** How values compare; `id` values are global ids of `target`. */
  kind: ScalarKind | "id";
  /** For `kind: "id"`, the GraphQL type the ids name. */
  target?: string;
  /** GraphQL named type of one value (`ID`, `String`, `Time`, an enum name, ...). */
  graphqlType: string;
  /** The operator family (the operators follow: `whereOps`). */
  ops: WhereOpFamily;
  /** Adds `IsNil`/`NotNil`. */
  nullable: boolean;
}

/** The edge predicates of one edge in a where input. */
export interface GraphWhereEdge {
  /** GraphQL edge name. */
  name: string;
  /** GraphQL type of the target node. */
  target: string;
  /** `has<Edge>With` exists (the target has a where input). */
  with: boolean;
}

/** A `<T>WhereInput`. */
export interface GraphWhereInput {
  /** `<T>WhereInput`. */
  name: string;
  /** The predicates on the type's fields. */
  fields: GraphWhereField[];
  /** The `has<Edge>`/`has<Edge>With` predicates. */
  edges: GraphWhereEdge[];
}

/**
 * Decides the where inputs of all `types` (in place: sets `type.where`). Run after every type's
 * fields and edges are known.
 *
 * @param report records the problem (naming the entity file and property of `type`) when two
 *   predicates of one input get the same name; every clash of every type is reported
 */
export function buildWhereInputs(
  types: GraphType[],
  report: (type: GraphType, prop: string, message: string) => void,
  embeddables: GraphEmbeddable[] = [],
): void {
  const skippedTypes = new Set(
    types.filter((t) => skipped(annotationsOf(t.entity.entity).entity)).map((t) => t.name),
  );
  for (const type of types) {
    if (skippedTypes.has(type.name)) continue;
    const annotations = annotationsOf(type.entity.entity).fields;
    const keep = (prop: string) => !skipped(annotations[prop] ?? []);
    // A composite key (a pivot entity's) has no `id` predicates: filter by its edges' ids.
    const fields: GraphWhereField[] = type.id.parts ? [] : [{
      name: "id",
      prop: type.id.prop,
      kind: "id",
      target: type.name,
      graphqlType: "ID",
      ops: "comparison",
      nullable: false,
    }];
    for (const field of type.fields) {
      if (field.embedded && !field.list && keep(field.prop)) {
        const prop = type.meta.properties[field.prop];
        fields.push(...embeddedWhereFields(field, !!prop.object, embeddables));
        continue;
      }
      if (field.kind === "json" || field.list || field.computed || !keep(field.prop)) continue;
      const ops: WhereOpFamily = field.kind === "boolean"
        ? "boolean"
        : field.kind === "enum"
        ? "equality"
        : field.kind === "string" && !isUuid(type.meta.properties[field.prop])
        ? "string"
        : "comparison";
      fields.push({
        name: field.name,
        prop: field.prop,
        kind: field.kind,
        graphqlType: field.graphqlType,
        ops,
        nullable: field.nullable,
      });
    }
    for (const edge of type.edges) {
      const prop = type.meta.properties[edge.prop];
      if (!edge.unique || !prop.owner || !keep(edge.prop)) continue;
      fields.push({
        name: edgeIdName(edge.name),
        prop: edge.prop,
        kind: "id",
        target: edge.target,
        graphqlType: "ID",
        ops: "equality",
        nullable: edge.nullable,
      });
    }
    const edges = type.edges.filter((e) => keep(e.prop)).map((e) => ({
      name: e.name,
      target: e.target,
      with: !skippedTypes.has(e.target),
    }));
    const names = new Map<string, string>();
    const claim = (name: string, prop: string) => {
      if (names.has(name)) {
        report(
          type,
          prop,
          `where predicate "${name}" of ${whereInputName(type.name)} is also made by ${
            names.get(name)
          }`,
        );
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
  field: GraphField,
  object: boolean,
  embeddables: GraphEmbeddable[],
  path = field.prop,
  name = field.name,
  nullable = field.nullable,
): GraphWhereField[] {
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
    if (leaf.kind === "json" || leaf.list || leaf.computed) return [];
    // In a JSON column, only text compares alike on every database (PostgreSQL's ->> is text, a
    // missing key and a JSON null differ on MariaDB): strings and enums by equality.
    if (object && leaf.kind !== "string" && leaf.kind !== "enum") return [];
    const ops: WhereOpFamily = leaf.kind === "boolean"
      ? "boolean"
      : leaf.kind === "enum" || (object && leaf.kind === "string")
      ? "equality"
      : leaf.kind === "string"
      ? "string"
      : "comparison";
    return [{
      name: leafName,
      prop: leafPath,
      kind: leaf.kind,
      graphqlType: leaf.graphqlType,
      ops,
      nullable: leafNullable && !object,
    }];
  });
}

function isUuid(prop: EntityProperty): boolean {
  return /^uuid(type)?$/i.test(String(prop.type)) ||
    (prop.columnTypes?.[0] ?? "").toLowerCase() === "uuid";
}

function skipped(list: Annotation[]): boolean {
  return list.some((a) => a.kind === "Skip" && (a.modes & SkipWhereInput) !== 0);
}
