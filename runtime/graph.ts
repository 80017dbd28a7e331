/**
 * The runtime description of a generated graph: the typed, declarative tables that generated
 * modules hold (`node.ts`, `collection.ts`, `edges.ts`, `pagination.ts`) and that every runtime
 * function reads.
 *
 * @module
 */
import {
  type EntityManager,
  type EntityName,
  EntitySchema,
  type FilterQuery,
  wrap,
} from "@mikro-orm/core";

/** How a scalar value is represented in GraphQL and compared in cursors. */
export type ScalarKind =
  | "int"
  | "float"
  | "string"
  | "boolean"
  | "time"
  | "date"
  | "decimal"
  | "bigint"
  | "json"
  | "bytes"
  | "enum";

/** The primary key of a node type: the entity property and its kind. */
export interface IdDescription {
  /** Entity property holding the primary key, e.g. `"id"`. */
  prop: string;
  /** `int` for integer keys, `bigint` for 64-bit keys, `string` for text/UUID/ULID keys. */
  kind: "int" | "bigint" | "string";
  /**
   * A composite key (a pivot entity's `(book, author)`): every part, in key order. `prop` is the
   * first part, `kind` is `string` (the key is written as the JSON array of the parts' values).
   */
  parts?: { prop: string; kind: "int" | "bigint" | "string" }[];
}

/** A node type: one MikroORM entity exposed as a GraphQL object implementing `Node`. */
export interface NodeTypeDescription {
  /** The MikroORM entity (a `defineEntity` schema, an `EntitySchema` or a decorated class). */
  // deno-lint-ignore no-explicit-any
  entity: EntityName<any>;
  /** The primary key. */
  id: IdDescription;
  /**
   * A class of a single-table or table-per-type inheritance whose rows can be of several classes
   * (a root without rows of its own, or a class with node-type subclasses), exposed as a GraphQL
   * interface: its rows resolve to the types of their own classes.
   */
  abstract?: boolean;
  /**
   * For an interface class with rows of its own (`abstract` with subclasses, e.g. a `Manager`
   * extended by `Owner`): the GraphQL object type of the rows that are exactly this class
   * (`ManagerOnly`, `rowsTypeName`); its fields are the interface's. Global ids, `node`,
   * connections, where and order inputs are the interface's (`Manager`).
   */
  rows?: string;
  /**
   * For a class of such an inheritance: the GraphQL interfaces of its ancestor classes it
   * implements, nearest first (`Owner`: `["Manager", "Staff"]`).
   */
  implements?: string[];
  /**
   * `IdPrefix(prefix)`: with `raw` global ids, the prefix before `_` of this type's keys
   * (`todo_01H…`), which names the type in `node(id)`.
   */
  prefix?: string;
}

/** A scalar GraphQL field of a node type. */
export interface FieldDescription {
  /** The entity property behind the field. */
  prop: string;
  /** The scalar kind. */
  kind: ScalarKind;
  /** For `kind: "enum"`, the GraphQL enum type name. */
  enum?: string;
  /** `[T!]`: a string, enum or embeddable array. */
  list?: boolean;
  /** An embedded property: the embeddable's GraphQL object type (`kind` is `json`). */
  embedded?: string;
  /**
   * Read-only, computed: `getter` (a `persist: false` property the entity computes from `reads`)
   * or `formula` (an SQL expression MikroORM selects; re-read after a mutation writes the row).
   */
  computed?: "getter" | "formula";
  /** For `computed: "getter"`: the stored properties field collection selects for it. */
  reads?: string[];
  /** A scalar reference (MikroORM `ref: true`): a managed entity holds the value in a `Ref`. */
  ref?: boolean;
}

/** An edge (relation) of a node type. */
export interface EdgeDescription {
  /** The entity property behind the edge. */
  prop: string;
  /** The GraphQL type name of the edge's target node. */
  target: string;
  /** MikroORM's reference kind. `m:1` and `1:1` are unique edges. */
  kind: "m:1" | "1:1" | "1:m" | "m:n";
  /** `true` when the edge is exposed as a Relay connection (`RelayConnection()`). */
  connection: boolean;
  /**
   * The target's property pointing back at the parent, for edges loaded from the target side
   * (`1:m`, `m:n`, inverse `1:1`); for a unidirectional `m:n`, the inverse MikroORM adds itself
   * (`<Owner>_<edge>__inverse`). Absent for edges loaded by the parent's foreign key; an `m:n`
   * edge without one is loaded per parent.
   */
  inverse?: string;
  /** `true` when field collection skips the edge (`Unbind()`): its resolver loads it. */
  unbound?: boolean;
  /**
   * The collection's declared order (MikroORM `orderBy` on a `1:m` or `m:n` property): the order
   * of the list edge, and of the connection when no `orderBy` is given; the key follows, ascending.
   */
  order?: EdgeOrderTerm[];
}

