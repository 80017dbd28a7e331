/**
 * Step 3 of generation: turn MikroORM metadata and the annotations into one intermediate
 * representation, the Graph, with every GraphQL name decided here, once. Every problem of an
 * invalid model is collected (naming the entity file and property) and the model rejected with
 * one `GenerateError` listing them all.
 *
 * @module
 */
import type { EntityMetadata, EntityProperty } from "@mikro-orm/core";
import { relative } from "@std/path";
import {
  type Annotation,
  type AnnotationKind,
  annotationsOf,
  SkipEnumField,
  SkipOrderField,
  SkipType,
} from "../runtime/annotations.ts";
import type { GlobalIdFormat, IdDescription, ScalarKind } from "../runtime/graph.ts";
import { queryFieldName } from "../runtime/names.ts";
import { Diagnostics } from "./diagnostics.ts";
import { Embeddables, flattened, type GraphEmbeddable } from "./embeddables.ts";
import { addEnum, enumOf, type GraphEnum } from "./enums.ts";
import { computedKind, getterReads, internal, scalarShape } from "./fields.ts";
import type { LoadedEntity, LoadedModel } from "./load.ts";
import { buildMutations, type GraphMutations } from "./mutations.ts";
import { addEdgeOrderFields, type PendingEdgeOrder } from "./order.ts";
import { buildWhereInputs, type GraphWhereInput } from "./where.ts";

/** A scalar field of a node type. */
export interface GraphField {
  /** GraphQL field name. */
  name: string;
  /** Entity property. */
  prop: string;
  /** The scalar kind: how values are compared, ordered, encoded in cursors. */
  kind: ScalarKind;
  /** GraphQL type name of the field, without list/non-null wrappers. */
  graphqlType: string;
  /** The property is nullable: the GraphQL field has no `!`. */
  nullable: boolean;
  /** For enum fields, the GraphQL enum name. */
  enum?: string;
  /** For embedded properties, the embeddable's GraphQL object type (`kind` is `json`). */
  embedded?: string;
  /** `[T!]`: string, enum and embeddable arrays. */
  list?: boolean;
  /**
   * Read-only: `getter` for `persist: false` properties (computed by the entity class from
   * `reads`), `formula` for SQL formulas. Never in inputs or filters.
   */
  computed?: "getter" | "formula";
  /** For computed getters: the stored properties field collection selects for them. */
  reads?: string[];
  /** The GraphQL description (the property's `comment`). */
  description?: string;
}

/** An edge of a node type. */
export interface GraphEdge {
  /** GraphQL field name. */
  name: string;
  /** Entity property. */
  prop: string;
  /** GraphQL type name of the target node. */
  target: string;
  /** The MikroORM relation kind: many-to-one, one-to-one, one-to-many, many-to-many. */
  kind: "m:1" | "1:1" | "1:m" | "m:n";
  /** `m:1`/`1:1`: one node; otherwise a list or a connection. */
  unique: boolean;
  /** `RelayConnection()`. */
  connection: boolean;
  /** A unique edge whose target can be missing (a nullable foreign key, an inverse side). */
  nullable: boolean;
  /** The target's property pointing back (`1:m`, bidirectional `m:n`, inverse `1:1`). */
  inverse?: string;
  /** `Unbind()`: not eager-loaded by field collection. */
  unbound: boolean;
}

/** One value of `<T>OrderField`. */
export interface GraphOrderField {
  /** The enum value, e.g. `TITLE`. */
  name: string;
  /** Entity property: the field, or the edge for edge order fields. */
  prop: string;
  /** The scalar kind of the ordered value (`int` for `_COUNT` fields). */
  kind: ScalarKind;
  /** The value can be null (a nullable field, or a field reached through a nullable edge). */
  nullable?: boolean;
  /** `<EDGE>_COUNT` on a non-unique edge: order by the number of related rows. */
  count?: boolean;
  /** `<EDGE>_<FIELD>` on a unique edge: the target's property ordered by. */
  field?: string;
}

export type { GraphEnum } from "./enums.ts";

