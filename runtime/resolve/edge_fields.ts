/**
 * Edge resolvers (entgql's `gql_edge` methods): resolve a unique edge to its node, a non-unique
 * edge to a list of nodes, or a `RelayConnection()` edge to a paginated connection.
 *
 * @module
 */
import { type Collection, type EntityManager, type QueryOrderMap, wrap } from "@mikro-orm/core";
import { keyFilter, keyValues, primaryKeyOf, referencesFilter, rowsFilter } from "../keys.ts";
import type { GraphQLResolveInfo } from "graphql";
import {
  collectConnection,
  collectNode,
  type EdgePlan,
  type NodePlan,
} from "../plan/field_collection.ts";
import { loadCollected } from "../read/load_collected.ts";
import { paginate } from "../read/paginate.ts";
import { edgeKey, rootScope } from "../plan/loaded_edges.ts";
import { type EdgeDescription, type NodeType, nodeTypeOf } from "../graph.ts";
import { isRecord } from "../read/lean_records.ts";
import type { RequestState } from "../request/request_state.ts";
import { whereFilter } from "../plan/where_filter.ts";
import type { Connection, PaginationArgs } from "../plan/relay_connection.ts";
import type { PageQuery } from "../plan/page_plan.ts";
import { orderByOf, pageOrder } from "../plan/order_terms.ts";
import { pageBound, pageNodes, readWithinBudget, smallerLimit } from "../read/row_limit.ts";
import { prepareSubqueryReadFilters } from "../plan/subquery_read_filters.ts";

/**
 * Resolves the edge field `name` of `parent` (entgql's generated edge resolver):
 * returns what field collection loaded, as the value itself (a promise only for an edge it did
 * not load). An edge that field collection did not load (an
 * `Unbind()` edge, any edge below one, edges of parents a user resolver returned) is batched by
 * its response path: the parents at that path resolved before the next macrotask are loaded
 * together by {@linkcode loadCollected} with the field's collected selection, one statement per edge
 * per level. Unidirectional `m:n` edges are loaded per parent.
 */
export function resolveEdge(
  ctx: RequestState,
  name: string,
  edge: EdgeDescription,
  parent: object,
  edgeArgs: PaginationArgs,
  info: GraphQLResolveInfo,
): unknown {
  const { graph, fallbacks } = ctx;
  const scope = rootScope(info.path);
  const key = loadKey(name, edgeArgs, info);
  // Below a path collection did not load, a value collection stored for the same entity was
  // loaded for another selection: it is not used. (The path's text is made only when such a
  // path exists, or for a batch: not per parent of a collected edge.)
  if (fallbacks.size === 0 || !within(pathKey(info.path), fallbacks)) {
    // Loaded at several levels with several selections (one managed entity reached twice): a
    // load whose selection covers this field's, to every depth below it.
    const loaded = ctx.loaded.find(parent, scope, key, (plans) => {
      const target = graph.types[edge.target];
      const mine: Selection = edge.connection
        ? collectConnection(ctx, target, info)
        : { totalCount: false, node: collectNode(ctx, target, info) };
      return plans.findIndex((plan) => coversEdge(plan as EdgePlan, mine));
    });
    // What collection loaded is the value itself, not a promise: the executor goes on with it
    // at once (no promise and no later turn per parent).
    if (loaded) return loaded.value;
  }
  return loadUnplanned(ctx, edge, parent, edgeArgs, info, scope, key);
}

/**
 * {@linkcode resolveEdge} of an edge field collection did not load: batched by its response path,
 * or loaded for its parent alone.
 */
async function loadUnplanned(
  ctx: RequestState,
  edge: EdgeDescription,
  parent: object,
  edgeArgs: PaginationArgs,
  info: GraphQLResolveInfo,
  scope: string,
  key: string,
): Promise<unknown> {
  const { graph, fallbacks } = ctx;
  const here = pathKey(info.path);
  fallbacks.add(here);
  // Parents at one response path can select differently below it (a `nodes` list or an
  // interface's rows, each class through its own fragments): a batch is per selection too.
  const own = `${scope}@${here}#${selectionKey(info)}`;
  const type = nodeTypeOf(graph, parent);
  if (type && (edge.inverse || edge.kind === "m:1" || edge.kind === "1:1")) {
    await batch(ctx.batches, `${own}|${type.name}|${key}`, parent, (parents) => {
      const target = graph.types[edge.target];
      const args = edgeArgs as EdgePlan["args"];
      const plan: EdgePlan = edge.connection
        ? { key, edge, args, ...collectConnection(ctx, target, info) }
        : { key, edge, args, totalCount: false, node: collectNode(ctx, target, info) };
      // This level only: the edges below resolve (and batch) by their own paths.
      plan.node = { ...plan.node, edges: [] };
      return loadCollected(ctx, parents, { type, props: undefined, edges: [plan] }, own);
    });
    const batched = ctx.loaded.find(parent, own, key, (plans) => plans.length - 1);
    if (batched) return batched.value;
  }
  return await loadEdge(ctx, edge, parent, edgeArgs);
}

