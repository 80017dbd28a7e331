/**
 * Step 3 of generation: build the Model (`model.ts`) of the loaded entities, in named steps:
 * read every entity's annotations once, select the entities that become node types, name them,
 * build each type's normalised record (key, fields, edges, order fields, mutations), then the
 * parts that need every type (interface nullability, edge order fields, where inputs) and the
 * check that no two GraphQL types share a name. Every problem goes to the run's `Diagnostics`,
 * naming the entity file and property; the model is rejected with one `GenerateError` listing
 * them all.
 *
 * @module
 */
import type { EntityMetadata, EntityProperty } from "@mikro-orm/core";
import { relative } from "@std/path";
import {
  type Annotation,
  SkipEnumField,
  SkipOrderField,
  SkipType,
} from "../runtime/annotations.ts";
import type { EdgeOrderTerm, IdDescription, ScalarKind } from "../runtime/graph.ts";
import { queryFieldName, rowsTypeName, subscriptionFieldName } from "../runtime/names.ts";
import { DocComments } from "./doc_comments.ts";
import { find, ModelAnnotations, skipModes } from "./read_annotations.ts";
import { declaredOrder } from "./collection_order.ts";
import { Diagnostics } from "./diagnostics.ts";
import { Embeddables, flattened } from "./embeddables.ts";
import { addEnum, enumOf } from "./enums.ts";
import {
  COMPARABLE_KINDS,
  computedKind,
  generated,
  getterReads,
  internal,
  isUuid,
  optionalOnCreate,
  scalarShape,
  unknownColumnType,
} from "./fields.ts";
import { textValueKind } from "../runtime/column_values.ts";
import type { LoadedEntity, LoadedModel } from "./load_entities.ts";
import type { Model, ModelEdge, ModelEnum, ModelField, ModelType } from "./model.ts";
import { buildMutations } from "./mutations.ts";
import { checkCreate } from "./unsettable.ts";
import { addEdgeOrderField, type PendingEdgeOrder } from "./order.ts";
import { buildWhereInputs } from "./where.ts";

/**
 * Builds the Model of the loaded entities.
 *
 * @param cwd base directory for the file names in diagnostics
 * @param diagnostics collects the problems found (errors and warnings such as an edge into a
 *   type that is not generated)
 * @throws GenerateError listing every problem (each naming the entity file and property) of an
 *   invalid model
 */
export function buildModel(
  loaded: LoadedModel,
  cwd = Deno.cwd(),
  diagnostics = new Diagnostics(),
): Model {
  return new ModelBuilder(loaded, cwd, diagnostics).build();
}

/** An entity selected to become a node type, with the GraphQL name it asks for. */
interface Candidate {
  loaded: LoadedEntity;
  meta: EntityMetadata;
  /** The GraphQL type name (`Type(name)` or the class name). */
  name: string;
  /** The entity module relative to `cwd`. */
  file: string;
}

const NAME = /^[_A-Za-z][_0-9A-Za-z]*$/;

/** GraphQL scalar per kind (enums are named per field). */
const GRAPHQL_SCALAR: Record<ScalarKind, string> = {
  int: "Int",
  float: "Float",
  string: "String",
  boolean: "Boolean",
  time: "Time",
  date: "Date",
  decimal: "Decimal",
  bigint: "BigInt",
  json: "JSON",
  bytes: "Bytes",
  enum: "String",
};

/** The state of one Model build; each method is one step. */
class ModelBuilder {
  readonly #annotations: ModelAnnotations;
  readonly #docs = new DocComments();
  /** Class name -> why it is not a node type, for the warning on edges into it. */
  readonly #leftOut = new Map<string, string>();
  /** Class name -> GraphQL type name of the node types. */
  readonly #typeOfClass = new Map<string, string>();
  /**
   * Class name -> GraphQL object type name of its own rows, for the classes with rows of their
   * own and node-type subclasses (interfaces).
   */
  readonly #rowsOfClass = new Map<string, string>();
  /** GraphQL type name -> where it is defined, for the name clash errors. */
  readonly #fileOfName = new Map<string, string>();
  readonly #enums: ModelEnum[] = [];
  readonly #embeddables: Embeddables;
  readonly #pendingOrders: PendingEdgeOrder[] = [];

