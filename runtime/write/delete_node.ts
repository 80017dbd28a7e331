/**
 * Deleting a node: the row its global id names, read for the write, asked of the policy's delete
 * rule, removed with MikroORM's cascades.
 *
 * @module
 */
import type { EntityManager } from "@mikro-orm/core";
import type { Graph } from "../graph.ts";
import { lockForWrite } from "./lock_for_write.ts";
import { checkWriteRule, snapshot } from "./write_rule.ts";
import { flushWrite } from "./flush_write.ts";

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
  const row = await lockForWrite(em, graph, nodeType, id);
  await checkWriteRule(em, nodeType, "delete", { input: {}, before: snapshot(row) });
  em.remove(row);
  await flushWrite(em, nodeType, "delete");
  return id;
}