/** One term of a collection's declared order: a scalar property of the edge's target. */
export interface EdgeOrderTerm {
  /** The target's property. */
  prop: string;
  /** Its scalar kind (how cursor values are encoded and compared). */
  kind: ScalarKind;
  /** The declared direction. */
  direction: "ASC" | "DESC";
  /** The value can be null: nulls sort as the smallest value, as in every order. */
  nullable?: boolean;
}

/** One value of a `<T>OrderField` enum. */
export interface OrderFieldDescription {
  /** The entity property ordered by. */
  prop: string;
  /** Its scalar kind (decides how cursor values are encoded and decoded). */
  kind: ScalarKind;
  /** The value can be null: nulls sort first ascending, last descending, in every dialect. */
  nullable?: boolean;
  /** `<EDGE>_COUNT`: order by the number of rows of the non-unique edge `prop`. */
  count?: boolean;
  /** `<EDGE>_<FIELD>`: order by this property of the row the unique edge `prop` points to. */
  field?: string;
}

/**
 * A where-input operator, named as entgql names the predicate suffix (`EQ` has none):
 * `text`, `textNEQ`, `textIn`, `textNotIn`, `textGT`, ..., `textContainsFold`, `textIsNil`.
 */
export type WhereOp =
  | "EQ"
  | "NEQ"
  | "In"
  | "NotIn"
  | "GT"
  | "GTE"
  | "LT"
  | "LTE"
  | "Contains"
  | "HasPrefix"
  | "HasSuffix"
  | "IsNil"
  | "NotNil"
  | "EqualFold"
  | "ContainsFold";

/** The predicates of one property in a `<T>WhereInput`. */
export interface WhereFieldDescription {
  /** The entity property (a scalar, the primary key, or the unique edge holding a foreign key). */
  prop: string;
  /** How values are compared; `id` values are global ids of `target` (the node id, foreign keys). */
  kind: ScalarKind | "id";
  /** For `kind: "id"`: the GraphQL type the global ids name. */
  target?: string;
  /** The operator family; the operators follow from it (`whereOps` in runtime/plan/where_filter.ts). */
  ops: WhereOpFamily;
  /** The property is nullable: adds `IsNil`/`NotNil`. */
  nullable?: boolean;
}

/**
 * Operator families, entgql's operators per property type: `boolean` (EQ, NEQ), `equality`
 * (EQ, NEQ, In, NotIn: enums, foreign keys), `comparison` (equality plus GT, GTE, LT, LTE:
 * numbers, dates, UUIDs, ids), `string` (comparison plus Contains, HasPrefix, HasSuffix,
 * EqualFold, ContainsFold).
 */
export type WhereOpFamily = "boolean" | "equality" | "comparison" | "string";

/** A generated `<T>WhereInput` (entgql `WhereInput`). */
export interface WhereInputDescription {
  /** The input type name, `<T>WhereInput`. */
  name: string;
  /** Predicate base name (`text`, `categoryID`) -> predicates. */
  fields: Record<string, WhereFieldDescription>;
  /** GraphQL edge names with `has<Edge>` (and `has<Edge>With` when the target has a where input). */
  edges: string[];
}

/**
 * How global ids are made (`GenerateOptions.globalIds`):
 *
 * - `opaque`: base64url of `<Type>:<primary key>`;
 * - `universal`: the integer primary key itself; each type's keys live in their own range of
 *   2^32 ids (`setupUniversalIds`), so the number names the type;
 * - `raw`: the primary key itself (UUIDs, prefixed ULIDs); the type comes from the user's
 *   `nodeType(id)`, else the key's `IdPrefix`, else every type with string keys is searched.
 */
