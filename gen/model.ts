/**
 * The generator's intermediate representation, the Model: one normalised record per node type,
 * built once from MikroORM's metadata and the annotations (`build_model.ts`), with every GraphQL
 * name decided (by `runtime/names.ts`). The schema builders and the emitters read only the Model.
 *
 * Where a record and a runtime table description (`runtime/graph.ts`) overlap, the record extends
 * the description and holds its keys first, in the order the generated tables print them: an
 * emitter writes a record's description by leaving out the generator's own keys.
 *
 * @module
 */
import type { EntityMetadata } from "@mikro-orm/core";
import type {
  EdgeDescription,
  FieldDescription,
  GlobalIdFormat,
  MutationInputFieldDescription,
  NodeTypeDescription,
  OrderFieldDescription,
  WhereFieldDescription,
} from "../runtime/graph.ts";
import type { LoadedEntity } from "./load_entities.ts";

/** A scalar field of a node type or an embeddable. */
export interface ModelField extends FieldDescription {
  /** GraphQL type name of the field, without list/non-null wrappers. */
  graphqlType: string;
  /** GraphQL field name. */
  name: string;
  /** The property is nullable: the GraphQL field has no `!`. */
  nullable: boolean;
  /** The GraphQL description (the property's `comment`, else its doc comment). */
  description?: string;
  /** The `Skip` modes annotated on the property (`SkipWhereInput | ...`), `0` for none. */
  skip: number;
  /**
   * Set by the database or MikroORM, never by an input: `onCreate`/`onUpdate`, `version`,
   * formulas, generated columns, `persist: false`.
   */
  generated: boolean;
  /** A create input may leave it out: nullable, defaulted, or set by the entity class. */
  optional: boolean;
  /** A UUID column: compared as a value, not matched as text. */
  uuid?: boolean;
  /**
   * A `String` holding a time of day (`p.time()`): compared as a value (comparison operators),
   * never matched as text (no `Contains`, `HasPrefix`, ...). Decimals and dates have kinds of
   * their own (`Decimal`, `Date`).
   */
  valueText?: boolean;
  /** A column of the primary key (a natural key): set by create inputs only, never updated. */
  key?: boolean;
  /** An embedded property stored as one JSON column (MikroORM `object: true`). */
  object?: boolean;
}

/** An edge of a node type. */
export interface ModelEdge extends EdgeDescription {
  /** GraphQL field name. */
  name: string;
  /** `m:1`/`1:1`: one node; otherwise a list or a connection. */
  unique: boolean;
  /** A unique edge whose target can be missing (a nullable foreign key, an inverse side). */
  nullable: boolean;
  /** MikroORM's `owner`: this side holds the foreign key (or the pivot table). */
  owner: boolean;
  /** The relation is (part of) the primary key: set on create only. */
  primary: boolean;
  /** Rows can leave the non-unique edge: `m:n`, or `1:m` with `orphanRemoval` or a nullable inverse. */
  removable: boolean;
  /** Set by MikroORM, never by an input (`persist: false`, `formula`, ...). */
  generated: boolean;
  /** The `Skip` modes annotated on the property, `0` for none. */
  skip: number;
  /** The GraphQL description (the property's `comment`, else its doc comment). */
  description?: string;
}

/** One value of `<T>OrderField`. */
export interface ModelOrderField extends OrderFieldDescription {
  /** The enum value, e.g. `TITLE`. */
  name: string;
}

/** A GraphQL enum generated for enum properties. */
export interface ModelEnum {
  /** The TypeScript enum's name, or `<Type><Field>`, e.g. `TodoStatus`. */
  name: string;
  /** GraphQL value name and the entity value behind it. */
  values: { name: string; value: string | number }[];
}

/** An embeddable's GraphQL object type and input type. */
export interface ModelEmbeddable {
  /** GraphQL object type name: the class name, or its `Type(name)`. */
  name: string;
  /** Input type name, `<name>Input`. */
  inputName: string;
  /** MikroORM class name. */
  className: string;
  /** Its fields: scalars, enums and nested embeddables (`embedded` set). */
  fields: ModelField[];
  /** The GraphQL description (the class's `comment`, else its doc comment). */
  description?: string;
}

