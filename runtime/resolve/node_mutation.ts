/**
 * Mutations: apply `Create<T>Input` / `Update<T>Input` values to entities, delete nodes, and the
 * generated `create<T>` / `update<T>` / `delete<T>` resolvers built on them.
 *
 * The helpers are the ones user resolvers call too, chaining create, set and save like the
 * spec's rule 7 (entgql's `client.Todo.Create().SetText(...).Save(ctx)`):
 *
 * ```ts
 * const em = fromContext(ctx);
 * const todo = await createNode(em, graph, "Todo").set(input).set({ priority: 1 }).save();
 * ```
 *
 * An input is applied in the order clear, set, add/remove; global ids in inputs are checked
 * against the edge's target type and looked up, one query per target type. Under the
 * Transactioner every write of the operation is in its one transaction.
 *
 * @module
 */
import {
  Collection,
  ConstraintViolationException,
  DriverException,
  type EntityManager,
  ForeignKeyConstraintViolationException,
  LockMode,
  ScalarReference,
  UniqueConstraintViolationException,
  wrap,
} from "@mikro-orm/core";
import type { GraphQLFieldResolver } from "graphql";
import { ErrorCode, gqlError, quoteInput } from "../error_codes.ts";
import type { Graph, MutationInputFieldDescription, NodeType } from "../graph.ts";
import { decodeGlobalId, isOfType } from "../plan/global_id.ts";
import { keyFilter, keysFilter, primaryKeyOf } from "../keys.ts";
import { notFound } from "./noder.ts";
import { findRows } from "../sql/find_rows.ts";
import { readFiltered } from "../sql/orm_filters.ts";
import type { CollectLimits } from "../plan/field_collection.ts";
import { checkColumnValue } from "../column_values.ts";
import { dialectOf } from "../dialect.ts";
import { requestContext } from "../request_context.ts";
import { resolveReturnedNode } from "./root_fields.ts";
import { fromContext, type MikroContext } from "../context.ts";
import { nodeBudget } from "../node_budget.ts";
import { rulesOf } from "../policy_binding.ts";

/** A `Create<T>Input` / `Update<T>Input` value as graphql-js passes it: field name -> value. */
export type MutationInput = Record<string, unknown>;

type Row = Record<string, unknown>;

/**
 * A pending create or update of one node. `set` adds input fields (later calls win per field);
 * `save` applies them and flushes. Fields the generated input does not hold (a user's
 * `extend input` field) are left to the caller.
 */
export class NodeMutation<T extends object = object> {
  readonly #em: EntityManager;
  readonly #graph: Graph;
  readonly #type: NodeType;
  readonly #mode: "create" | "update";
  readonly #id?: string;
  #input: MutationInput = {};

  /** Use {@linkcode createNode} or {@linkcode updateNode}. */
  constructor(
    em: EntityManager,
    graph: Graph,
    type: string,
    mode: "create" | "update",
    id?: string,
  ) {
    const nodeType = graph.types[type];
    if (!nodeType?.mutations?.[mode]) {
      throw new Error(
        `node type "${type}" has no generated ${mode} input (annotate it Mutations())`,
      );
    }
    this.#em = em;
    this.#graph = graph;
    this.#type = nodeType;
    this.#mode = mode;
    this.#id = id;
  }

  /**
   * Adds input fields, named as in the generated input (`title`, `authorID`, `clearTags`).
   * `undefined` and `null` values leave a property unchanged (use `clear<Field>` to unset it);
   * a `clear<Field>` clears only when `true`.
   */
  set(input: MutationInput): this {
    this.#input = { ...this.#input, ...input };
    return this;
  }