/** A number per field node of the document, for {@linkcode selectionKey}. */
const FIELD_NODE_IDS = new WeakMap<object, number>();
let fieldNodeCount = 0;

/**
 * The field nodes `info` resolves, as text: equal for parents whose edge field has the same
 * selection (the same nodes of the document), different for parents of one response path reached
 * through different fragments (`nodes(ids:)` with a fragment per type), so that a batch never
 * loads one parent's edge with another's selection.
 */
function selectionKey(info: GraphQLResolveInfo): string {
  let key = "";
  for (const node of info.fieldNodes) {
    let id = FIELD_NODE_IDS.get(node);
    if (id === undefined) FIELD_NODE_IDS.set(node, id = ++fieldNodeCount);
    key += `${id},`;
  }
  return key;
}

/** The last load key computed per field node, with the variables it was computed under. */
const LOAD_KEYS = new WeakMap<object, { variables: object; key: string }>();

/**
 * The load key (`edgeKey`) of the edge field `info` resolves, computed once per field node and
 * request rather than once per parent: a field's arguments follow from its node and the
 * operation's variables.
 */
function loadKey(name: string, args: PaginationArgs, info: GraphQLResolveInfo): string {
  const node = info.fieldNodes[0];
  const variables = info.variableValues;
  const known = LOAD_KEYS.get(node);
  if (known && known.variables === variables) return known.key;
  const key = edgeKey(name, args as Record<string, unknown>);
  if (typeof variables === "object" && variables !== null) {
    LOAD_KEYS.set(node, { variables, key });
  }
  return key;
}

/** What an edge field selects: its nodes' plan and, for a connection, what else it reads. */
type Selection = Pick<EdgePlan, "node" | "totalCount" | "morePages" | "page">;

/**
 * Whether what the edge plan `plan` loaded answers the selection `mine`: a counted `totalCount`,
 * the extra row of `hasNextPage`/`hasPreviousPage` and the page's rows when `mine` reads them,
 * and nodes covering `mine`'s ({@linkcode covers}).
 */
function coversEdge(plan: Selection, mine: Selection): boolean {
  return (!mine.totalCount || plan.totalCount) &&
    (mine.morePages === false || plan.morePages !== false) &&
    (mine.page === false || plan.page !== false) &&
    covers(plan.node, mine.node);
}

/**
 * Whether the nodes `plan` loaded hold what `mine` selects: its columns, and its edges loaded
 * for selections covering theirs, to every depth (an edge of the same key loaded for fewer
 * columns below it would answer `null` for the others).
 */
function covers(plan: NodePlan, mine: NodePlan): boolean {
  if (plan.type !== mine.type) return false;
  if (plan.props && (!mine.props || [...mine.props].some((p) => !plan.props!.has(p)))) {
    return false;
  }
  return mine.edges.every((e) => plan.edges.some((p) => p.key === e.key && coversEdge(p, e)));
}

function pathKey(path: GraphQLResolveInfo["path"]): string {
  const keys: string[] = [];
  for (let p: GraphQLResolveInfo["path"] | undefined = path; p; p = p.prev) {
    if (typeof p.key === "string") keys.push(p.key);
  }
  return keys.reverse().join(".");
}

/** Whether `path` is one of `paths` or below one. */
function within(path: string, paths: Set<string>): boolean {
  for (const p of paths) if (path === p || path.startsWith(`${p}.`)) return true;
  return false;
}

/** Adds `parent` to the request's batch `key` of `batches`, run by `run` on the next macrotask. */
function batch(
  batches: RequestState["batches"],
  key: string,
  parent: object,
  run: (parents: object[]) => Promise<void>,
): Promise<void> {
  let pending = batches.get(key);
  if (!pending) {
    const parents: object[] = [];
    const open = batches;
    const done = new Promise<void>((resolve, reject) =>
      setTimeout(() => {
        open.delete(key);
        run([...new Set(parents)]).then(resolve, reject);
      }, 0)
    );
    batches.set(key, pending = { parents, done });
  }
  pending.parents.push(parent);
  return pending.done;
}

/**
 * Loads the edge `edge` of `parent`, on its own (not batched).
 *
 * @returns the target node (or `null`) for unique edges, an array ordered by primary key for
 *   list edges, a {@linkcode Connection} for connection edges
 */