/** A node type: an entity exposed as a GraphQL object implementing `Node`. */
export interface GraphType {
  /** GraphQL type name. */
  name: string;
  /** The entity as loaded from its module: export name, file, annotations. */
  entity: LoadedEntity;
  /** MikroORM's discovered metadata of the entity. */
  meta: EntityMetadata;
  /** The primary key: property, column, scalar kind. */
  id: IdDescription;
  /**
   * The abstract root of a single-table or table-per-type inheritance: a GraphQL interface
   * (implementing `Node`) with the root's fields, implemented by one type per concrete class.
   */
  abstract?: boolean;
  /** For a concrete class of such a hierarchy: the interface (its root's GraphQL type). */
  implements?: string;
  /** Root connection field name, when annotated `QueryField()`. */
  queryField?: string;
  /** The scalar fields, in entity property order. */
  fields: GraphField[];
  /** The edges, in entity property order. */
  edges: GraphEdge[];
  /** The values of `<T>OrderField`. */
  orderFields: GraphOrderField[];
  /** User field name -> properties to select for it (`CollectedFor`). */
  collectedFor: Record<string, string[]>;
  /** Create/update inputs and root mutation fields, when annotated `Mutations()`. */
  mutations?: GraphMutations;
  /** `MultiOrder()`: connections take `orderBy: [<T>Order!]`. */
  multiOrder: boolean;
  /** `<T>WhereInput`, unless `Skip(SkipWhereInput)`. */
  where?: GraphWhereInput;
  /** `IdPrefix(prefix)`: the prefix of the type's string keys. */
  prefix?: string;
  /** The GraphQL description (the entity's `comment`). */
  description?: string;
}

/** The intermediate representation every emitter reads. */
export interface Graph {
  /** The node types, sorted by name. */
  types: GraphType[];
  /** The GraphQL enums of enum properties. */
  enums: GraphEnum[];
  /** The embeddables the node types use, as object and input types. */
  embeddables?: GraphEmbeddable[];
  /** The global id format (`GenerateOptions.globalIds`); `opaque` when absent. */
  ids?: GlobalIdFormat;
}

const NAME = /^[_A-Za-z][_0-9A-Za-z]*$/;
const COMPARABLE = new Set<ScalarKind>([
  "int",
  "float",
  "string",
  "boolean",
  "time",
  "bigint",
  "enum",
]);

/**
 * Builds the Graph of a loaded model.
 *
 * @param cwd base directory for the file names in error messages
 * @param diagnostics collects the problems found (errors and warnings such as an edge into a
 *   type that is not generated)
 * @throws GenerateError listing every problem (each naming the entity file and property) of an
 *   invalid model
 */
