/**
 * Creates and updates of nodes: a `Create<T>Input` / `Update<T>Input` value applied to an entity
 * and saved, the helpers user resolvers call too, chaining create, set and save like ent's
 * builders (entgql's `client.Todo.Create().SetText(...).Save(ctx)`):
 *
 * ```ts
 * const em = fromContext(ctx);
 * const todo = await createNode(em, graph, "Todo").set(input).set({ priority: 1 }).save();
 * ```
 *
 * An input is applied in the order clear, set, add/remove (`apply_input_field.ts`); global ids in
 * inputs are checked against the edge's target type and looked up, one query per target type
 * (`input_nodes.ts`). Under the Transactioner every write of the operation is in its one
 * transaction.
 *
 * @module
 */
import type { EntityManager } from "@mikro-orm/core";
import type { Graph, NodeType } from "../graph.ts";
import { checkColumnValue } from "../column_values.ts";
import { givenFields, type MutationInput } from "./input_fields.ts";
import { inputNodes } from "./input_nodes.ts";
import { applyInputField } from "./apply_input_field.ts";
import { inTransaction } from "./in_transaction.ts";
import { lockForWrite } from "./lock_for_write.ts";
import { loadStoredReferences } from "./stored_references.ts";
import { checkWriteRule, checkWrittenRow, snapshot } from "./write_rule.ts";
import { applyPresets, judgeInput } from "./write_permission.ts";
import { flushWrite } from "./flush_write.ts";
import { creationData } from "./creation_data.ts";
import { readBackWritten } from "./read_back.ts";

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
   * (clear, set, add/remove) to an entity created with the input's data (`em.create`, so its
   * hooks see it), flushes, and returns the saved entity as read back from the database
   * (`read_back.ts`: what a later read returns). In a transaction the row
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
   *   not exist or cannot be read; `FORBIDDEN` when the policy has no rule for the write, its
   *   columns leave out a field the input sets, the input sets a preset property to another
   *   value, or its rule refuses (`policy.ts`: asked with the viewer, the input, the row before
   *   and after, on the database as it was before the write: `write_rule.ts`), or the written
   *   row could not be read, fails the policy's `check` or PostgreSQL's row-level security;
   *   `BAD_USER_INPUT` naming the input field for a value its column cannot hold (NUL
   *   character, too long, out of range, bad date or enum value: `column_values.ts`), for a
   *   global id of the wrong type, and for a write the database rejects by a
   *   constraint (unique, foreign key, not null) or as a bad value
   */
  async save(): Promise<T> {
    const fields = givenFields(this.#type.mutations![this.#mode]!.input, this.#input);
    const meta = this.#em.getMetadata().find(this.#type.entity)!;
    for (const { name, field, value } of fields) {
      if (field.kind === "field" && field.op === "set") {
        checkColumnValue(this.#em, meta.properties[field.prop], value, `input.${name}`);
      }
    }
    return await inTransaction(this.#em, async () => {
      const nodes = await inputNodes(this.#em, this.#graph, fields);
      const entity = this.#mode === "create"
        ? this.#em.create(this.#type.entity, creationData(meta, fields, nodes)) as Row
        : await lockForWrite(this.#em, this.#graph, this.#type, this.#id!);
      if (this.#mode === "update") await loadStoredReferences(this.#em, entity, fields);
      const before = this.#mode === "update" ? snapshot(entity) : undefined;
      for (const op of ["clear", "set", "add", "remove"] as const) {
        for (const { name, field, value } of fields) {
          if (field.op === op) {
            await applyInputField(this.#em, entity, field, nodes.get(name) ?? value);
          }
        }
      }
      const judged = { input: this.#input, before, after: entity };
      const presets = await judgeInput(this.#em, this.#type, this.#mode, fields, judged);
      applyPresets(this.#em, this.#type, this.#mode, entity, presets, fields);
      await checkWriteRule(this.#em, this.#type, this.#mode, judged);
      await flushWrite(this.#em, this.#type, this.#mode);
      await readBackWritten(this.#em, this.#type, entity, this.#mode);
      await checkWrittenRow(this.#em, this.#type, this.#mode, judged);
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
