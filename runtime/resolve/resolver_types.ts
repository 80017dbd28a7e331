/**
 * The type vocabulary of the generated `types.ts`: field resolvers typed by
 * parent, arguments, result and context, as graphql-codegen's typescript-resolvers types them,
 * so user resolvers and `createSchema({ resolvers })` type-check without `any`.
 *
 * @module
 */
import type { EntityManager, InferEntity } from "@mikro-orm/core";
import type { GraphQLResolveInfo } from "graphql";
import type { MikroContext } from "../request/context.ts";

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

/**
 * A resolver of a `Subscription` field, as graphql-js runs it: `subscribe` returns the event
 * stream, `resolve` turns each event into the field's value (the event itself without it).
 *
 * @typeParam Result what each event resolves to (`<T>ChangeEvent` for a change feed)
 * @typeParam Args the field's arguments
 */
export interface SubscriptionResolver<
  Result,
  Args = Record<string, never>,
  Context = ResolverContext,
> {
  /** Starts the stream of events (`AsyncIterable`): called once per subscription. */
  subscribe: (
    parent: unknown,
    args: Args,
    context: Context,
    info: GraphQLResolveInfo,
  ) => Awaitable<AsyncIterable<unknown>>;
  /** The field's value of one event. */
  // deno-lint-ignore no-explicit-any
  resolve?: FieldResolverFn<Result, any, Args, Context>;
}

/** The entity type of an entity class, `EntitySchema` or `defineEntity` result. */
export type EntityOf<E> = InferEntity<E>;

/**
 * The resolver map of a generated schema plus the user's own SDL: `Generated` holds each
 * generated object type's field resolvers (`{ Post: PostResolvers; ... }`), `Extra` what the
 * user's `typeDefs` add, type by type and field by field (`{ Query: { postCount:
 * FieldResolver<number, unknown> }; Stats: { ... } }`). A type or field in neither is a type
 * error; a field in both takes `Extra`'s type (an `extend input` changes the arguments it gets).
 * Every type and field is optional: resolvers may come in several maps.
 * The generated `types.ts` declares `Resolvers<Extra>` as this type over its own types.
 *
 * @example Resolvers of a field added with typeDefs
 * ```ts
 * import type { FieldResolver } from "@mikrogql/ext";
 * import { createSchema, type Post, type Resolvers } from "./generated/mod.ts";
 *
 * type Extra = { Post: { shout: FieldResolver<string, Post> } };
 * const resolvers: Resolvers<Extra> = {
 *   Post: { shout: (post) => post.title.toUpperCase() },
 * };
 * const schema = createSchema<Extra>({
 *   typeDefs: "extend type Post { shout: String! }",
 *   resolvers,
 * });
 * ```
 *
 * @typeParam Generated the generated field resolvers, by object type
 * @typeParam Extra the resolvers of the user's `typeDefs`, by type (none by default)
 */
export type TypedResolvers<Generated, Extra = Record<never, never>> = {
  [T in keyof Generated | keyof Extra]?: T extends keyof Extra
    ? T extends keyof Generated ? Omit<Generated[T], keyof Extra[T]> & Partial<Extra[T]>
    : Partial<Extra[T]>
    : T extends keyof Generated ? Generated[T]
    : never;
};