export function buildGraph(
  model: LoadedModel,
  cwd = Deno.cwd(),
  diagnostics = new Diagnostics(),
): Graph {
  const enums: GraphEnum[] = [];
  const candidates: {
    loaded: LoadedEntity;
    meta: EntityMetadata;
    name: string;
    where: string;
  }[] = [];
  /** Class name -> why it is not a node type, for the warning on edges into it. */
  const leftOut = new Map<string, string>();
  for (const loaded of model.entities) {
    const meta = model.metadata.get(loaded.className);
    const why = !meta
      ? "not discovered by MikroORM"
      : meta.pivotTable && !ownColumns(meta)
      ? "a pivot entity"
      : meta.embeddable
      ? "an embeddable"
      : meta.virtual
      ? "a virtual entity"
      : meta.abstract && !inheritanceRoot(meta)
      ? "abstract"
      : undefined;
    if (!meta || why) {
      leftOut.set(loaded.className, why!);
      continue;
    }
    const annotations = annotationsOf(loaded.entity);
    if (skipped(annotations.entity, SkipType)) {
      leftOut.set(loaded.className, "skipped with Skip(SkipType)");
      continue;
    }
    const where = relative(cwd, loaded.file);
    const name = find(annotations.entity, "Type")?.name ?? meta.className;
    if (!NAME.test(name)) {
      diagnostics.error({
        file: where,
        entity: meta.className,
        message: `invalid GraphQL type name "${name}"`,
      });
      continue;
    }
    candidates.push({ loaded, meta, name, where });
  }
  const typeOfClass = new Map<string, string>();
  const fileOfName = new Map<string, string>();
  for (const c of candidates) {
    const other = fileOfName.get(c.name);
    if (other) {
      diagnostics.error({
        file: c.where,
        entity: c.meta.className,
        message: `GraphQL type name "${c.name}" is already used by an entity in ${other}`,
      });
      continue;
    }
    fileOfName.set(c.name, `${c.where} (${c.meta.className})`);
    typeOfClass.set(c.meta.className, c.name);
  }
  /** The field of a scalar property of a node type or an embeddable (`owner`). */
  const scalarField = (
    owner: string,
    meta: EntityMetadata,
    prop: EntityProperty,
    list: Annotation[],
    file = "",
  ): GraphField | undefined => {
    const fail = (message: string): never =>
      diagnostics.fail({ file, entity: meta.className, prop: prop.name, message });
    const shape = scalarShape(prop);
    if (!shape) return undefined;
    const { kind } = shape;
    const computed = computedKind(prop);
    const field: GraphField = {
      name: prop.name,
      prop: prop.name,
      kind,
      graphqlType: GRAPHQL_SCALAR[kind],
      nullable: !!prop.nullable || !!computed,
      list: shape.list || undefined,
      computed,
      reads: computed === "getter" ? getterReads(meta, prop) : undefined,
      description: prop.comment,
    };
    if (kind === "enum") {
      if (skipped(list, SkipEnumField)) {
        field.kind = "string";
        field.graphqlType = "String";
      } else {
        const e = enumOf(
          owner,
          prop,
          model.enums.get(`${meta.className}.${prop.name}`),
          find(list, "Type")?.name,
          fail,
        );
        field.enum = field.graphqlType = e.name;
        const clash = addEnum(enums, e);
        if (clash) fail(clash);
      }
    }
    return field;
  };
  const embeddables = new Embeddables(model, scalarField);
  const pendingOrders: PendingEdgeOrder[] = [];
  const fails = new Map<GraphType, (prop: string, message: string) => never>();
  const types = diagnostics.map(candidates, ({ loaded, meta, name, where }) => {
    const annotations = annotationsOf(loaded.entity);
    const fail = (prop: string, message: string): never =>
      diagnostics.fail({ file: where, entity: meta.className, prop, message });
    const keyPart = (prop: EntityProperty) => {
      const kind = scalarShape(keyScalar(prop))?.kind;
      return {
        prop: prop.name,
        kind: kind === "int"
          ? "int" as const
          : kind === "bigint"
          ? "bigint" as const
          : "string" as const,
      };
    };
    const parts = meta.primaryKeys.map((k) => keyPart(meta.properties[k]));
    // A composite key (a pivot entity's (book, author)): the global id encodes every part.
    const id: GraphType["id"] = parts.length === 1
      ? parts[0]
      : { prop: parts[0].prop, kind: "string", parts };
    const type: GraphType = {
      name,
      entity: loaded,
      meta,
      id,
      fields: [],
      edges: [],
      orderFields: [],
      collectedFor: {},
      multiOrder: !!find(annotations.entity, "MultiOrder"),
      prefix: find(annotations.entity, "IdPrefix")?.prefix,
      description: meta.comment,
    };
    if (inheritanceRoot(meta)) type.abstract = true;
    const rootName = meta.root !== meta ? typeOfClass.get(meta.root.className) : undefined;
    const rootLoaded = model.entities.find((e) => e.className === meta.root.className);
    if (rootName && inheritanceRoot(meta.root)) type.implements = rootName;
    // A subclass inherits its root's decorators (the same annotation objects): the root's
    // QueryField lists every class through the interface, not this one.
    const inherited = (a: Annotation) =>
      !!rootLoaded && rootLoaded !== loaded && annotationsOf(rootLoaded.entity).entity.includes(a);
    const query = find(annotations.entity, "QueryField");
    if (query && !inherited(query)) {
      if (type.id.parts) {
        fail(
          meta.primaryKeys.join(","),
          "QueryField() needs a single-column primary key (connections page by it)",
        );
      }
      type.queryField = query.name ?? queryFieldName(name);
      if (!NAME.test(type.queryField)) {
        fail("", `invalid QueryField name "${type.queryField}"`);
      }
    }
    const graphqlNames = new Set(["id"]);
    const claim = (prop: string, field: string) => {
      if (graphqlNames.has(field)) {
        fail(prop, `GraphQL field "${field}" is defined twice on ${name}`);
      }
      graphqlNames.add(field);
    };
    diagnostics.forEach(Object.values(meta.properties), (prop) => {
      const list = annotations.fields[prop.name] ?? [];
      for (const field of find(list, "CollectedFor")?.fields ?? []) {
        (type.collectedFor[field] ??= []).push(prop.name);
      }
      if (prop.hidden && !find(list, "Expose")) return;
      const orderField = find(list, "OrderField");
      if (prop.primary && orderField && !skipped(list, SkipOrderField)) {
        // entgql `OrderField("ID")` on the key: the id is orderable (`DescendingIDs`).
        type.orderFields.push({ name: orderField.name, prop: prop.name, kind: id.kind });
      }
      // A relation primary key (a shipment keyed by its order) stays an edge as well. The
      // discriminator column of a single-table inheritance is the `__typename`.
      if (
        (prop.primary && prop.kind === "scalar") || internal(prop) || flattened(prop) ||
        skipped(list, SkipType) ||
        (type.abstract && (prop as { inherited?: boolean }).inherited) ||
        prop.name === meta.root.discriminatorColumn
      ) return;
      if (prop.kind === "embedded" && !flattened(prop)) {
        const field = embeddables.field(prop);
        claim(prop.name, field.name);
        type.fields.push(field);
        return;
      }
      if (prop.kind === "scalar") {
        const field = scalarField(name, meta, prop, list, where);
        if (!field) return;
        claim(prop.name, field.name);
        type.fields.push(field);
        if (orderField && !skipped(list, SkipOrderField)) {
          if (!COMPARABLE.has(field.kind) || field.list || field.computed) {
            fail(
              prop.name,
              `OrderField "${orderField.name}" on a non-comparable property (${field.kind})`,
            );
          }
          if (type.orderFields.some((o) => o.name === orderField.name)) {
            fail(
              prop.name,
              `OrderField "${orderField.name}" is used twice on ${name}`,
            );
          }
          type.orderFields.push({
            name: orderField.name,
            prop: prop.name,
            kind: field.kind,
            nullable: field.nullable || undefined,
          });
        }
      } else if (
        prop.kind === "m:1" || prop.kind === "1:1" || prop.kind === "1:m" ||
        prop.kind === "m:n"
      ) {
        const target = typeOfClass.get(prop.type);
        if (internal(prop)) return;
        if (!target) {
          diagnostics.warn({
            file: where,
            entity: meta.className,
            prop: prop.name,
            message: `edge left out: its target ${prop.type} is not a node type (${
              leftOut.get(prop.type) ?? "not exported by an entity module"
            }); Skip(SkipType) on the property silences this`,
          });
          return;
        }
        const unique = prop.kind === "m:1" || prop.kind === "1:1";
        const connection = !!find(list, "RelayConnection");
        if (connection && unique) {
          fail(prop.name, "RelayConnection() on a unique edge");
        }
        if (connection && prop.targetMeta && prop.targetMeta.primaryKeys.length > 1) {
          fail(
            prop.name,
            `RelayConnection() to ${prop.type}, whose primary key is composite (connections page by a single-column key); use a list edge`,
          );
        }
        if (orderField && !skipped(list, SkipOrderField)) {
          pendingOrders.push({
            type,
            prop: prop.name,
            target,
            unique,
            nullable: prop.kind === "1:1" ? !prop.owner || !!prop.nullable : !!prop.nullable,
            name: orderField.name,
            fail,
          });
        }
        const mapsTo = find(list, "MapsTo");
        if (mapsTo && find(list, "Bind")) {
          fail(prop.name, "Bind() and MapsTo() on the same edge");
        }
        for (const edgeName of mapsTo?.names ?? [prop.name]) {
          claim(prop.name, edgeName);
          type.edges.push({
            name: edgeName,
            prop: prop.name,
            target,
            kind: prop.kind,
            unique,
            connection,
            nullable: prop.kind === "1:1" ? !prop.owner || !!prop.nullable : !!prop.nullable,
            inverse: prop.kind === "m:1" || (prop.kind === "1:1" && prop.owner)
              ? undefined
              : prop.mappedBy || prop.inversedBy || undefined,
            unbound: !!find(list, "Unbind"),
          });
        }
      }
    });
    for (const field of type.fields) {
      // `CollectedFor("<getter>")` on properties overrides what the getter is seen to read.
      if (field.reads && type.collectedFor[field.name]) {
        field.reads = type.collectedFor[field.name];
        delete type.collectedFor[field.name];
      }
    }
    if (!type.abstract) {
      type.mutations = buildMutations(type, annotations.entity, annotations.fields, fail);
    }
    fails.set(type, fail);
    return type;
  });
  // Edges into an entity that failed above would dangle: stop here with what was found.
  diagnostics.throwIfErrors();
  interfaceNullability(types);
  diagnostics.forEach(pendingOrders, (pending) => addEdgeOrderFields(types, [pending]));
  buildWhereInputs(
    types,
    (type, prop, message) => diagnostics.attempt(() => fails.get(type)!(prop, message)),
    embeddables.all(),
  );
  const enumNames = new Set<string>();
  for (const e of enums) {
    if (fileOfName.has(e.name) || enumNames.has(e.name)) {
      diagnostics.error({ message: `GraphQL enum name "${e.name}" collides with another type` });
    }
    enumNames.add(e.name);
  }
  for (const e of embeddables.all()) {
    if (fileOfName.has(e.name) || enumNames.has(e.name)) {
      diagnostics.error({
        entity: e.className,
        message: `GraphQL type name "${e.name}" of the embeddable is already used`,
      });
    }
  }
  diagnostics.throwIfErrors();
  return { types, enums, embeddables: embeddables.all() };
}

