/**
 * Edge resolvers (entgql's `gql_edge` methods): resolve a unique edge to its node, a non-unique
 * edge to a list of nodes, or a `RelayConnection()` edge to a paginated connection.
 *
 * @module
 */
import { type Collection, type EntityManager, wrap } from "@mikro-orm/core";
import type { GraphQLResolveInfo } from "graphql";
import { edgeKey } from "./collect.ts";
import { loadedEdge, rootScope } from "./load.ts";
import type { EdgeDescription, Graph, NodeType } from "./graph.ts";
import { whereFilter } from "./where.ts";
import {
  type Connection,
  paginate,
  type PaginationArgs,
  type PaginationLimits,
} from "./paginate.ts";
import { readConnection } from "./read_from.ts";

/**
 * Resolves the edge field `name` of `parent` (entgql's generated edge resolver, spec rule 3):
 * returns what field collection loaded, and loads the edge itself when nothing was collected
 * (`Unbind()`, unidirectional `m:n`, or a parent that came from outside collection).
 */
export function resolveEdge(
  em: EntityManager,
  graph: Graph,
  name: string,
  edge: EdgeDescription,
  parent: object,
  args: PaginationArgs,
  info: GraphQLResolveInfo,
  limits?: PaginationLimits,
): unknown {
  const loaded = loadedEdge(
    parent,
    rootScope(info.path),
    edgeKey(name, args as Record<string, unknown>),
  );
  return loaded ? loaded.value : loadEdge(em, graph, edge, parent, args, limits);
}

/**
 * Loads the edge `edge` of `parent`, on its own (not batched).
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
    await em.populate(parent, [edge.prop] as never[], { connectionType: readConnection(em) });
    return ((parent as Record<string, unknown>)[edge.prop] as
      | object
      | undefined) ?? null;
  }
  const collection = value as Collection<object>;
  if (!edge.connection) {
    return await collection.matching({
      orderBy: { [target.id.prop]: "asc" } as never,
      store: false,
      connectionType: readConnection(em),
    });
  }
  const filter = whereFilter(em, graph, target.name, (args as { where?: unknown }).where);
  return paginate(
    target,
    args,
    (query) =>
      collection.matching({
        where: { $and: [filter, query.where] } as never,
        orderBy: query.orderBy as never,
        limit: query.limit,
        store: false,
        connectionType: readConnection(em),
      }),
    () =>
      collection.loadCount({
        where: filter as never,
        refresh: true,
        connectionType: readConnection(em),
      }),
    limits,
    em,
  );
}
