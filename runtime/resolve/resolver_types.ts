/**
 * The type vocabulary of the generated `types.ts`: field resolvers typed by
 * parent, arguments, result and context, as graphql-codegen's typescript-resolvers types them,
 * so user resolvers and `createSchema({ resolvers })` type-check without `any`.
 *
 * @module
 */
import type { EntityManager, InferEntity } from "@mikro-orm/core";
import type { GraphQLResolveInfo } from "graphql";
import type { MikroContext } from "../context.ts";

/** The context every resolver gets: the request's EntityManager (`fromContext` gives the one of
 * the operation's transaction). */
export interface ResolverContext extends MikroContext {
  /** The request's EntityManager (`context: () => ({ em: orm.em.fork() })`). */
  em: EntityManager;
}

/** A nullable GraphQL value: `null` or absent. */
export type Maybe<T> = T | null | undefined;

/** A value or a promise of it. */
export type Awaitable<T> = T | Promise<T>;

/**
 * A field resolver: `(parent, args, context, info) => result`, or graphql-tools' object form
 * `{ resolve }`.
 *
 * @typeParam Result what the field resolves to (entities for node types)
 * @typeParam Parent the object the field is on (the entity, for a node type's field)
 * @typeParam Args the field's arguments, as graphql-js passes them (enums as entity values)
 */
export type FieldResolver<Result, Parent, Args = Record<string, never>, Context = ResolverContext> =
  | FieldResolverFn<Result, Parent, Args, Context>
  | { resolve: FieldResolverFn<Result, Parent, Args, Context> };

/** The function form of {@linkcode FieldResolver}. */
export type FieldResolverFn<Result, Parent, Args, Context> = (
  parent: Parent,
  args: Args,
  context: Context,
  info: GraphQLResolveInfo,
) => Awaitable<Result>;

/** The entity type of an entity class, `EntitySchema` or `defineEntity` result. */
export type EntityOf<E> = InferEntity<E>;

/**
 * The resolvers of one object type: its generated fields typed, plus fields a user adds with
 * `typeDefs` (`extend type T { ... }`), which the generator cannot know (annotate their
 * parameters).
 */
export type TypeResolvers<Fields> = { [F in keyof Fields]?: Fields[F] } & {
  [field: string]: unknown;
};
