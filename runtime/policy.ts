/**
 * Policies: who may read and write which rows of an entity (ent's privacy policies, Hasura's row
 * and column permissions, PostgreSQL's row-level security), declared next to the entity and
 * handed to `createSchema({ policies })`.
 *
 * - `read(viewer)` turns the request's viewer into a row condition, a MikroORM filter query on
 *   the entity. The runtime registers it on the request's EntityManager as a MikroORM filter
 *   (`policy_binding.ts`), so it is part of every statement that reads the entity: root pages and
 *   counts, nested pages and counts, unique edges, `node`/`nodes`, `has<Edge>`/`has<Edge>With`
 *   subqueries, `<edge>ID` predicates, `<EDGE>_COUNT`/`<EDGE>_<FIELD>` order terms, the rows a
 *   mutation reads (its target, the ids of its input, its payload) and `em.find` in a resolver of
 *   your own.
 * - `create`/`update`/`delete` decide a write from the viewer, the input and the row before and
 *   after it (`false`: `FORBIDDEN`, nothing written).
 * - `fields.<name>(viewer)`: the rows on which the field may be read; elsewhere the field is
 *   `null` with a `FORBIDDEN` error at its path (the schema makes it nullable), and a where
 *   predicate or an order on it is `FORBIDDEN` unless the viewer may read it on every row.
 *
 * A rule returns a filter query, `true` (every row) or `false` (no row).
 *
 * @module
 */
import type { EntityManager, EntityName, FilterQuery } from "@mikro-orm/core";

/** What a read or field rule answers: a row condition, `true` (every row) or `false` (none). */
export type RowCondition<E> = FilterQuery<E> | boolean;

/** What a write rule is given. */
export interface WriteRequest<E, V> {
  /** The request's viewer (`undefined`: anonymous). */
  viewer: V | undefined;
  /** The GraphQL input (`Create<T>Input`/`Update<T>Input` field name -> value); `{}` on delete. */
  input: Record<string, unknown>;
  /** The row before the write: a copy of its properties (`undefined` on create). */
  before?: Partial<E>;
  /** The entity after the input is applied, not yet written (`undefined` on delete). */
  after?: E;
  /** The EntityManager of the write (the operation's transaction), with the read rules on. */
  em: EntityManager;
}

/** A write rule: `true` allows the write, `false` refuses it with `FORBIDDEN`. */
export type WriteRule<E, V> = (request: WriteRequest<E, V>) => boolean | Promise<boolean>;

/**
 * The rules of one entity. Every rule left out allows everything; declare `read` to restrict
 * reads, and each write rule to restrict that write.
 *
 * @typeParam E the entity type
 * @typeParam V the viewer type (what `createSchema({ viewer })` returns)
 */
export interface PolicyRules<E, V> {
  /** The rows the viewer may read (and so write, and name in an input). */
  read?: (viewer: V | undefined) => RowCondition<E>;
  /** Whether the viewer may create this row (`after`: the entity to insert). */
  create?: WriteRule<E, V>;
  /** Whether the viewer may make this change (`before`, `after`). */
  update?: WriteRule<E, V>;
  /** Whether the viewer may delete this row (`before`). */
  delete?: WriteRule<E, V>;
  /**
   * Per property: the rows on which the viewer may read it (a filter query, `true`, `false`).
   * Naming a property the entity does not have is a type error (and an error of `createSchema`).
   */
  fields?: { [K in keyof E & string]?: (viewer: V | undefined) => RowCondition<E> };
}

/** One entity's policy, as {@linkcode definePolicy} returns it. */
export interface Policy<E = object, V = unknown> {
  /** The entity the rules are about. */
  // deno-lint-ignore no-explicit-any
  readonly entity: EntityName<any>;
  /** The rules. */
  readonly rules: PolicyRules<E, V>;
}

/**
 * Declares the policy of an entity: its read rule (a row condition from the viewer), its write
 * rules and its field read rules. Pass the policies to the generated `createSchema({ policies,
 * viewer })`; the viewer comes from the GraphQL context, so any authentication works.
 *
 * @example Users see their own posts; only the author updates or deletes a post
 * ```ts
 * import { definePolicy } from "@mikrogql/ext";
 * import { Post } from "./entities/post.ts";
 * import { User } from "./entities/user.ts";
 * import { createSchema } from "./generated/mod.ts";
 *
 * type Viewer = { id: number };
 * const posts = definePolicy(Post, {
 *   read: (viewer: Viewer | undefined) => viewer ? { author: viewer.id } : false,
 *   update: ({ viewer, after }) => after!.author.id === viewer?.id,
 *   delete: ({ viewer, before }) => before!.author?.id === viewer?.id,
 * });
 * const users = definePolicy(User, {
 *   fields: { email: (viewer: Viewer | undefined) => viewer ? { id: viewer.id } : false },
 * });
 * const schema = createSchema({
 *   policies: [posts, users],
 *   viewer: (ctx) => (ctx as { viewer?: Viewer }).viewer,
 * });
 * ```
 *
 * @typeParam V the viewer type: inferred from `read`'s parameter; annotate the parameters of the
 *   other rules (or pass `definePolicy<Entity, Viewer>`) where there is no `read`
 * @param entity the MikroORM entity (`defineEntity` result, `EntitySchema` or class)
 * @param rules the entity's rules
 * @returns the policy
 */
// deno-lint-ignore no-explicit-any
export function definePolicy<E extends object, V = any>(
  entity: EntityName<E>,
  rules: PolicyRules<E, V>,
): Policy<E, V> {
  return { entity, rules };
}
