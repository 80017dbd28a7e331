/**
 * The mutation part of the Graph: for a type annotated `Mutations()`, the root mutation fields
 * (`create<T>`, `update<T>`, `delete<T>`) and the fields of `Create<T>Input` / `Update<T>Input`,
 * decided from MikroORM's metadata (entgql's `MutationCreate`/`MutationUpdate` inputs):
 *
 * - `Create<T>Input`: every settable property, required unless nullable or defaulted; a unique
 *   edge is `<edge>ID: ID` (required when the relation is), a non-unique edge
 *   `<singular>IDs: [ID!]`.
 * - `Update<T>Input`: every property optional, `clear<Field>: Boolean` for nullable ones; a unique
 *   edge `<edge>ID` plus `clear<Edge>` when optional; a non-unique edge `add<Singular>IDs`, and
 *   `remove<Singular>IDs` / `clear<Edges>` when its rows can leave it (the inverse foreign key is
 *   nullable, `orphanRemoval`, or `m:n`).
 * - Left out of both: primary keys, generated properties (`onCreate`/`onUpdate`, `version`,
 *   formulas, generated columns, `persist: false`), inverse `1:1` edges (set from the owning
 *   side), and properties annotated `Skip(SkipMutationCreateInput)` /
 *   `Skip(SkipMutationUpdateInput)`.
 *
 * @module
 */
import type { EntityProperty } from "@mikro-orm/core";
import {
  type Annotation,
  SkipMutationCreateInput,
  SkipMutationUpdateInput,
} from "../runtime/annotations.ts";
import type { MutationInputFieldDescription } from "../runtime/graph.ts";
import {
  addIdsName,
  clearName,
  createFieldName,
  createInputName,
  deleteFieldName,
  edgeIdName,
  edgeIdsName,
  embeddableInputName,
  removeIdsName,
  updateFieldName,
  updateInputName,
} from "../runtime/names.ts";
import { optionalOnCreate } from "./fields.ts";
import type { GraphType } from "./graph.ts";

/** One field of `Create<T>Input` or `Update<T>Input`. */
export interface GraphMutationInputField extends MutationInputFieldDescription {
  /** GraphQL input field name, e.g. `authorID`, `clearPublishedAt`, `addCommentIDs`. */
  name: string;
  /** GraphQL named type of the value: a scalar or enum, `ID` for edges, `Boolean` for clears. */
  graphqlType: string;
  /** `[T!]` instead of `T`. */
  list: boolean;
  /** Non-null in the input. */
  required: boolean;
}

/** A generated input object and the root mutation field that takes it. */
export interface GraphMutationInput {
  /** Root mutation field, e.g. `createPost`. */
  field: string;
  /** Input object type, e.g. `CreatePostInput`. */
  name: string;
  /** The input's fields, in entity property order. */
  fields: GraphMutationInputField[];
}

/** The generated mutations of one type. */
export interface GraphMutations {
  /** `Create<T>Input` and `create<T>`, unless `Skip(SkipMutationCreateInput)`. */
  create?: GraphMutationInput;
  /** `Update<T>Input` and `update<T>`, unless `Skip(SkipMutationUpdateInput)`. */
  update?: GraphMutationInput;
  /** `delete<T>(id: ID!): ID!`. */
  delete?: { field: string };
}

/**
 * Decides the mutations of `type`, or `undefined` when the entity is not annotated `Mutations()`.
 *
 * @param entity the annotations on the entity
 * @param fields property -> the annotations on it
 * @param fail raises the GenerateError naming the entity file and property
 * @throws GenerateError (through `fail`) when two input fields get one name
 */
export function buildMutations(
  type: GraphType,
  entity: Annotation[],
  fields: Record<string, Annotation[]>,
  fail: (prop: string, message: string) => never,
): GraphMutations | undefined {
  const annotation = entity.find((a) => a.kind === "Mutations");
  if (!annotation) return undefined;
  const mutations: GraphMutations = {};
  if (annotation.create) {
    mutations.create = {
      field: createFieldName(type.name),
      name: createInputName(type.name),
      fields: inputFields(type, fields, SkipMutationCreateInput, createFields, fail),
    };
  }
  if (annotation.update) {
    mutations.update = {
      field: updateFieldName(type.name),
      name: updateInputName(type.name),
      fields: inputFields(type, fields, SkipMutationUpdateInput, updateFields, fail),
    };
  }
  if (annotation.delete) mutations.delete = { field: deleteFieldName(type.name) };
  return mutations;
}