  constructor(
    readonly loaded: LoadedModel,
    readonly cwd: string,
    readonly diagnostics: Diagnostics,
  ) {
    this.#annotations = new ModelAnnotations(loaded.entities, loaded.metadata, diagnostics, cwd);
    this.#embeddables = new Embeddables(
      (className) => this.#annotations.ofClass(className),
      (owner, meta, prop, list) => this.#scalarField(owner, meta, prop, list, { file: "" }),
      {
        entity: (meta) => this.#entityDoc(meta),
        property: (meta, prop) => this.#propertyDoc(meta, prop),
      },
    );
  }

  /** Runs every step. */
  build(): Model {
    const candidates = this.#selectEntities();
    this.#nameTypes(candidates);
    const types = this.diagnostics.map(candidates, (c) => this.#type(c));
    interfaceNullability(types);
    // The checks that need every type go on with the types built, so one run reports every
    // problem; an edge order field into a type that failed above is left to the next run.
    const built = new Set(types.map((t) => t.name));
    this.diagnostics.forEach(
      this.#pendingOrders.filter((p) => built.has(p.target) && types.includes(p.type)),
      (pending) => addEdgeOrderField(types, pending, this.diagnostics),
    );
    const embeddables = this.#embeddables.all();
    buildWhereInputs(types, embeddables, this.diagnostics);
    this.#checkTypeNames();
    this.diagnostics.throwIfErrors();
    return { types, enums: this.#enums, embeddables };
  }

  /** The entities that become node types; the others are remembered with the reason. */
  #selectEntities(): Candidate[] {
    const candidates: Candidate[] = [];
    for (const loaded of this.loaded.entities) {
      const meta = this.loaded.metadata.get(loaded.className);
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
        this.#leftOut.set(loaded.className, why!);
        continue;
      }
      const annotations = this.#annotations.of(loaded).entity;
      if (skipModes(annotations) & SkipType) {
        this.#leftOut.set(loaded.className, "skipped with Skip(SkipType)");
        continue;
      }
      const file = relative(this.cwd, loaded.file);
      // A subclass's name is its own: its ancestors' `Type()` names them.
      const name = find(this.#own(loaded, annotations), "Type")?.name ?? meta.className;
      if (!NAME.test(name)) {
        this.diagnostics.error({
          file,
          entity: meta.className,
          message: `invalid GraphQL type name "${name}"`,
        });
        continue;
      }
      candidates.push({ loaded, meta, name, file });
    }
    return candidates;
  }

  /**
   * Gives each candidate its GraphQL type name, unless another entity has it; then each class
   * with rows of its own and node-type subclasses the name of its own rows' object type.
   */
  #nameTypes(candidates: Candidate[]): void {
    const claim = (c: Candidate, name: string) => {
      const other = this.#fileOfName.get(name);
      if (other) {
        this.diagnostics.error({
          file: c.file,
          entity: c.meta.className,
          message: `GraphQL type name "${name}" is already used by an entity in ${other}`,
        });
        return false;
      }
      this.#fileOfName.set(name, `${c.file} (${c.meta.className})`);
      return true;
    };
    for (const c of candidates) {
      if (claim(c, c.name)) this.#typeOfClass.set(c.meta.className, c.name);
    }
    for (const c of candidates) {
      if (inheritanceRoot(c.meta) || this.#subclasses(c.meta).length === 0) continue;
      const rows = find(this.#own(c.loaded, this.#annotations.of(c.loaded).entity), "Type")?.rows ??
        rowsTypeName(c.name);
      if (!NAME.test(rows)) {
        this.diagnostics.error({
          file: c.file,
          entity: c.meta.className,
          message: `invalid GraphQL type name "${rows}" of its own rows (Type(name, { rows }))`,
        });
      } else if (claim(c, rows)) this.#rowsOfClass.set(c.meta.className, rows);
    }
  }

  /**
   * The node types whose classes extend `meta`'s within one single-table or table-per-type
   * inheritance.
   */
  #subclasses(meta: EntityMetadata): string[] {
    if (meta.root.inheritanceType !== "sti" && meta.root.inheritanceType !== "tpt") return [];
    return [...this.loaded.metadata.values()].filter((m) =>
      m !== meta && m.root === meta.root && this.#typeOfClass.has(m.className) &&
      typeof m.class === "function" && typeof meta.class === "function" &&
      m.class.prototype instanceof meta.class
    ).map((m) => m.className);
  }

  /**
   * The GraphQL interfaces of `meta`'s ancestor classes within its inheritance, nearest first:
   * every node type an ancestor's class becomes is an interface (the ancestor has a subclass).
   */
  #interfacesOf(meta: EntityMetadata): string[] {
    const names: string[] = [];
    for (let m = this.#parentOf(meta); m && m.root === meta.root; m = this.#parentOf(m)) {
      const name = this.#typeOfClass.get(m.className);
      if (name) names.push(name);
    }
    return names;
  }

  /** The node type of a candidate, with its fields, edges, order fields and mutations. */
  #type(c: Candidate): ModelType {
    const { loaded, meta, name, file } = c;
    const annotations = this.#annotations.of(loaded);
    const type: ModelType = {
      name,
      entity: loaded,
      meta,
      file,
      skip: skipModes(annotations.entity),
      id: primaryKey(meta),
      fields: [],
      edges: [],
      orderFields: [],
      collectedFor: {},
      multiOrder: !!find(annotations.entity, "MultiOrder"),
      prefix: find(annotations.entity, "IdPrefix")?.prefix,
      description: meta.comment ?? this.#docs.entity(loaded.file, loaded.exportName),
    };
    // A class whose rows can be of several classes is an interface; with rows of its own, they
    // are the object type `rows`.
    const rows = this.#rowsOfClass.get(meta.className);
    if (inheritanceRoot(meta) || rows) type.abstract = true;
    if (rows) type.rows = rows;
    const interfaces = meta.root !== meta ? this.#interfacesOf(meta) : [];
    if (interfaces.length > 0) type.implements = interfaces;
    this.#queryField(type, annotations.entity);
    this.#subscriptionField(type, annotations.entity);
    const claimed = new Set(["id"]);
    this.diagnostics.forEach(
      Object.values(meta.properties),
      (prop) => this.#property(type, prop, annotations.fields[prop.name] ?? [], claimed),
    );
    for (const field of type.fields) {
      // `CollectedFor("<getter>")` on properties overrides what the getter is seen to read.
      if (field.reads && type.collectedFor[field.name]) {
        field.reads = type.collectedFor[field.name];
        delete type.collectedFor[field.name];
      }
    }
    if (!type.abstract || type.rows) {
      type.mutations = buildMutations(
        type,
        find(annotations.entity, "Mutations"),
        this.diagnostics,
      );
      checkCreate(type, this.diagnostics);
    }
    return type;
  }

  /**
   * The annotations of the class `entity` itself among `annotations`: a decorated subclass
   * inherits its ancestors' decorators (the same annotation objects, listed before its own).
   */
  #own(entity: LoadedEntity, annotations: Annotation[]): Annotation[] {
    const ancestors = this.loaded.entities.filter((e) =>
      e !== entity && typeof e.entity === "function" && typeof entity.entity === "function" &&
      entity.entity.prototype instanceof e.entity
    );
    return annotations.filter((a) =>
      !ancestors.some((e) => this.#annotations.of(e).entity.includes(a))
    );
  }

  /**
   * `QueryField(name?)`: the root connection field. Only a `QueryField()` of the class itself
   * counts: an ancestor's lists the ancestor's rows.
   */
  #queryField(type: ModelType, annotations: Annotation[]): void {
    const query = this.#own(type.entity, annotations).find((
      a,
    ): a is Extract<Annotation, { kind: "QueryField" }> => a.kind === "QueryField");
    if (!query) return;
    type.queryField = query.name ?? queryFieldName(type.name);
    if (!NAME.test(type.queryField)) {
      // Recorded without abandoning the type: its properties' problems are found in this run too.
      this.diagnostics.error({
        file: type.file,
        entity: type.meta.className,
        message: `invalid QueryField name "${type.queryField}"`,
      });
    }
  }

  /** `Subscriptions(options?)`: the change feed's root field, of the class's own annotation. */
  #subscriptionField(type: ModelType, annotations: Annotation[]): void {
    const feed = this.#own(type.entity, annotations).find((
      a,
    ): a is Extract<Annotation, { kind: "Subscriptions" }> => a.kind === "Subscriptions");
    if (feed) type.subscriptionField = feed.name ?? subscriptionFieldName(type.name);
  }

  /**
   * What one property adds to its type: a field, an embedded field or edges, an order field,
   * `CollectedFor` entries.
   *
   * @param claimed the GraphQL field names of the type so far
   */
  #property(type: ModelType, prop: EntityProperty, list: Annotation[], claimed: Set<string>) {
    const { meta } = type;
    for (const field of find(list, "CollectedFor")?.fields ?? []) {
      (type.collectedFor[field] ??= []).push(prop.name);
    }
    if (prop.hidden && !find(list, "Expose")) return;
    const skip = skipModes(list);
    const orderField = skip & SkipOrderField ? undefined : find(list, "OrderField");
    // A single-column key named `id` is the node's `id`; any other key column (a natural key, a
    // part of a composite key) is a field as well, and a relation in the key stays an edge.
    const idColumn = prop.primary && prop.kind === "scalar" && prop.name === "id";
    if (idColumn && type.id.parts) {
      this.diagnostics.warn({
        file: type.file,
        entity: type.meta.className,
        prop: prop.name,
        message: `field left out: "id" is the node's global id, which holds this key part`,
      });
    }
    if (idColumn && orderField) {
      // entgql `OrderField("ID")` on the key: the id is orderable (`DescendingIDs`).
      type.orderFields.push({ prop: prop.name, kind: type.id.kind, name: orderField.name });
    }
    // The discriminator column of a single-table inheritance is the `__typename`.
    if (
      idColumn || internal(prop) || flattened(prop) ||
      skip & SkipType ||
      (type.abstract && (prop as { inherited?: boolean }).inherited) ||
      prop.name === meta.root.discriminatorColumn
    ) return;
    const claim = (field: string) => {
      if (claimed.has(field)) {
        this.#fail(type, prop.name, `GraphQL field "${field}" is defined twice on ${type.name}`);
      }
      claimed.add(field);
    };
    if (prop.kind === "embedded") {
      const field = this.#embeddables.field(prop, meta, skip);
      if (!field) {
        this.diagnostics.warn({
          file: type.file,
          entity: meta.className,
          prop: prop.name,
          message: `field left out: the embeddable ${
            (prop.targetMeta as EntityMetadata).className
          } has no property GraphQL can show (${
            leftOutWhy(prop.targetMeta as EntityMetadata)
          }), and GraphQL has no empty object type; Expose() one of its properties, or Skip(SkipType) on this one`,
        });
        return;
      }
      claim(field.name);
      type.fields.push(field);
    } else if (prop.kind === "scalar") {
      const field = this.#scalarField(type.name, meta, prop, list, type);
      if (!field) return;
      claim(field.name);
      type.fields.push(field);
      if (orderField) this.#orderField(type, field, orderField.name);
    } else if (
      prop.kind === "m:1" || prop.kind === "1:1" || prop.kind === "1:m" || prop.kind === "m:n"
    ) {
      this.#edges(type, prop, list, skip, claim);
    }
  }

  /**
   * The field of a scalar property of a node type or an embeddable (`owner`), or `undefined`
   * when GraphQL cannot carry it; an enum property adds its GraphQL enum.
   *
   * @param at where a problem is, for the diagnostics
   */
  #scalarField(
    owner: string,
    meta: EntityMetadata,
    prop: EntityProperty,
    list: Annotation[],
    at: { file: string },
  ): ModelField | undefined {
    const shape = scalarShape(prop);
    if (!shape) return undefined;
    if (unknownColumnType(prop)) {
      this.diagnostics.warn({
        file: at.file,
        entity: meta.className,
        prop: prop.name,
        message: `typed JSON: neither its runtime type (${
          String(prop.runtimeType)
        }) nor its column type (${
          prop.columnTypes?.[0] ?? "none"
        }) says what it holds; give it a MikroORM type (\`type: "..."\`)`,
      });
    }
    let { kind } = shape;
    let graphqlType = GRAPHQL_SCALAR[kind];
    let enumName: string | undefined;
    if (kind === "enum") {
      if (skipModes(list) & SkipEnumField) {
        kind = "string";
        graphqlType = "String";
      } else {
        const site = { file: at.file, entity: meta.className, prop: prop.name };
        const e = enumOf(
          owner,
          prop,
          this.loaded.enums.get(`${meta.className}.${prop.name}`),
          find(list, "Type")?.name,
          this.diagnostics,
          site,
        );
        enumName = graphqlType = e.name;
        const clash = addEnum(this.#enums, e);
        if (clash) this.diagnostics.fail({ ...site, message: clash });
      }
    }
    const computed = computedKind(prop);
    // The keys of `FieldDescription` first, in the order the generated tables print them.
    return {
      prop: prop.name,
      kind,
      enum: enumName,
      list: shape.list || undefined,
      computed,
      reads: computed === "getter" ? getterReads(meta, prop) : undefined,
      ref: prop.ref || undefined,
      name: prop.name,
      graphqlType,
      nullable: !!prop.nullable || !!computed,
      description: prop.comment ?? this.#propertyDoc(meta, prop.name),
      skip: skipModes(list),
      generated: generated(prop) || !!(prop.primary && prop.autoincrement),
      optional: optionalOnCreate(meta, prop),
      uuid: isUuid(prop) || undefined,
      valueText: (kind === "string" && !!textValueKind(prop)) || undefined,
      key: prop.primary || undefined,
    };
  }

  /** The order field of a scalar field annotated `OrderField(name)`. */
  #orderField(type: ModelType, field: ModelField, name: string): void {
    if (!COMPARABLE_KINDS.has(field.kind) || field.list || field.computed) {
      this.#fail(
        type,
        field.prop,
        `OrderField "${name}" on a non-comparable property (${field.kind})`,
      );
    }
    if (type.orderFields.some((o) => o.name === name)) {
      this.#fail(type, field.prop, `OrderField "${name}" is used twice on ${type.name}`);
    }
    type.orderFields.push({
      prop: field.prop,
      kind: field.kind,
      nullable: field.nullable || undefined,
      name,
    });
  }

  /**
   * The edges of a relation property (one per `MapsTo` name), and its pending edge order field;
   * an edge into an entity that is not a node type is left out with a warning.
   */
  #edges(
    type: ModelType,
    prop: EntityProperty,
    list: Annotation[],
    skip: number,
    claim: (field: string) => void,
  ): void {
    const target = this.#typeOfClass.get(prop.type);
    if (!target) {
      this.diagnostics.warn({
        file: type.file,
        entity: type.meta.className,
        prop: prop.name,
        message: `edge left out: its target ${prop.type} is not a node type (${
          this.#leftOut.get(prop.type) ?? "not exported by an entity module"
        }); Skip(SkipType) on the property silences this`,
      });
      return;
    }
    const unique = prop.kind === "m:1" || prop.kind === "1:1";
    const connection = !!find(list, "RelayConnection");
    if (connection && unique) {
      this.#fail(type, prop.name, "RelayConnection() on a unique edge");
    }
    const orderField = skip & SkipOrderField ? undefined : find(list, "OrderField");
    if (orderField) {
      this.#pendingOrders.push({
        type,
        prop: prop.name,
        target,
        unique,
        nullable: edgeNullable(prop),
        name: orderField.name,
      });
    }
    const mapsTo = find(list, "MapsTo");
    if (mapsTo && find(list, "Bind")) {
      this.#fail(type, prop.name, "Bind() and MapsTo() on the same edge");
    }
    const order = unique ? undefined : declaredOrder(prop, this.diagnostics, {
      file: type.file,
      entity: type.meta.className,
      prop: prop.name,
    });
    for (const name of mapsTo?.names ?? [prop.name]) {
      claim(name);
      type.edges.push({
        ...edge(prop, name, target, connection, !!find(list, "Unbind"), skip, order),
        description: prop.comment ?? this.#propertyDoc(type.meta, prop.name),
      });
    }
  }

  /** Types, enums and embeddables share one namespace: every clash is an error. */
  #checkTypeNames(): void {
    const enumNames = new Set<string>();
    for (const e of this.#enums) {
      if (this.#fileOfName.has(e.name) || enumNames.has(e.name)) {
        this.diagnostics.error({
          message: `GraphQL enum name "${e.name}" collides with another type`,
        });
      }
      enumNames.add(e.name);
    }
    for (const e of this.#embeddables.all()) {
      if (this.#fileOfName.has(e.name) || enumNames.has(e.name)) {
        this.diagnostics.error({
          entity: e.className,
          message: `GraphQL type name "${e.name}" of the embeddable is already used`,
        });
      }
    }
  }

  /** The doc comment of the entity (or embeddable) of `meta`. */
  #entityDoc(meta: EntityMetadata): string | undefined {
    const loaded = this.loaded.entities.find((e) => e.className === meta.className);
    return loaded && this.#docs.entity(loaded.file, loaded.exportName);
  }

  /**
   * The doc comment of the property `prop` of `meta`'s entity, or else of the class it extends
   * (`CardPayment.amount` is documented on `Payment`), up the inheritance chain.
   */
  #propertyDoc(meta: EntityMetadata, prop: string): string | undefined {
    for (let name: string | undefined = meta.className; name; name = this.#parentName(name)) {
      const loaded = this.loaded.entities.find((e) => e.className === name);
      const doc = loaded && this.#docs.property(loaded.file, loaded.exportName, prop);
      if (doc) return doc;
    }
    return undefined;
  }

  /** The metadata of the entity `meta` extends (a class, an `EntitySchema` or a name). */
  #parentOf(meta: EntityMetadata): EntityMetadata | undefined {
    const name = extendedName(meta);
    return name === undefined ? undefined : this.loaded.metadata.get(name);
  }

  /**
   * The class name of the entity the entity `className` extends: from its metadata, or for an
   * abstract base MikroORM keeps no metadata of (no table, no discriminator: a soft-delete base),
   * the class its class extends.
   */
  #parentName(className: string): string | undefined {
    const meta = this.loaded.metadata.get(className);
    if (meta) return extendedName(meta);
    const entity = this.loaded.entities.find((e) => e.className === className)?.entity;
    return typeof entity === "function"
      ? Object.getPrototypeOf(entity)?.name || undefined
      : undefined;
  }

  /** Records an error on `type`'s property `prop` and abandons the property (or the type). */
  #fail(type: ModelType, prop: string, message: string): never {
    return this.diagnostics.fail({ file: type.file, entity: type.meta.className, prop, message });
  }
}

