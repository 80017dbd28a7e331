/**
 * Schema annotations: the typed markers that steer the generator, named as the spec and entgql
 * name them (`entgql.OrderField`, `entgql.Bind`, `entgql.MapsTo`, `entgql.Skip`,
 * `entgql.RelayConnection`, `entgql.QueryField`, `entgql.Type`, `entgql.Mutations`), and
 * `Subscriptions()`, the change feed entgql leaves to hand-written resolvers.
 *
 * Every annotation is a value that is also a standard (TC39) decorator, so it sits next to the
 * entity in both styles:
 *
 * ```ts
 * // decorated class
 * @Entity() @QueryField()
 * class Post { @OrderField("TITLE") @Property() title!: string }
 *
 * // defineEntity
 * export const User = defineEntity({ name: "User", properties: { name: p.string() } });
 * annotate(User, { entity: [QueryField()], fields: { name: [OrderField("NAME")] } });
 * ```
 *
 * @module
 */
import { EntitySchema } from "@mikro-orm/core";

/** Skip modes of {@linkcode Skip}, as entgql's `SkipMode` bit flags. */
export const SkipType = 1;
/** Skip the GraphQL enum of an enum property. */
export const SkipEnumField = 2;
/** Skip the field from `<T>OrderField`. */
export const SkipOrderField = 4;
/** Skip the field from `<T>WhereInput`. */
export const SkipWhereInput = 8;
/** Skip the field from `Create<T>Input`. */
export const SkipMutationCreateInput = 16;
/** Skip the field from `Update<T>Input`. */
export const SkipMutationUpdateInput = 32;
/** Skip everything (the default of `Skip()`). */
export const SkipAll = 63;

/** One annotation's data. */
export type Annotation =
  | { kind: "OrderField"; name: string }
  | { kind: "Bind" }
  | { kind: "Unbind" }
  | { kind: "CollectedFor"; fields: string[] }
  | { kind: "MapsTo"; names: string[] }
  | { kind: "Skip"; modes: number }
  | { kind: "Expose" }
  | { kind: "RelayConnection" }
  | { kind: "QueryField"; name?: string }
  | { kind: "Type"; name: string; rows?: string }
  | { kind: "MultiOrder" }
  | { kind: "IdPrefix"; prefix: string }
  | { kind: "Mutations"; create: boolean; update: boolean; delete: boolean }
  | { kind: "Subscriptions"; name?: string };

/** The kind names of {@linkcode Annotation}. */
export type AnnotationKind = Annotation["kind"];

/**
 * An annotation usable as a class or property decorator, TC39 (standard) or legacy
 * (`experimentalDecorators`, as with MikroORM's `@mikro-orm/decorators/legacy`); `annotation`
 * holds its data.
 */
export interface AnnotationDecorator<A extends Annotation = Annotation> {
  /** TC39 class or field decorator. */
  (value: unknown, context: DecoratorContext): void;
  /** Legacy property decorator: `target` is the class prototype. */
  (target: object, propertyKey: string | symbol, descriptor?: PropertyDescriptor): void;
  /** Legacy class decorator. */
  (target: abstract new (...args: never[]) => unknown): void;
  /** The annotation's data. */
  readonly annotation: A;
}

/** All annotations of one entity: on the entity itself and per property. */
export interface EntityAnnotations {
  /** The annotations of the entity (class or schema). */
  entity: Annotation[];
  /** The annotations per entity property name. */
  fields: Record<string, Annotation[]>;
}

const KEY = Symbol.for("mikrogql.annotations");

function decorator<A extends Annotation>(
  annotation: A,
): AnnotationDecorator<A> {
  const apply = (value: unknown, context?: DecoratorContext | string | symbol) => {
    if (context === undefined && typeof value === "function") {
      // Legacy class decorator: kept on the class itself, read by annotationsOf as annotate()'s.
      ownStore(value as unknown as Record<PropertyKey, unknown>).entity.push(annotation);
    } else if (typeof context === "string" || typeof context === "symbol") {
      // Legacy property decorator on the prototype.
      const ctor = (value as { constructor: Record<PropertyKey, unknown> }).constructor;
      (ownStore(ctor).fields[String(context)] ??= []).push(annotation);
    } else {
      const store = ownStore(context?.metadata as Record<PropertyKey, unknown> | undefined);
      if (context!.kind === "class") store.entity.push(annotation);
      else (store.fields[String(context!.name)] ??= []).push(annotation);
    }
  };
  return Object.assign(apply, { annotation }) as unknown as AnnotationDecorator<A>;
}

