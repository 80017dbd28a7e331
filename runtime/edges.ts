/**
 * Edge resolvers (entgql's `gql_edge` methods): resolve a unique edge to its node, a non-unique
 * edge to a list of nodes, or a `RelayConnection()` edge to a paginated connection.
 *
 * @module
 */
import { type Collection, type EntityManager, wrap } from "@mikro-orm/core";
import type { EdgeDescription, Graph, NodeType } from "./graph.ts";
import {
  type Connection,
  paginate,
  type PaginationArgs,
  type PaginationLimits,
} from "./paginate.ts";

/**
 * Loads the edge `edge` of `parent`.
 *
 * @returns the target node (or `null`) for unique edges, an array ordered by primary key for
 *   list edges, a {@linkcode Connection} for connection edges
 */
export async function loadEdge(
  em: EntityManager,
  graph: Graph,
  edge: EdgeDescription,
  parent: object,
  args: PaginationArgs,
  limits?: PaginationLimits,
): Promise<object | object[] | Connection<object> | null> {
  const target: NodeType = graph.types[edge.target];
  const value = (parent as Record<string, unknown>)[edge.prop];
  if (edge.kind === "m:1" || edge.kind === "1:1") {
    if (
      value === null ||
      (value !== undefined && wrap(value as object, true).isInitialized())
    ) {
      return value ?? null;
    }
    await em.populate(parent, [edge.prop] as never[]);
    return ((parent as Record<string, unknown>)[edge.prop] as
      | object
      | undefined) ?? null;
  }
  const collection = value as Collection<object>;
  if (!edge.connection) {
    return await collection.matching({
      orderBy: { [target.id.prop]: "asc" } as never,
      store: false,
    });
  }
  return paginate(
    target,
    args,
    (query) =>
      collection.matching({
        where: query.where,
        orderBy: query.orderBy as never,
        limit: query.limit,
        store: false,
      }),
    () => collection.loadCount(true),
    limits,
  );
}