/** The class name of the entity `meta` extends (a class, an `EntitySchema` or a name). */
function extendedName(meta: EntityMetadata): string | undefined {
  const parent = meta.extends as unknown;
  return typeof parent === "function"
    ? parent.name
    : typeof parent === "string"
    ? parent
    : (parent as { meta?: { className?: string } } | undefined)?.meta?.className;
}

/** The primary key of an entity; a composite key's global id encodes every part. */
function primaryKey(meta: EntityMetadata): IdDescription {
  const parts = meta.primaryKeys.map((k) => {
    const kind = scalarShape(keyScalar(meta.properties[k]))?.kind;
    return {
      prop: k,
      kind: kind === "int"
        ? "int" as const
        : kind === "bigint"
        ? "bigint" as const
        : "string" as const,
    };
  });
  // A composite key (a pivot entity's (book, author)): the global id encodes every part.
  return parts.length === 1 ? parts[0] : { prop: parts[0].prop, kind: "string", parts };
}

/** The scalar column behind a primary key: the key itself, or the key a relation key points to. */
function keyScalar(prop: EntityProperty): EntityProperty {
  const target = prop.kind === "scalar" ? undefined : prop.targetMeta;
  return target ? keyScalar(target.properties[target.primaryKeys[0]]) : prop;
}