/** A pivot entity with columns of its own (a contributor's `role`): exposed as a node type. */
function ownColumns(meta: EntityMetadata): boolean {
  return Object.values(meta.properties).some((p) => !p.primary && p.persist !== false);
}

/** The abstract root of a single-table or table-per-type inheritance. */
function inheritanceRoot(meta: EntityMetadata): boolean {
  return !!meta.abstract && meta.root === meta &&
    (meta.inheritanceType === "sti" || meta.inheritanceType === "tpt");
}

/**
 * An interface's field is non-null when it is in every class implementing it (MikroORM makes
 * the columns of a single table nullable).
 */
function interfaceNullability(types: GraphType[]): void {
  for (const root of types.filter((t) => t.abstract)) {
    const subs = types.filter((t) => t.implements === root.name);
    if (subs.length === 0) continue;
    for (const f of root.fields) {
      f.nullable = !!f.computed ||
        subs.some((s) => s.fields.find((g) => g.name === f.name)?.nullable !== false);
    }
    for (const e of root.edges) {
      e.nullable = subs.some((s) => s.edges.find((g) => g.name === e.name)?.nullable !== false);
    }
  }
}

/** The scalar column behind a primary key: the key itself, or the key a relation key points to. */
function keyScalar(prop: EntityProperty): EntityProperty {
  const target = prop.kind === "scalar" ? undefined : prop.targetMeta;
  return target ? keyScalar(target.properties[target.primaryKeys[0]]) : prop;
}

/** GraphQL scalar per kind (enums are named per field). */
const GRAPHQL_SCALAR: Record<ScalarKind, string> = {
  int: "Int",
  float: "Float",
  string: "String",
  boolean: "Boolean",
  time: "Time",
  bigint: "BigInt",
  json: "JSON",
  enum: "String",
};

function find<K extends AnnotationKind>(
  list: Annotation[],
  kind: K,
): Extract<Annotation, { kind: K }> | undefined {
  return list.find((a) => a.kind === kind) as
    | Extract<Annotation, { kind: K }>
    | undefined;
}

function skipped(list: Annotation[], mode: number): boolean {
  return list.some((a) => a.kind === "Skip" && (a.modes & mode) !== 0);
}