function ownStore(
  metadata: Record<PropertyKey, unknown> | undefined,
): EntityAnnotations {
  if (!metadata) {
    throw new Error(
      "mikrogql annotations as TC39 decorators need decorator metadata (Symbol.metadata); with legacy decorators set experimentalDecorators",
    );
  }
  if (!Object.hasOwn(metadata, KEY)) {
    const inherited = metadata[KEY] as EntityAnnotations | undefined;
    metadata[KEY] = {
      entity: [...(inherited?.entity ?? [])],
      fields: Object.fromEntries(
        Object.entries(inherited?.fields ?? {}).map(([k, v]) => [k, [...v]]),
      ),
    };
  }
  return metadata[KEY] as EntityAnnotations;
}

/**
 * `OrderField(NAME)`: the property is orderable; `NAME` is its value in `<T>OrderField`
 * (entgql `OrderField`). The property must be comparable (not JSON, not an array, not a blob).
 */
export function OrderField(
  name: string,
): AnnotationDecorator<{ kind: "OrderField"; name: string }> {
  if (!/^[A-Z][A-Z0-9_]*$/.test(name)) {
    throw new Error(
      `OrderField name must be an upper-case GraphQL enum value, got ${JSON.stringify(name)}`,
    );
  }
  return decorator({ kind: "OrderField", name });
}

/** `Bind()`: the GraphQL edge is named as the entity property (entgql `Bind`). */
export function Bind(): AnnotationDecorator<{ kind: "Bind" }> {
  return decorator({ kind: "Bind" });
}

/**
 * `Unbind()`: field collection does not eager-load the edge; its resolver loads it on demand,
 * per parent (entgql `Unbind`).
 */
export function Unbind(): AnnotationDecorator<{ kind: "Unbind" }> {
  return decorator({ kind: "Unbind" });
}

/**
 * `CollectedFor(...fields)`: when one of these GraphQL fields, resolved by a user resolver, is
 * selected, field collection selects this property (instead of every column).
 */
export function CollectedFor(
  ...fields: string[]
): AnnotationDecorator<{ kind: "CollectedFor"; fields: string[] }> {
  if (fields.length === 0 || fields.some((n) => !/^[_A-Za-z][_0-9A-Za-z]*$/.test(n))) {
    throw new Error(`CollectedFor needs GraphQL field names, got ${JSON.stringify(fields)}`);
  }
  return decorator({ kind: "CollectedFor", fields });
}

/**
 * `MapsTo(...names)`: expose the edge under these GraphQL field names instead of the property
 * name (entgql `MapsTo`).
 */
export function MapsTo(
  ...names: string[]
): AnnotationDecorator<{ kind: "MapsTo"; names: string[] }> {
  if (
    names.length === 0 || names.some((n) => !/^[_A-Za-z][_0-9A-Za-z]*$/.test(n))
  ) {
    throw new Error(
      `MapsTo needs GraphQL field names, got ${JSON.stringify(names)}`,
    );
  }
  return decorator({ kind: "MapsTo", names });
}

/**
 * `Skip(...modes)`: leave the entity or property out of parts of the schema (entgql `Skip`).
 * Without modes, out of everything ({@linkcode SkipAll}).
 */
export function Skip(
  ...modes: number[]
): AnnotationDecorator<{ kind: "Skip"; modes: number }> {
  return decorator({
    kind: "Skip",
    modes: modes.length === 0 ? SkipAll : modes.reduce((a, b) => a | b, 0),
  });
}

/**
 * `Expose()`: expose a property MikroORM hides (`hidden: true`), which the generator leaves out
 * of the schema otherwise (as entgql leaves out `Sensitive()` fields). `Skip` modes still apply.
 */
export function Expose(): AnnotationDecorator<{ kind: "Expose" }> {
  return decorator({ kind: "Expose" });
}

/**
 * `RelayConnection()`: expose a non-unique edge as a `<T>Connection` with pagination arguments
 * (entgql `RelayConnection`). On a unique edge it is a generator error.
 */
export function RelayConnection(): AnnotationDecorator<
  { kind: "RelayConnection" }
> {
  return decorator({ kind: "RelayConnection" });
}