/** A pivot entity with columns of its own (a contributor's `role`): exposed as a node type. */
function ownColumns(meta: EntityMetadata): boolean {
  return Object.values(meta.properties).some((p) => !p.primary && p.persist !== false);
}

/**
 * The root of a single-table or table-per-type inheritance that has no rows of its own, a GraphQL
 * interface: declared abstract, or a single-table root without a discriminator value (MikroORM's
 * `BaseUser2`: `discriminatorMap` names only its subclasses).
 */
function inheritanceRoot(meta: EntityMetadata): boolean {
  if (meta.root !== meta) return false;
  if (meta.inheritanceType === "tpt") return !!meta.abstract;
  return meta.inheritanceType === "sti" && (!!meta.abstract || meta.discriminatorValue == null);
}

/** The edge `name` of the relation property `prop` (one of its `MapsTo` names, or its own). */
function edge(
  prop: EntityProperty,
  name: string,
  target: string,
  connection: boolean,
  unbound: boolean,
  skip: number,
  order: EdgeOrderTerm[] | undefined,
): ModelEdge {
  // The keys of `EdgeDescription` first, in the order the generated tables print them.
  return {
    prop: prop.name,
    target,
    kind: prop.kind as ModelEdge["kind"],
    connection,
    inverse: prop.kind === "m:1" || (prop.kind === "1:1" && prop.owner)
      ? undefined
      : prop.mappedBy || prop.inversedBy || undefined,
    unbound: unbound || undefined,
    order,
    name,
    unique: prop.kind === "m:1" || prop.kind === "1:1",
    nullable: edgeNullable(prop),
    owner: !!prop.owner,
    primary: !!prop.primary,
    removable: removable(prop),
    generated: generated(prop),
    skip,
  };
}