/** The predicates of one property in a where input. */
export interface ModelWhereField extends WhereFieldDescription {
  /** Predicate base name: the GraphQL field name, `id`, or `<edge>ID` for a foreign key. */
  name: string;
  /** GraphQL named type of one value (`ID`, `String`, `Time`, an enum name, ...). */
  graphqlType: string;
}

/** The edge predicates of one edge in a where input. */
export interface ModelWhereEdge {
  /** GraphQL edge name. */
  name: string;
  /** GraphQL type of the target node. */
  target: string;
  /** `has<Edge>With` exists (the target has a where input). */
  with: boolean;
}

/** A `<T>WhereInput`. */
export interface ModelWhereInput {
  /** `<T>WhereInput`. */
  name: string;
  /** The predicates on the type's fields. */
  fields: ModelWhereField[];
  /** The `has<Edge>`/`has<Edge>With` predicates. */
  edges: ModelWhereEdge[];
}

/** One field of `Create<T>Input` or `Update<T>Input`. */
export interface ModelMutationInputField extends MutationInputFieldDescription {
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
export interface ModelMutationInput {
  /** Root mutation field, e.g. `createPost`. */
  field: string;
  /** Input object type, e.g. `CreatePostInput`. */
  name: string;
  /** The input's fields, in entity property order. */
  fields: ModelMutationInputField[];
}

/** The generated mutations of one type. */
export interface ModelMutations {
  /** `Create<T>Input` and `create<T>`, unless `Skip(SkipMutationCreateInput)`. */
  create?: ModelMutationInput;
  /** `Update<T>Input` and `update<T>`, unless `Skip(SkipMutationUpdateInput)`. */
  update?: ModelMutationInput;
  /** `delete<T>(id: ID!): ID!`. */
  delete?: { field: string };
}

/** A node type: an entity exposed as a GraphQL object implementing `Node`. */
export interface ModelType extends Omit<NodeTypeDescription, "entity"> {
  /** GraphQL type name. */
  name: string;
  /** The entity as loaded from its module: export name, file, annotations. */
  entity: LoadedEntity;
  /** MikroORM's discovered metadata of the entity (read by the foreign-key index check). */
  meta: EntityMetadata;
  /** The entity module relative to the working directory, as diagnostics name it. */
  file: string;
  /** The `Skip` modes annotated on the entity, `0` for none. */
  skip: number;
  /** Root connection field name, when annotated `QueryField()`. */
  queryField?: string;
  /** Root field of `Subscription` (the change feed), when annotated `Subscriptions()`. */
  subscriptionField?: string;
  /** The scalar fields, in entity property order. */
  fields: ModelField[];
  /** The edges, in entity property order. */
  edges: ModelEdge[];
  /** The values of `<T>OrderField`. */
  orderFields: ModelOrderField[];
  /** User field name -> properties to select for it (`CollectedFor`). */
  collectedFor: Record<string, string[]>;
  /** Create/update inputs and root mutation fields, when annotated `Mutations()`. */
  mutations?: ModelMutations;
  /** `MultiOrder()`: connections take `orderBy: [<T>Order!]`. */
  multiOrder: boolean;
  /** `<T>WhereInput`, unless `Skip(SkipWhereInput)`. */
  where?: ModelWhereInput;
  /** The GraphQL description (the entity's `comment`, else its doc comment). */
  description?: string;
}

/** The intermediate representation every schema builder and emitter reads. */
export interface Model {
  /** The node types, sorted by name. */
  types: ModelType[];
  /** The GraphQL enums of enum properties. */
  enums: ModelEnum[];
  /** The embeddables the node types use, as object and input types. */
  embeddables?: ModelEmbeddable[];
  /** The global id format (`GenerateOptions.globalIds`); `opaque` when absent. */
  ids?: GlobalIdFormat;
}