/**
 * `QueryField(name?)`: add a root connection field for the entity (entgql `QueryField`), named
 * `name` or the camel-case plural of the type (`users`).
 */
export function QueryField(
  name?: string,
): AnnotationDecorator<{ kind: "QueryField"; name?: string }> {
  return decorator({ kind: "QueryField", name });
}

/** Options of {@linkcode Type}. */
export interface TypeOptions {
  /**
   * For a class with rows of its own and subclasses (a GraphQL interface named `name`): the
   * object type of the rows that are exactly this class, instead of `<name>Only`.
   */
  rows?: string;
}

/**
 * `Type(name, options?)`: the GraphQL type name of the entity, instead of its class name (entgql
 * `Type`); `rows` names the object type of a class with rows of its own and subclasses.
 *
 * @example A manager class extended by `Owner`: interface `Manager`, its own rows `PlainManager`
 * ```ts
 * import { Entity } from "@mikro-orm/decorators/es";
 * import { Type } from "@mikrogql/ext";
 *
 * @Entity()
 * @Type("Manager", { rows: "PlainManager" })
 * class Manager {}
 * ```
 */
export function Type(
  name: string,
  options: TypeOptions = {},
): AnnotationDecorator<{ kind: "Type"; name: string; rows?: string }> {
  return decorator(
    options.rows === undefined ? { kind: "Type", name } : {
      kind: "Type",
      name,
      rows: options.rows,
    },
  );
}

/** Which generated mutations of {@linkcode Mutations} are on; each defaults to `true`. */
export interface MutationOptions {
  /** `create<T>(input: Create<T>Input!): <T>!` and `Create<T>Input`. */
  create?: boolean;
  /** `update<T>(id: ID!, input: Update<T>Input!): <T>!` and `Update<T>Input`. */
  update?: boolean;
  /** `delete<T>(id: ID!): ID!`. */
  delete?: boolean;
}

/**
 * `Mutations(options?)`: generate the mutation inputs, root mutation fields and resolvers of the
 * entity (entgql `Mutations(MutationCreate(), MutationUpdate())`, plus delete). Without options,
 * all three; `Mutations({ delete: false })` switches one off. Entities without it get none.
 */
export function Mutations(
  options: MutationOptions = {},
): AnnotationDecorator<
  { kind: "Mutations"; create: boolean; update: boolean; delete: boolean }
> {
  return decorator({
    kind: "Mutations",
    create: options.create ?? true,
    update: options.update ?? true,
    delete: options.delete ?? true,
  });
}

/** Options of {@linkcode Subscriptions}. */
export interface SubscriptionOptions {
  /** The root field of `Subscription`; default `<type>Changed` (`postChanged`). */
  name?: string;
}

/**
 * `Subscriptions(options?)`: generate the entity's change feed, a root field of `Subscription`,
 * `<type>Changed(where: <T>WhereInput): <T>ChangeEvent!`, whose events (`operation`: `CREATED`,
 * `UPDATED`, `DELETED`; the node's `id`; `node` with any selection) follow the commits of the
 * entity's rows, each delivered only to subscribers whose viewer may read the row
 * (docs/subscriptions.md). Entities without it have none.
 *
 * @example A task board's feed: `subscription { taskChanged { operation id node { title } } }`
 * ```ts
 * import { defineEntity, p } from "@mikro-orm/core";
 * import { annotate, QueryField, Subscriptions } from "@mikrogql/ext";
 *
 * export const Task = defineEntity({
 *   name: "Task",
 *   properties: { id: p.integer().primary(), title: p.string() },
 * });
 * annotate(Task, { entity: [QueryField(), Subscriptions()] });
 * ```
 */
export function Subscriptions(
  options: SubscriptionOptions = {},
): AnnotationDecorator<{ kind: "Subscriptions"; name?: string }> {
  if (options.name !== undefined && !/^[_A-Za-z][_0-9A-Za-z]*$/.test(options.name)) {
    throw new Error(
      `Subscriptions needs a GraphQL field name, got ${JSON.stringify(options.name)}`,
    );
  }
  return decorator(
    options.name === undefined ? { kind: "Subscriptions" } : {
      kind: "Subscriptions",
      name: options.name,
    },
  );
}

/**
 * `MultiOrder()`: the type's connections take a list of orders, `orderBy: [<T>Order!]`, applied
 * in turn (entgql `MultiOrder`); cursors then hold one value per order term.
 */