export type GlobalIdFormat = "opaque" | "universal" | "raw";

/**
 * One field of a generated `Create<T>Input` or `Update<T>Input`. Applying an input runs its
 * fields in the order `clear`, `set`, `add`/`remove`:
 *
 * - `set` of a `field`: assign the value to the scalar property;
 * - `set` of an `edge` (`<edge>ID`): point the unique edge at the node of the global id;
 * - `set` of `edges` (`<singular>IDs`, create inputs): the nodes of the global ids form the edge;
 * - `clear` (`clear<Field>`, `clear<Edge>`): `true` sets the property or unique edge to null, or
 *   empties the non-unique edge;
 * - `add`/`remove` of `edges` (`add<Singular>IDs`, `remove<Singular>IDs`).
 */
export interface MutationInputFieldDescription {
  /** What the field does. */
  op: "set" | "clear" | "add" | "remove";
  /** `field`: a scalar property; `edge`: a unique edge; `edges`: a non-unique edge. */
  kind: "field" | "edge" | "edges";
  /** The entity property. */
  prop: string;
  /** For `edge`/`edges`: the GraphQL type name the global ids must name. */
  target?: string;
}

/** The generated mutations of a node type annotated `Mutations()`. */
export interface MutationDescription {
  /** `create<T>(input: Create<T>Input!)`: root field name, input field name -> field. */
  create?: { field: string; input: Record<string, MutationInputFieldDescription> };
  /** `update<T>(id: ID!, input: Update<T>Input!)`: root field name, input field name -> field. */
  update?: { field: string; input: Record<string, MutationInputFieldDescription> };
  /** `delete<T>(id: ID!)`: root field name. */
  delete?: { field: string };
}

/** Per node type: GraphQL name -> description. */
export type Tables<T> = Record<string, Record<string, T>>;

/** The tables a generated `resolvers.ts` passes to {@linkcode defineGraph}. */
export interface GraphTables {
  /** GraphQL type name -> node type. */
  nodeTypes: Record<string, NodeTypeDescription>;
  /** GraphQL type name -> GraphQL field name -> scalar field. */
  fields: Tables<FieldDescription>;
  /** GraphQL type name -> GraphQL edge name -> edge. */
  edges: Tables<EdgeDescription>;
  /** GraphQL type name -> order field enum value -> order field. */
  orderFields: Tables<OrderFieldDescription>;
  /** GraphQL enum name -> GraphQL enum value -> entity (database) value. */
  enums: Record<string, Record<string, string | number>>;
  /** GraphQL type name -> root connection field name (`users`), for types with a query field. */
  queryFields: Record<string, string>;
  /** GraphQL type name -> change feed field of `Subscription`, for types annotated `Subscriptions()`. */
  subscriptionFields?: Record<string, string>;
  /** GraphQL type name -> generated mutations, for types annotated `Mutations()`. */
  mutations?: Record<string, MutationDescription>;
  /** GraphQL type name -> user field name -> properties it needs (`CollectedFor`). */
  collectedFor?: Tables<string[]>;
  /** GraphQL type name -> `<T>WhereInput`, for types with one. */
  whereInputs?: Record<string, WhereInputDescription>;
  /** The global id format; default `opaque`. */
  ids?: GlobalIdFormat;
}

/** A node type with all its tables joined, as the runtime reads it. */
export interface NodeType extends NodeTypeDescription {
  /** GraphQL type name. */
  name: string;
  /** GraphQL field name -> scalar field. */
  fields: Record<string, FieldDescription>;
  /** GraphQL edge name -> edge. */
  edges: Record<string, EdgeDescription>;
  /** Order field enum value -> order field. */
  orderFields: Record<string, OrderFieldDescription>;
  /** The generated mutations, when the type is annotated `Mutations()`. */
  mutations?: MutationDescription;
  /** User field name -> properties field collection selects for it (`CollectedFor`). */
  collectedFor?: Record<string, string[]>;
  /** The `<T>WhereInput`, unless the type is `Skip(SkipWhereInput)`. */
  where?: WhereInputDescription;
}