  /**
   * Checks the input's values against their columns (before any SQL), applies the input
   * (clear, set, add/remove), flushes, and returns the saved entity. In a transaction the row
   * to update is read `FOR UPDATE`, so a concurrent delete either waits for this update or
   * makes it `NOT_FOUND`.
   *
   * Every read goes through the EntityManager's MikroORM filters (the request's read rules): the
   * row to update and the nodes the input's ids name are read as a query would read them, so a
   * row the viewer cannot read is `NOT_FOUND` exactly as a missing one. The written row must be
   * readable by the same rules afterwards (PostgreSQL row-level security's `WITH CHECK`): the
   * write and the check run in one transaction (the Transactioner's, else one of its own), so a
   * refused write leaves nothing behind.
   *
   * @throws GraphQLError `NOT_FOUND` when the node to update, or a node an input id names, does
   *   not exist or cannot be read; `FORBIDDEN` when the policy's write rule refuses (`policy.ts`:
   *   asked with the viewer, the input, the row before and after, before anything is written) or
   *   the written row could not be read or PostgreSQL's row-level security refuses it;
   *   `BAD_USER_INPUT` naming the input field for a value its column cannot hold (NUL
   *   character, too long, out of range, bad date or enum value: `column_values.ts`), for a
   *   global id of the wrong type, and for a write the database rejects by a
   *   constraint (unique, foreign key, not null) or as a bad value
   */
  async save(): Promise<T> {
    const table = this.#type.mutations![this.#mode]!.input;
    const fields = Object.entries(this.#input).flatMap(([name, value]) => {
      const field = table[name];
      const given = field?.op === "clear" ? value === true : value != null;
      return given ? [{ name, field, value }] : [];
    });
    const meta = this.#em.getMetadata().find(this.#type.entity)!;
    for (const { name, field, value } of fields) {
      if (field.kind === "field" && field.op === "set") {
        checkColumnValue(this.#em, meta.properties[field.prop], value, `input.${name}`);
      }
    }
    return await inTransaction(this.#em, async () => {
      const nodes = await resolveIds(this.#em, this.#graph, fields);
      const entity = this.#mode === "create"
        ? this.#em.create(this.#type.entity, {}) as Row
        : await lockNodeForWrite(this.#em, this.#graph, this.#type, this.#id!);
      const before = this.#mode === "update" ? snapshot(entity) : undefined;
      for (const op of ["clear", "set", "add", "remove"] as const) {
        for (const { name, field, value } of fields) {
          if (field.op === op) await apply(this.#em, entity, field, nodes.get(name) ?? value);
        }
      }
      await checkWriteRule(this.#em, this.#type, this.#mode, {
        input: this.#input,
        before,
        after: entity,
      });
      await flush(this.#em, this.#type, this.#mode);
      await checkReadable(this.#em, this.#type, entity, this.#mode);
      return entity as T;
    });
  }
}

/**
 * Starts a create of a node of `type` (entgql `client.T.Create()`): chain
 * {@linkcode NodeMutation.set} with `Create<T>Input` fields, then {@linkcode NodeMutation.save}.
 *
 * @example A mutation of your own creating a post (in the operation's transaction)
 * ```ts
 * import { createNode, type FieldResolver, fromContext } from "@mikrogql/ext";
 * import { createSchema, graph, type Post } from "./generated/mod.ts";
 *
 * // The field the SDL adds, declared so its resolver type-checks.
 * type DraftPost = FieldResolver<Post, unknown, { title: string; authorID: string }>;
 *
 * const schema = createSchema<{ Mutation: { draftPost: DraftPost } }>({
 *   typeDefs: "extend type Mutation { draftPost(title: String!, authorID: ID!): Post! }",
 *   resolvers: {
 *     Mutation: {
 *       draftPost: (_root, args, ctx) =>
 *         createNode<Post>(fromContext(ctx), graph, "Post")
 *           .set({ title: args.title, body: "", authorID: args.authorID }) // CreatePostInput fields
 *           .set({ status: "draft" }) // later calls win per field
 *           .save(), // NOT_FOUND for an authorID that names no User
 *     },
 *   },
 * });
 * ```
 *
 * @param em the EntityManager to write with: `fromContext(ctx)` in a resolver, so the write is in
 *   the Transactioner's transaction
 * @param type the GraphQL type name, e.g. `"Post"`
 * @throws Error when `type` has no generated create input
 */
export function createNode<T extends object = object>(
  em: EntityManager,
  graph: Graph,
  type: string,
): NodeMutation<T> {
  return new NodeMutation<T>(em, graph, type, "create");
}

/**
 * Starts an update of the node with global id `id` (entgql `client.T.UpdateOneID(id)`): chain
 * {@linkcode NodeMutation.set} with `Update<T>Input` fields, then {@linkcode NodeMutation.save}
 * (`NOT_FOUND` when `id` names no node of `type`).
 *
 * @example A mutation of your own publishing a post
 * ```ts
 * import { type FieldResolver, fromContext, updateNode } from "@mikrogql/ext";
 * import { createSchema, graph, type Post } from "./generated/mod.ts";
 *
 * // The field the SDL adds, declared so its resolver type-checks.
 * type PublishPost = FieldResolver<Post, unknown, { id: string }>;
 *
 * const schema = createSchema<{ Mutation: { publishPost: PublishPost } }>({
 *   typeDefs: "extend type Mutation { publishPost(id: ID!): Post! }",
 *   resolvers: {
 *     Mutation: {
 *       publishPost: (_root, { id }, ctx) =>
 *         updateNode<Post>(fromContext(ctx), graph, "Post", id)
 *           .set({ status: "published", publishedAt: new Date() }) // UpdatePostInput fields
 *           .save(), // NOT_FOUND when no post has this id
 *     },
 *   },
 * });
 * ```
 *
 * @param em the EntityManager to write with (`fromContext(ctx)` in a resolver)
 * @param type the GraphQL type name, e.g. `"Post"`
 * @param id the node's global id
 * @throws Error when `type` has no generated update input
 */
export function updateNode<T extends object = object>(
  em: EntityManager,
  graph: Graph,
  type: string,
  id: string,
): NodeMutation<T> {
  return new NodeMutation<T>(em, graph, type, "update", id);
}

/**
 * Deletes the node of `type` with global id `id`, cascading as the MikroORM model says
 * (`cascade`, `orphanRemoval`, the foreign keys' delete rules). In a transaction the row is read
 * `FOR UPDATE`: of two concurrent deletes of one node, one succeeds and the other is
 * `NOT_FOUND`.
 *
 * @example A mutation of your own deleting several posts, all or none
 * ```ts
 * import { deleteNode, type FieldResolver, fromContext } from "@mikrogql/ext";
 * import { createSchema, graph } from "./generated/mod.ts";
 *
 * // The field the SDL adds, declared so its resolver type-checks.
 * type DeletePosts = FieldResolver<string[], unknown, { ids: string[] }>;
 *
 * const schema = createSchema<{ Mutation: { deletePosts: DeletePosts } }>({
 *   typeDefs: "extend type Mutation { deletePosts(ids: [ID!]!): [ID!]! }",
 *   resolvers: {
 *     Mutation: {
 *       deletePosts: async (_root, { ids }, ctx) => {
 *         const em = fromContext(ctx); // the operation's transaction: a NOT_FOUND rolls back all
 *         const deleted: string[] = [];
 *         for (const id of ids) deleted.push(await deleteNode(em, graph, "Post", id));
 *         return deleted;
 *       },
 *     },
 *   },
 * });
 * ```
 *
 * @param em the EntityManager to delete with (`fromContext(ctx)` in a resolver)
 * @param type the GraphQL type name, e.g. `"Post"`
 * @param id the node's global id
 * @returns `id`
 * @throws GraphQLError `NOT_FOUND` when the id is malformed, of another type or names no row
 *   the request may read; `FORBIDDEN` when the policy's delete rule refuses;
 *   `BAD_USER_INPUT` when rows that may not lose it still reference the node;
 *   Error when `type` is not a node type of `graph`
 */
export async function deleteNode(
  em: EntityManager,
  graph: Graph,
  type: string,
  id: string,
): Promise<string> {
  const nodeType = graph.types[type];
  if (!nodeType) throw new Error(`"${type}" is not a node type of the graph`);
  const row = await lockNodeForWrite(em, graph, nodeType, id);
  await checkWriteRule(em, nodeType, "delete", { input: {}, before: snapshot(row) });
  em.remove(row);
  await flush(em, nodeType, "delete");
  return id;
}

type Resolver = GraphQLFieldResolver<unknown, MikroContext, Record<string, unknown>>;

/**
 * The generated `Mutation` resolvers of `graph`: `create<T>`, `update<T>` and `delete<T>` for
 * every type annotated `Mutations()`. The returned node goes through field collection like a
 * query's ({@linkcode resolveReturnedNode}).
 *
 * @param limits the page-size and depth limits of field collection
 */
export function mutationResolvers(
  graph: Graph,
  limits: CollectLimits = {},
): Record<string, Resolver> {
  const resolvers: Record<string, Resolver> = {};
  for (const type of Object.values(graph.types)) {
    const { create, update, delete: remove } = type.mutations ?? {};
    if (create) {
      resolvers[create.field] = async (_root, args, ctx, info) => {
        const request = requestContext(fromContext(ctx), graph, limits, nodeBudget(ctx));
        const entity = await createNode(request.em, graph, type.name)
          .set(args.input as MutationInput).save();
        return resolveReturnedNode(request, type, entity, info);
      };
    }
    if (update) {
      resolvers[update.field] = async (_root, args, ctx, info) => {
        const request = requestContext(fromContext(ctx), graph, limits, nodeBudget(ctx));
        const entity = await updateNode(request.em, graph, type.name, args.id as string)
          .set(args.input as MutationInput).save();
        return resolveReturnedNode(request, type, entity, info);
      };
    }
    if (remove) {
      resolvers[remove.field] = (_root, args, ctx) =>
        deleteNode(fromContext(ctx), graph, type.name, args.id as string);
    }
  }
  return resolvers;
}

interface InputField {
  name: string;
  field: MutationInputFieldDescription;
  value: unknown;
}

/**
 * Decodes and loads the global ids of the edge fields, one query per target type, through the
 * EntityManager's filters (what the request may read).
 *
 * @returns input field name -> the node, or the nodes in input order
 * @throws GraphQLError `BAD_USER_INPUT` naming the field (and index) of a malformed id or an id
 *   of another type than the edge's target; `NOT_FOUND` naming it for an id of no row the
 *   request may read
 */
async function resolveIds(
  em: EntityManager,
  graph: Graph,
  fields: InputField[],
): Promise<Map<string, object | object[]>> {
  const wanted = new Map<NodeType, Map<string, string | number>>();
  const edges = fields.filter((f) => f.field.kind !== "field" && f.field.op !== "clear");
  const refs = edges.map(({ name, field, value }) => {
    const target = graph.types[field.target!];
    const ids = Array.isArray(value) ? value as string[] : [value as string];
    const pks = ids.map((id, i) => {
      const where = Array.isArray(value) ? `input.${name}[${i}]` : `input.${name}`;
      const decoded = decodeGlobalId(graph, id);
      if (!decoded || !isOfType(decoded.type, target.name)) {
        throw gqlError(
          ErrorCode.BAD_USER_INPUT,
          `${where}: ${quoteInput(id)} is not the global id of a ${target.name}`,
        );
      }
      const byPk = wanted.get(target) ?? new Map();
      wanted.set(target, byPk.set(String(decoded.pk), decoded.pk));
      return { where, id, key: String(decoded.pk) };
    });
    return { name, target, many: Array.isArray(value), pks };
  });
  const found = new Map<NodeType, Map<string, object>>();
  for (const [target, pks] of wanted) {
    const rows = await em.find(target.entity, keysFilter(target, [...pks.values()]));
    found.set(target, new Map(rows.map((r) => [String(primaryKeyOf(target, r)), r])));
  }
  const nodes = new Map<string, object | object[]>();
  for (const { name, target, many, pks } of refs) {
    const rows = pks.map(({ where, id, key }) => {
      const row = found.get(target)!.get(key);
      // A row the request may not read is not found, as a missing one (same code and text).
      if (!row) {
        throw gqlError(
          ErrorCode.NOT_FOUND,
          `${where}: no ${target.name} has the global id ${quoteInput(id)}`,
        );
      }
      return row;
    });
    nodes.set(name, many ? rows : rows[0]);
  }
  return nodes;
}

/**
 * Applies one input field to `entity`.
 *
 * @param value the scalar value, or the node(s) an edge field's global id(s) name
 */
async function apply(
  em: EntityManager,
  entity: Row,
  field: MutationInputFieldDescription,
  value: unknown,
): Promise<void> {
  const current = entity[field.prop];
  if (!(current instanceof Collection)) {
    const prop = wrap(entity, true).__meta.properties[field.prop];
    if (prop?.mapToPk && field.op === "set") {
      // A `mapToPk` relation holds the key of the row it points to, not the entity.
      entity[field.prop] = wrap(value as object, true).getPrimaryKey();
      return;
    }
    const embedded = prop?.kind === "embedded";
    if (prop?.kind === "scalar" && prop.ref) {
      // A scalar reference (`ref: true`) holds its value in a `Ref`: set it, or bind a new one.
      const set = field.op === "clear" ? null : value;
      if (ScalarReference.isScalarReference(current)) current.set(set);
      else {
        const ref = new ScalarReference(set, true);
        ref.bind(entity, field.prop);
        entity[field.prop] = ref;
      }
    } else if (embedded && field.op === "set") {
      // An embeddable input replaces the whole value, as instances of the embeddable classes.
      wrap(entity).assign({ [field.prop]: value }, { em, mergeEmbeddedProperties: false });
    } else {
      entity[field.prop] = field.op === "clear" ? null : value;
    }
    return;
  }
  if (!current.isInitialized()) await current.init();
  const items = value as object[];
  if (field.op === "clear") current.removeAll();
  else if (field.op === "set") current.set(items);
  else if (field.op === "add") current.add(items);
  else current.remove(items);
}

/**
 * Runs `write` in `em`'s transaction, or in one of its own when `em` is in none (committed when
 * `write` returns, rolled back when it throws), so a write and the checks after it are one unit.
 */
async function inTransaction<T>(em: EntityManager, write: () => Promise<T>): Promise<T> {
  if (em.isInTransaction()) return await write();
  await em.begin();
  try {
    const result = await write();
    await em.commit();
    return result;
  } catch (error) {
    await em.rollback();
    throw error;
  }
}

/**
 * Reads the row just written back through `em`'s filters (the request's read rules), unless the
 * entity has none: a write whose row the request could not read is refused, as PostgreSQL's
 * row-level security refuses a row its `WITH CHECK` policy does not pass.
 *
 * @throws GraphQLError `FORBIDDEN` when the row cannot be read
 */
async function checkReadable(
  em: EntityManager,
  type: NodeType,
  entity: Row,
  mode: "create" | "update",
): Promise<void> {
  if (!await readFiltered(em, type.entity)) return;
  const pk = primaryKeyOf(type, entity) as string | number;
  const [row] = await findRows(em, type, keyFilter(type, pk), { fields: [type.id.prop] });
  if (!row) {
    throw gqlError(
      ErrorCode.FORBIDDEN,
      `cannot ${mode} ${type.name}: the ${type.name} written would not be readable by this request`,
    );
  }
}

/** A copy of `entity`'s properties (references and collections as they are): a rule's `before`. */
function snapshot(entity: Row): Row {
  const meta = wrap(entity, true).__meta;
  return Object.fromEntries(meta.props.map((prop) => [prop.name, entity[prop.name]]));
}

/**
 * Asks the write rule of `type`'s policy (`policy.ts`) under `em`'s binding whether the request's
 * viewer may make this write; nothing to ask without a policy or a rule for `mode`.
 *
 * @throws GraphQLError `FORBIDDEN` when the rule refuses
 */
async function checkWriteRule(
  em: EntityManager,
  type: NodeType,
  mode: "create" | "update" | "delete",
  request: { input: MutationInput; before?: Row; after?: Row },
): Promise<void> {
  const found = rulesOf(em, type.entity);
  const rule = found?.rules[mode];
  if (!rule) return;
  if (await rule({ ...request, viewer: found.viewer, em }) !== true) {
    throw gqlError(
      ErrorCode.FORBIDDEN,
      `cannot ${mode} ${type.name}: the policy does not allow this request to`,
    );
  }
}

/**
 * Loads the node of `type` with global id `id` for a write, locked `FOR UPDATE` when `em` is in a
 * transaction (SQLite serializes writers by itself).
 *
 * @throws GraphQLError `NOT_FOUND` when the id is malformed, of another type or names no row
 */
async function lockNodeForWrite(
  em: EntityManager,
  graph: Graph,
  type: NodeType,
  id: string,
): Promise<Row> {
  const decoded = decodeGlobalId(graph, id);
  if (decoded?.type !== type) throw notFound(id);
  const lock = em.isInTransaction() && dialectOf(em) !== "sqlite";
  // Always from the database (`refresh`), through the read rules: an entity the identity map
  // already holds would be returned as it is, without the filters.
  const row = await em.findOne(
    type.entity,
    keyFilter(type, decoded.pk),
    lock ? { lockMode: LockMode.PESSIMISTIC_WRITE } : { refresh: true },
  );
  if (!row) throw notFound(id);
  return row as Row;
}

/**
 * Flushes, turning constraint violations into `BAD_USER_INPUT` errors.
 *
 * @throws GraphQLError `BAD_USER_INPUT` for a unique, foreign-key or other constraint violation,
 *   or a value the database refuses (SQLSTATE class 22, MariaDB's incorrect-value errors)
 */
async function flush(
  em: EntityManager,
  type: NodeType,
  mode: "create" | "update" | "delete",
): Promise<void> {
  try {
    await em.flush();
  } catch (error) {
    if (isValueError(error)) {
      throw gqlError(
        ErrorCode.BAD_USER_INPUT,
        `cannot ${mode} ${type.name}: a value does not fit its column`,
      );
    }
    if (isPolicyViolation(error)) {
      throw gqlError(
        ErrorCode.FORBIDDEN,
        `cannot ${mode} ${type.name}: the database's row-level security refuses this request's row`,
      );
    }
    if (!(error instanceof ConstraintViolationException)) throw error;
    const why = error instanceof UniqueConstraintViolationException
      ? `another ${type.name} already has the same value of a unique field`
      : error instanceof ForeignKeyConstraintViolationException
      ? mode === "delete"
        ? `other rows still reference this ${type.name}`
        : `a referenced row does not exist`
      : `a value violates a constraint of ${type.name}`;
    throw gqlError(ErrorCode.BAD_USER_INPUT, `cannot ${mode} ${type.name}: ${why}`);
  }
}

/**
 * PostgreSQL's refusal of a row by a row-level security policy (`new row violates row-level
 * security policy`, SQLSTATE 42501).
 */
function isPolicyViolation(error: unknown): boolean {
  if (!(error instanceof DriverException)) return false;
  return (error.sqlState ?? error.code) === "42501" && /row-level security/.test(error.message);
}

/** MariaDB errors for a value a column cannot hold that do not carry SQLSTATE class 22. */
const MYSQL_VALUE_ERRNOS = new Set([1265, 1292, 1366, 1367, 1406, 1264]);

/** A driver error for a value that does not fit its column (a data exception). */
function isValueError(error: unknown): boolean {
  if (!(error instanceof DriverException)) return false;
  const state = error.sqlState ?? (/^[0-9A-Z]{5}$/.test(error.code ?? "") ? error.code : "");
  return state?.startsWith("22") === true || MYSQL_VALUE_ERRNOS.has(error.errno ?? -1);
}