export function MultiOrder(): AnnotationDecorator<{ kind: "MultiOrder" }> {
  return decorator({ kind: "MultiOrder" });
}

/**
 * `IdPrefix(prefix)`: the entity's string primary keys start with `<prefix>_` (prefixed ULIDs,
 * `todo_01H…`). With `globalIds: "raw"`, `node(id)` reads the type from the prefix, as the
 * spec's reference application does with its prefixed-ULID ids.
 */
export function IdPrefix(
  prefix: string,
): AnnotationDecorator<{ kind: "IdPrefix"; prefix: string }> {
  if (!/^[a-z][a-z0-9]*$/.test(prefix)) {
    throw new Error(
      `IdPrefix needs a lower-case alphanumeric prefix, got ${JSON.stringify(prefix)}`,
    );
  }
  return decorator({ kind: "IdPrefix", prefix });
}

/**
 * Attaches annotations to an entity that cannot carry decorators (a `defineEntity` result or an
 * `EntitySchema`), or adds to a decorated class's.
 *
 * @example An entity file the generator reads
 * ```ts
 * import { defineEntity, p } from "@mikro-orm/core";
 * import { annotate, Mutations, OrderField, QueryField, RelayConnection } from "@mikrogql/ext";
 *
 * export const Author = defineEntity({
 *   name: "Author",
 *   properties: {
 *     id: p.integer().primary(),
 *     name: p.string(),
 *     createdAt: p.datetime().onCreate(() => new Date()),
 *     books: () => p.oneToMany(Book).mappedBy("author"),
 *   },
 * });
 *
 * export const Book = defineEntity({
 *   name: "Book",
 *   properties: {
 *     id: p.integer().primary(),
 *     title: p.string(),
 *     author: () => p.manyToOne(Author).index(),
 *   },
 * });
 *
 * // `authors(orderBy: { field: NAME })`, `createAuthor`/`updateAuthor`/`deleteAuthor`, and
 * // `Author.books` as a BookConnection with first/last/after/before
 * annotate(Author, {
 *   entity: [QueryField(), Mutations()],
 *   fields: {
 *     name: [OrderField("NAME")],
 *     createdAt: [OrderField("CREATED_AT")],
 *     books: [RelayConnection()],
 *   },
 * });
 * ```
 *
 * @param entity the entity
 * @param annotations `entity`: annotations of the entity; `fields`: property name -> annotations
 * @returns `entity`, for chaining
 */
export function annotate<E extends object>(
  entity: E,
  annotations: {
    entity?: AnnotationDecorator[];
    fields?: Partial<Record<EntityPropertyName<E>, AnnotationDecorator[]>>;
  },
): E {
  const store = ownStore(entity as Record<PropertyKey, unknown>);
  store.entity.push(...(annotations.entity ?? []).map((a) => a.annotation));
  for (const [field, list] of Object.entries(annotations.fields ?? {})) {
    (store.fields[field] ??= []).push(...(list as AnnotationDecorator[]).map((a) => a.annotation));
  }
  return entity;
}

/**
 * The property names of an entity given as `annotate` takes it: a `defineEntity` result or an
 * `EntitySchema` (its entity type's keys), a class (its instances' keys), else any string.
 */
export type EntityPropertyName<E> = E extends EntitySchema<infer T, infer _B>
  ? Extract<keyof T, string>
  : E extends abstract new (...args: never[]) => infer T ? Extract<keyof T, string>
  : string;

/** The annotations of an entity (decorated class, `EntitySchema`, or `defineEntity` result). */
export function annotationsOf(entity: object): EntityAnnotations {
  const sources: (EntityAnnotations | undefined)[] = [];
  const classOf = entity instanceof EntitySchema ? entity.meta.class : entity;
  if (typeof classOf === "function") {
    const metadata = (classOf as { [Symbol.metadata]?: Record<PropertyKey, unknown> })[
      Symbol.metadata
    ];
    sources.push(metadata?.[KEY] as EntityAnnotations | undefined);
  }
  sources.push(
    (entity as Record<PropertyKey, unknown>)[KEY] as
      | EntityAnnotations
      | undefined,
  );
  const result: EntityAnnotations = { entity: [], fields: {} };
  for (const source of sources) {
    if (!source) continue;
    result.entity.push(...source.entity);
    for (const [field, list] of Object.entries(source.fields)) {
      (result.fields[field] ??= []).push(...list);
    }
  }
  return result;
}