/** What a property contributes to one input: its GraphQL name, metadata and edge target. */
interface Settable {
  name: string;
  prop: EntityProperty;
  graphqlType: string;
  /** `[T!]` (string, enum and embeddable arrays). */
  list?: boolean;
  /** A create input may leave it out (nullable or defaulted). */
  optional?: boolean;
  /** For edges: target type, and whether the edge is non-unique. */
  edge?: { target: string; many: boolean };
}

type Contribute = (s: Settable) => GraphMutationInputField[];

function inputFields(
  type: GraphType,
  annotations: Record<string, Annotation[]>,
  skipMode: number,
  contribute: Contribute,
  fail: (prop: string, message: string) => never,
): GraphMutationInputField[] {
  const settables: Settable[] = [];
  const props = type.meta.properties;
  for (const f of type.fields) {
    settables.push({
      name: f.name,
      prop: props[f.prop],
      graphqlType: f.embedded ? embeddableInputName(f.embedded) : f.graphqlType,
      list: f.list,
      optional: optionalOnCreate(type.meta, props[f.prop]),
    });
  }
  const seen = new Set<string>();
  for (const e of type.edges) {
    const prop = props[e.prop];
    if (seen.has(e.prop) || (prop.kind === "1:1" && !prop.owner)) continue;
    seen.add(e.prop);
    settables.push({
      name: e.name,
      prop,
      graphqlType: "ID",
      edge: { target: e.target, many: !e.unique },
    });
  }
  const result: GraphMutationInputField[] = [];
  const names = new Map<string, string>();
  for (const s of settables) {
    const skip = (annotations[s.prop.name] ?? []).some((a) =>
      a.kind === "Skip" && (a.modes & skipMode) !== 0
    );
    if (skip || generated(s.prop)) continue;
    for (const field of contribute(s)) {
      const other = names.get(field.name);
      if (other !== undefined) {
        fail(
          s.prop.name,
          `mutation input field "${field.name}" is also generated for ${type.name}.${other}`,
        );
      }
      names.set(field.name, s.prop.name);
      result.push(field);
    }
  }
  return result;
}

function generated(prop: EntityProperty): boolean {
  return !!(prop.onCreate || prop.onUpdate || prop.version || prop.formula ||
    prop.generated || prop.persist === false);
}

const createFields: Contribute = ({ name, prop, graphqlType, edge, list, optional }) => {
  if (!edge) {
    return [field(name, "set", "field", prop, graphqlType, { required: !optional, list })];
  }
  if (!edge.many) {
    return [field(edgeIdName(name), "set", "edge", prop, "ID", {
      target: edge.target,
      required: !prop.nullable,
    })];
  }
  return [field(edgeIdsName(name), "set", "edges", prop, "ID", {
    target: edge.target,
    list: true,
  })];
};

const updateFields: Contribute = ({ name, prop, graphqlType, edge, list }) => {
  if (prop.primary) return []; // a relation primary key is set on create only
  const clear = (kind: GraphMutationInputField["kind"]) =>
    field(clearName(name), "clear", kind, prop, "Boolean", {});
  if (!edge) {
    const set = field(name, "set", "field", prop, graphqlType, { list });
    return prop.nullable ? [set, clear("field")] : [set];
  }
  if (!edge.many) {
    const set = field(edgeIdName(name), "set", "edge", prop, "ID", { target: edge.target });
    return prop.nullable ? [set, clear("edge")] : [set];
  }
  const options = { target: edge.target, list: true };
  const add = field(addIdsName(name), "add", "edges", prop, "ID", options);
  if (!removable(prop)) return [add];
  return [add, field(removeIdsName(name), "remove", "edges", prop, "ID", options), clear("edges")];
};

/** Whether rows can leave a non-unique edge: always for `m:n`; for `1:m` when the FK allows it. */
function removable(prop: EntityProperty): boolean {
  if (prop.kind !== "1:m") return true;
  const inverse = prop.targetMeta?.properties[prop.mappedBy];
  return !!prop.orphanRemoval || !!inverse?.nullable;
}

function field(
  name: string,
  op: GraphMutationInputField["op"],
  kind: GraphMutationInputField["kind"],
  prop: EntityProperty,
  graphqlType: string,
  options: { target?: string; list?: boolean; required?: boolean },
): GraphMutationInputField {
  return {
    name,
    op,
    kind,
    prop: prop.name,
    target: options.target,
    graphqlType,
    list: options.list ?? false,
    required: options.required ?? false,
  };
}