/** A unique edge's target can be missing: a nullable foreign key, or the inverse side of a `1:1`. */
function edgeNullable(prop: EntityProperty): boolean {
  return prop.kind === "1:1" ? !prop.owner || !!prop.nullable : !!prop.nullable;
}

/** Whether rows can leave a non-unique edge: always for `m:n`; for `1:m` when the FK allows it. */
function removable(prop: EntityProperty): boolean {
  if (prop.kind !== "1:m") return true;
  const inverse = prop.targetMeta?.properties[prop.mappedBy];
  return !!prop.orphanRemoval || !!inverse?.nullable;
}

/**
 * An interface's field is non-null when it is in every class implementing it (MikroORM makes
 * the columns of a single table nullable, a root's own among them); the object type of a class's
 * own rows shares its interface's fields, declared as its subclasses inherit them.
 */
function interfaceNullability(types: ModelType[]): void {
  for (const root of types.filter((t) => t.abstract)) {
    const subs = types.filter((t) => t.implements?.includes(root.name));
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

/**
 * Why an embeddable's properties are all left out, as the warning says it: the kinds among them
 * (hidden, computed `persist: false` ones, an embeddable shows only stored values; skipped).
 */
function leftOutWhy(meta: EntityMetadata): string {
  const why = new Set<string>();
  for (const p of Object.values(meta.properties)) {
    why.add(
      p.hidden ? "hidden" : p.persist === false ? "computed (`persist: false`)" : "skipped",
    );
  }
  return why.size === 0 ? "it has none" : `each is ${[...why].join(" or ")}`;
}
