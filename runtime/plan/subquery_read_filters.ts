/**
 * The read filters a connection's arguments need before they are planned: a where input's
 * `has<Edge>`/`has<Edge>With`/`<edge>ID` subqueries and an order's `<EDGE>_COUNT`/`<EDGE>_<FIELD>`
 * terms read other entities' rows, and read only the rows the request may read (its MikroORM
 * filters and policies: `read_filters.ts`). Planning is synchronous, so those entities' read
 * filters are computed first, here, for every read path alike (root connections, edges loaded
 * per parent, field collection's levels).
 *
 * @module
 */
import type { EntityManager } from "@mikro-orm/core";
import type { Graph, NodeType } from "../graph.ts";
import { type OrderInput, orderTargets } from "./order_terms.ts";
import { prepareReadFilters } from "./read_filters.ts";
import { whereTargets } from "./where_filter.ts";

/**
 * Computes, on `em`, the read filters of the entities the subqueries of `args.where` (a
 * `<T>WhereInput` of `type`) and `args.orderBy` read ({@linkcode prepareReadFilters}), so that
 * `whereFilter` and the page's order terms can be planned. Arguments without such subqueries
 * make no call (nor a per-request entry in the filters' cache).
 *
 * @param em the request's EntityManager (its filters and their parameters decide the rows)
 * @param graph the generated graph
 * @param type the node type the arguments filter and order
 * @param args the connection's `where` and `orderBy` arguments, as the client sent them
 */
export async function prepareSubqueryReadFilters(
  em: EntityManager,
  graph: Graph,
  type: NodeType,
  args: { where?: unknown; orderBy?: OrderInput | OrderInput[] | null },
): Promise<void> {
  const targets = [
    ...whereTargets(em, graph, type.name, args.where),
    ...orderTargets(em, type, args.orderBy),
  ];
  if (targets.length > 0) await prepareReadFilters(em, targets);
}
