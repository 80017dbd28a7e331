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
 *   after it (`false`: `FORBIDDEN`, nothing written). They judge the database as it was before
 *   the write: their `em` is a fork in the write's transaction with an empty identity map and
 *   flushing off, so a rule that counts rows of its own entity never sees the row being written
 *   (`write/write_rule.ts`). `create` and `update` may also be a {@linkcode WritePermission}:
 *   the rule, the input fields the viewer may set (`columns`) and values the server sets
 *   (`preset`), as Hasura's insert and update permissions.
 * - `check` judges the row after a create or update, on the write's own EntityManager, where it
 *   is written but not committed (Hasura's post-insert check, row-level security's `WITH CHECK`).
 * - `fields.<name>(viewer)`: the rows on which the field may be read; elsewhere the field is
 *   `null` with a `FORBIDDEN` error at its path (the schema makes it nullable), and a where
 *   predicate or an order on it is `FORBIDDEN` unless the viewer may read it on every row.
 *
 * Once `createSchema` is given policies, what no rule allows is denied: a write without a rule
 * for it is `FORBIDDEN`, and a node type without a read rule reads no row (unreadable as a
 * missing one) unless its policy says `read: allowAll`. Without policies nothing is checked.
 *
 * A read rule returns a filter query, `true` (every row) or `false` (no row). Rules are plain
 * values: a rule written for `object` fits every entity, and one policy's rules spread or wrap
 * into another's.
 *
 * @module
 */
import type { EntityManager, EntityName, FilterQuery } from "@mikro-orm/core";

/** What a read or field rule answers: a row condition, `true` (every row) or `false` (none). */
export type RowCondition<E> = FilterQuery<E> | boolean;

/** A read rule: the rows of the entity `viewer` may read. */
export type ReadRule<E, V> = (viewer: V | undefined) => RowCondition<E>;

/** What a write rule is given. */
export interface WriteRequest<E, V> {
  /** The request's viewer (`undefined`: anonymous). */
  viewer: V | undefined;
  /** The GraphQL input (`Create<T>Input`/`Update<T>Input` field name -> value); `{}` on delete. */
  input: Record<string, unknown>;
  /** The row before the write: a copy of its properties (`undefined` on create). */
  before?: Partial<E>;
  /**
   * The entity after the input is applied (and, for `allow`, the presets), not yet written
   * (`undefined` on delete).
   */
  after?: E;
  /**
   * The EntityManager to query with: a fork in the write's transaction with the read rules on,
   * an empty identity map and flushing off, so it reads the database as it was before this write
   * (earlier writes of the same operation included). For `check`, the write's own EntityManager,
   * after the write.
   */
  em: EntityManager;
}

/** A write rule: `true` allows the write, `false` refuses it with `FORBIDDEN`. */
export type WriteRule<E, V> = (request: WriteRequest<E, V>) => boolean | Promise<boolean>;

/**
 * A create or update permission with column rules (Hasura's insert and update permissions):
 * whether the write is allowed, which input fields the viewer may set, and the values the server
 * sets from the viewer. Every part is judged before the write, on the rule EntityManager, once
 * the input is applied to the entity: `columns` and `preset` first, then `allow` with the presets
 * applied.
 */
export interface WritePermission<E, V> {
  /** Whether the write is allowed (judged with `after`); left out: allowed. */
  allow?: WriteRule<E, V>;
  /**
   * The input fields the viewer may set, by their name in the generated input (`title`,
   * `projectID`, `clearAssignee`, `addTagIDs`); left out: every field. A field given (neither
   * `null` nor `undefined`, a `clear<Field>` when `true`) and not listed is `FORBIDDEN` naming
   * it. A list, or a function of the request answering one.
   */
  columns?:
    | readonly string[]
    | ((request: WriteRequest<E, V>) => readonly string[] | Promise<readonly string[]>);
  /**
   * Values the server sets, by property name (`author`, `organization`, `createdBy`): an entity
   * or a primary key for a relation, a value for a scalar. Applied after the input; an input
   * field giving the property another value is `FORBIDDEN` naming it, the same value is allowed
   * (even outside `columns`).
   */
  preset?: (
    request: WriteRequest<E, V>,
  ) =>
    | Partial<Record<keyof E & string, unknown>>
    | Promise<Partial<Record<keyof E & string, unknown>>>;
}

/** A `create` or `update` rule: a {@linkcode WriteRule}, or a {@linkcode WritePermission}. */
export type WriteRuleOrPermission<E, V> = WriteRule<E, V> | WritePermission<E, V>;

/** What a `check` rule is given: the request with the written row, and which write it was. */
export interface CheckRequest<E, V> extends WriteRequest<E, V> {
  /** The write that was made. */
  mode: "create" | "update";
  /** The row as written (flushed in the write's transaction, not committed). */
  after: E;
}

/**
 * A rule allowing everything: `read: allowAll` opens a type to every viewer (anonymous
 * included), `create: allowAll` lets anyone create. `createSchema` warns about the types a
 * policy opens this way.
 */
export const allowAll = (): true => true;

/** A rule allowing nothing (what a rule left out means once policies are on). */
export const denyAll = (): false => false;

/**
 * The rules of one entity. Once `createSchema` has policies, every rule left out denies: declare
 * `read` to let rows be read (`allowAll` for every row), and each write rule to allow that write.
 *
 * @typeParam E the entity type
 * @typeParam V the viewer type (what `createSchema({ viewer })` returns)
 */
export interface PolicyRules<E, V> {
  /** The rows the viewer may read (and so write, and name in an input). */
  read?: ReadRule<E, V>;
  /** Whether the viewer may create this row (`after`: the entity to insert), and with what. */
  create?: WriteRuleOrPermission<E, V>;
  /** Whether the viewer may make this change (`before`, `after`), and to which fields. */
  update?: WriteRuleOrPermission<E, V>;
  /** Whether the viewer may delete this row (`before`). */
  delete?: WriteRule<E, V>;
  /**
   * After a create or update: whether the row as written may stay (`false`: `FORBIDDEN`, the
   * operation's transaction rolled back). Left out: no check beyond `read`.
   */
  check?: (request: CheckRequest<E, V>) => boolean | Promise<boolean>;
  /**
   * Per property: the rows on which the viewer may read it (a filter query, `true`, `false`).
   * Naming a property the entity does not have is a type error (and an error of `createSchema`).
   */
  fields?: { [K in keyof E & string]?: ReadRule<E, V> };
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
 * import { allowAll, definePolicy } from "@mikrogql/ext";
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
 * // Every viewer reads users (with policies on, a type without a read rule reads no row); only
 * // the user reads their email. No write rule: users are not written through the API.
 * const users = definePolicy(User, {
 *   read: allowAll,
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
  rules: PolicyRules<NoInfer<E>, V>,
): Policy<E, V> {
  return { entity, rules };
}
