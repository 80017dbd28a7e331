/**
 * The mutation part of the Model: for a type annotated `Mutations()`, the root mutation fields
 * (`create<T>`, `update<T>`, `delete<T>`) and the fields of `Create<T>Input` / `Update<T>Input`,
 * decided from the type's fields and edges (entgql's `MutationCreate`/`MutationUpdate` inputs):
 *
 * - `Create<T>Input`: every settable property, required unless nullable or defaulted; a unique
 *   edge is `<edge>ID: ID` (required when the relation is), a non-unique edge
 *   `<singular>IDs: [ID!]`.
 * - `Update<T>Input`: every property optional, `clear<Field>: Boolean` for nullable ones; a unique
 *   edge `<edge>ID` plus `clear<Edge>` when optional; a non-unique edge `add<Singular>IDs`, and
 *   `remove<Singular>IDs` / `clear<Edges>` when its rows can leave it (the inverse foreign key is
 *   nullable, `orphanRemoval`, or `m:n`).
 * - Key columns other than a single `id` (natural keys, the parts of a composite key) and
 *   relations in the key are create input fields only: a row's key never changes.
 * - Left out of both: a single-column `id` key, generated properties (`onCreate`/`onUpdate`, `version`,
 *   formulas, generated columns, `persist: false`), inverse `1:1` edges (set from the owning
 *   side), and properties annotated `Skip(SkipMutationCreateInput)` /
 *   `Skip(SkipMutationUpdateInput)`.
 *
 * @module
 */
import {
  type Annotation,
  SkipMutationCreateInput,
  SkipMutationUpdateInput,
} from "../runtime/annotations.ts";
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
import type { Diagnostics } from "./diagnostics.ts";
import type { ModelMutationInputField, ModelMutations, ModelType } from "./model.ts";

/**
 * Decides the mutations of `type`, or `undefined` when the entity is not annotated `Mutations()`.
 *
 * @param annotation the `Mutations()` annotation on the entity
 * @param diagnostics records the problem (naming the entity file and property) and abandons the
 *   type when two input fields get one name
 */
export function buildMutations(
  type: ModelType,
  annotation: Extract<Annotation, { kind: "Mutations" }> | undefined,
  diagnostics: Diagnostics,
): ModelMutations | undefined {
  if (!annotation) return undefined;
  const mutations: ModelMutations = {};
  if (annotation.create) {
    mutations.create = {
      field: createFieldName(type.name),
      name: createInputName(type.name),
      fields: inputFields(type, SkipMutationCreateInput, createFields, diagnostics),
    };
  }
  if (annotation.update) {
    mutations.update = {
      field: updateFieldName(type.name),
      name: updateInputName(type.name),
      fields: inputFields(type, SkipMutationUpdateInput, updateFields, diagnostics),
    };
  }
  if (annotation.delete) mutations.delete = { field: deleteFieldName(type.name) };
  return mutations;
}

/** What a field or edge contributes to one input: its GraphQL name, value and edge target. */
interface Settable {
  name: string;
  /** The entity property. */
  prop: string;
  graphqlType: string;
  /** The property can be null. */
  nullable: boolean;
  /** `[T!]` (string, enum and embeddable arrays). */
  list?: boolean;
  /** A create input may leave it out (nullable or defaulted). */
  optional?: boolean;
  /** A key column or a relation in the key: set on create only. */
  primary?: boolean;
  /** For edges: target type, whether the edge is non-unique, whether rows can leave it. */
  edge?: { target: string; many: boolean; removable: boolean };
}

type Contribute = (s: Settable) => ModelMutationInputField[];

function inputFields(
  type: ModelType,
  skipMode: number,
  contribute: Contribute,
  diagnostics: Diagnostics,
): ModelMutationInputField[] {
  const settables: Settable[] = [];
  for (const f of type.fields) {
    if (f.skip & skipMode || f.generated) continue;
    settables.push({
      name: f.name,
      prop: f.prop,
      graphqlType: f.embedded ? embeddableInputName(f.embedded) : f.graphqlType,
      nullable: f.nullable,
      list: f.list,
      optional: f.optional,
      primary: f.key,
    });
  }
  const seen = new Set<string>();
  for (const e of type.edges) {
    if (seen.has(e.prop) || (e.kind === "1:1" && !e.owner)) continue;
    seen.add(e.prop);
    if (e.skip & skipMode || e.generated) continue;
    settables.push({
      name: e.name,
      prop: e.prop,
      graphqlType: "ID",
      nullable: e.nullable,
      primary: e.primary,
      edge: { target: e.target, many: !e.unique, removable: e.removable },
    });
  }
  const result: ModelMutationInputField[] = [];
  const names = new Map<string, string>();
  for (const s of settables) {
    for (const field of contribute(s)) {
      const other = names.get(field.name);
      if (other !== undefined) {
        diagnostics.fail({
          file: type.file,
          entity: type.meta.className,
          prop: s.prop,
          message:
            `mutation input field "${field.name}" is also generated for ${type.name}.${other}`,
        });
      }
      names.set(field.name, s.prop);
      result.push(field);
    }
  }
  return result;
}

const createFields: Contribute = ({ name, prop, graphqlType, nullable, edge, list, optional }) => {
  if (!edge) {
    return [field(name, "set", "field", prop, graphqlType, { required: !optional, list })];
  }
  if (!edge.many) {
    return [field(edgeIdName(name), "set", "edge", prop, "ID", {
      target: edge.target,
      required: !nullable,
    })];
  }
  return [field(edgeIdsName(name), "set", "edges", prop, "ID", {
    target: edge.target,
    list: true,
  })];
};

const updateFields: Contribute = ({ name, prop, graphqlType, nullable, primary, edge, list }) => {
  if (primary) return []; // a key (column or relation) is set on create only
  const clear = (kind: ModelMutationInputField["kind"]) =>
    field(clearName(name), "clear", kind, prop, "Boolean", {});
  if (!edge) {
    const set = field(name, "set", "field", prop, graphqlType, { list });
    return nullable ? [set, clear("field")] : [set];
  }
  if (!edge.many) {
    const set = field(edgeIdName(name), "set", "edge", prop, "ID", { target: edge.target });
    return nullable ? [set, clear("edge")] : [set];
  }
  const options = { target: edge.target, list: true };
  const add = field(addIdsName(name), "add", "edges", prop, "ID", options);
  if (!edge.removable) return [add];
  return [add, field(removeIdsName(name), "remove", "edges", prop, "ID", options), clear("edges")];
};

/** An input field; the keys of `MutationInputFieldDescription` first, as the tables print them. */
function field(
  name: string,
  op: ModelMutationInputField["op"],
  kind: ModelMutationInputField["kind"],
  prop: string,
  graphqlType: string,
  options: { target?: string; list?: boolean; required?: boolean },
): ModelMutationInputField {
  return {
    op,
    kind,
    prop,
    target: options.target,
    name,
    graphqlType,
    list: options.list ?? false,
    required: options.required ?? false,
  };
}
