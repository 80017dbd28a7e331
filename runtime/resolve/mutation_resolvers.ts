/**
 * The generated `create<T>`, `update<T>` and `delete<T>` resolvers, built on the write helpers of
 * `runtime/write/` (`createNode`, `updateNode`, `deleteNode`).
 *
 * @module
 */
import type { GraphQLFieldResolver } from "graphql";
import type { Graph } from "../graph.ts";
import type { CollectLimits } from "../plan/field_collection.ts";
import { requestState } from "../request/request_state.ts";
import { fromContext, type MikroContext } from "../request/context.ts";
import { nodeBudget } from "../node_budget.ts";
import type { MutationInput } from "../write/input_fields.ts";
import { createNode, updateNode } from "../write/node_mutation.ts";
import { deleteNode } from "../write/delete_node.ts";
import { resolveReturnedNode } from "./root_fields.ts";

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
        const request = requestState(fromContext(ctx), graph, limits, nodeBudget(ctx));
        const entity = await createNode(request.em, graph, type.name)
          .set(args.input as MutationInput).save();
        return resolveReturnedNode(request, type, entity, info);
      };
    }
    if (update) {
      resolvers[update.field] = async (_root, args, ctx, info) => {
        const request = requestState(fromContext(ctx), graph, limits, nodeBudget(ctx));
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