/** The whole generated graph, joined. */
export interface Graph {
  /** GraphQL type name -> node type. */
  types: Record<string, NodeType>;
  /** GraphQL enum name -> GraphQL enum value -> entity value. */
  enums: Record<string, Record<string, string | number>>;
  /** GraphQL type name -> root connection field name. */
  queryFields: Record<string, string>;
  /** GraphQL type name -> change feed field of `Subscription`. */
  subscriptionFields: Record<string, string>;
  /** MikroORM entity class name -> GraphQL type name (for `Node.__resolveType`). */
  typeOfEntity: Map<string, string>;
  /** The global id format. */
  ids: GlobalIdFormat;
  /** Runtime hooks of the schema this graph serves (`createResolvers` options). */
  hooks?: GraphHooks;
}

/**
 * Turns the value of a user-declared where-input field (`extend input TodoWhereInput {
 * createdToday: Boolean }`) into a MikroORM filter on the type's rows.
 */
export type WhereExtension = (
  value: unknown,
  context: { em: EntityManager; type: NodeType; path: string },
) => FilterQuery<object>;

/** Per-schema runtime hooks (the resolver options that reach every runtime function). */
export interface GraphHooks {
  /**
   * The node type of a `raw` global id (entgql's `WithFixedNodeType`): a GraphQL type name,
   * or `undefined` to fall back to the id's `IdPrefix` and then to every string-keyed type.
   */
  nodeType?: (id: string) => string | undefined;
  /**
   * Where-input type name -> user field -> filter function, for fields the user adds in their own
   * SDL (`extend input TodoWhereInput { createdToday: Boolean }`).
   */
  where?: Record<string, Record<string, WhereExtension>>;
  /**
   * With `universal` global ids: the type table `setupUniversalIds` recorded (index `i` owns the
   * keys `[i * 2^32, (i + 1) * 2^32)`).
   */
  universalIds?: readonly string[];
}

/**
 * The graph as a schema's resolvers see it: `graph` with the runtime `hooks` attached (a copy;
 * the generated graph is not changed).
 */
export function withHooks(graph: Graph, hooks: GraphHooks): Graph {
  const { nodeType, where, universalIds } = hooks;
  if (!nodeType && !where && !universalIds) return graph;
  return { ...graph, hooks: { nodeType, where, universalIds } };
}

/**
 * Joins the generated tables into one {@linkcode Graph}.
 *
 * @throws Error when a table names a type that `nodeTypes` does not hold
 */
export function defineGraph(tables: GraphTables): Graph {
  const types: Record<string, NodeType> = {};
  for (const [name, description] of Object.entries(tables.nodeTypes)) {
    types[name] = {
      ...description,
      name,
      fields: tables.fields[name] ?? {},
      edges: tables.edges[name] ?? {},
      orderFields: tables.orderFields[name] ?? {},
      mutations: tables.mutations?.[name],
      collectedFor: tables.collectedFor?.[name],
      where: tables.whereInputs?.[name],
    };
  }
  for (
    const table of [
      tables.fields,
      tables.edges,
      tables.orderFields,
      tables.mutations ?? {},
      tables.whereInputs ?? {},
    ]
  ) {
    for (const name of Object.keys(table)) {
      if (!types[name]) {
        throw new Error(`graph tables name unknown node type "${name}"`);
      }
    }
  }
  const typeOfEntity = new Map<string, string>();
  for (const type of Object.values(types)) {
    typeOfEntity.set(entityClassName(type.entity), type.name);
  }
  return {
    types,
    enums: tables.enums,
    queryFields: tables.queryFields,
    subscriptionFields: tables.subscriptionFields ?? {},
    typeOfEntity,
    ids: tables.ids ?? "opaque",
  };
}

/** The MikroORM class name of an entity given as a schema, a class or a name. */
// deno-lint-ignore no-explicit-any
export function entityClassName(entity: EntityName<any>): string {
  if (entity instanceof EntitySchema) return entity.meta.className;
  if (typeof entity === "function") return entity.name;
  return String(entity);
}

/** The node type of a loaded entity, or `undefined` when the graph does not expose its entity. */
export function nodeTypeOf(graph: Graph, entity: object): NodeType | undefined {
  // `__meta` is on the prototype of entities and of records (`read/lean_records.ts`) alike.
  const meta = (entity as { __meta?: { className: string } }).__meta ?? wrap(entity, true).__meta;
  const name = graph.typeOfEntity.get(meta.className);
  return name === undefined ? undefined : graph.types[name];
}