async function loadEdge(
  ctx: RequestState,
  edge: EdgeDescription,
  parent: object,
  args: PaginationArgs,
): Promise<object | object[] | Connection<object> | null> {
  const { em, graph, limits, read } = ctx;
  const target: NodeType = graph.types[edge.target];
  if (isRecord(parent)) {
    const owned = await loadRecordEdge(ctx, target, edge, parent, args);
    if (owned !== undefined) return owned;
    // A unidirectional many-to-many edge: read through the owner's collection.
    const parentType = nodeTypeOf(graph, parent)!;
    parent = (await em.findOne(
      parentType.entity,
      keyFilter(parentType, primaryKeyOf(parentType, parent)) as never,
      read,
    ))!;
  }
  const value = (parent as Record<string, unknown>)[edge.prop];
  if (edge.kind === "m:1" || edge.kind === "1:1") {
    if (
      value === null ||
      (value !== undefined && wrap(value as object, true).isInitialized())
    ) {
      return value ?? null;
    }
    await em.populate(parent, [edge.prop] as never[], read);
    return ((parent as Record<string, unknown>)[edge.prop] as
      | object
      | undefined) ?? null;
  }
  const collection = value as Collection<object>;
  if (!edge.connection) {
    return await readList(ctx, (limit) =>
      collection.matching({
        orderBy: listOrder(em, target, edge) as never,
        limit,
        store: false,
        ...read,
      }));
  }
  await prepareSubqueryReadFilters(em, graph, target, args);
  const filter = whereFilter(em, graph, target.name, (args as { where?: unknown }).where);
  return paginate(
    target,
    args,
    (query) =>
      readPage(ctx, args, query, (limit) =>
        collection.matching({
          where: { $and: [filter, query.where] } as never,
          orderBy: query.orderBy as never,
          limit,
          store: false,
          ...read,
        })),
    () =>
      collection.loadCount({
        where: filter as never,
        refresh: true,
        ...read,
      }),
    limits,
    em,
    edge.order,
  );
}

/**
 * Loads an edge of a record (`read/lean_records.ts`), which holds foreign keys instead of references and no
 * collections: by the foreign key, or by the target's inverse property.
 *
 * @returns `undefined` for an edge without an inverse property (a unidirectional `m:n`)
 */
async function loadRecordEdge(
  ctx: RequestState,
  target: NodeType,
  edge: EdgeDescription,
  record: object,
  args: PaginationArgs,
): Promise<object | object[] | Connection<object> | null | undefined> {
  const { em, graph, limits, read } = ctx;
  const row = record as Record<string, unknown>;
  const type = nodeTypeOf(graph, record)!;
  if (edge.kind === "m:1" || edge.kind === "1:1") {
    const fk = row[edge.prop];
    if (fk === null) return null;
    if (fk !== undefined) {
      return await em.findOne(
        target.entity,
        rowsFilter(target, [keyValues(target, fk)]) as never,
        read,
      );
    }
  }
  if (!edge.inverse) return undefined;
  const owner = referencesFilter(type, edge.inverse, [keyValues(type, record)]);
  if (edge.kind === "m:1" || edge.kind === "1:1") {
    return await em.findOne(target.entity, owner, read);
  }
  if (!edge.connection) {
    return await readList(ctx, (limit) =>
      em.find(target.entity, owner, {
        orderBy: listOrder(em, target, edge) as never,
        limit,
        ...read,
      }));
  }
  await prepareSubqueryReadFilters(em, graph, target, args);
  const filter = whereFilter(em, graph, target.name, (args as { where?: unknown }).where);
  return paginate(
    target,
    args,
    (query) =>
      readPage(
        ctx,
        args,
        query,
        (limit) =>
          em.find(target.entity, { $and: [owner, filter, query.where] } as never, {
            orderBy: query.orderBy as never,
            limit,
            ...read,
          }),
      ),
    () => em.count(target.entity, { $and: [owner, filter] } as never, read),
    limits,
    em,
    edge.order,
  );
}

/** One parent's list edge, read within the request's node budget (`row_limit.ts`). */
function readList(
  ctx: RequestState,
  read: (limit: number | undefined) => Promise<object[]>,
): Promise<object[]> {
  return readWithinBudget(ctx.budget, { nodes: undefined, extra: 0 }, read, (rows) => rows.length);
}

/**
 * One parent's page of `query` under `args`, read within the request's node budget: `read`
 * gets the smaller of the page's and the budget's `LIMIT`.
 */
function readPage<T>(
  ctx: RequestState,
  args: PaginationArgs,
  query: PageQuery,
  read: (limit: number | undefined) => Promise<T[]>,
): Promise<T[]> {
  const page = { args, query };
  return readWithinBudget(
    ctx.budget,
    pageBound(page, 1),
    (limit) => read(smallerLimit(query.limit, limit)),
    (rows) => pageNodes(page, [rows.length]),
  );
}

/**
 * The order of a list edge: the collection's declared order (`EdgeDescription.order`), then every
 * part of the target's key, ascending.
 */
function listOrder(
  em: EntityManager,
  target: NodeType,
  edge: EdgeDescription,
): QueryOrderMap<object>[] {
  return orderByOf(pageOrder(target, null, em, edge.order), false);
}
