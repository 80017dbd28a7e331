/**
 * Root resolution with field collection (entgql's `CollectFields` at the root): root connection
 * fields, `node`, `nodes` and nodes returned by mutations collect the operation's selection,
 * run one query for the root rows with the collected columns, then load each collected edge
 * level in one query ({@linkcode loadCollected}).
 *
 * @module
 */
import type { GraphQLResolveInfo } from "graphql";
import {
  collectConnection,
  collectNode,
  collectNodes,
  fieldsOf,
  type NodePlan,
} from "../plan/field_collection.ts";
import { type NodeType, nodeTypeOf } from "../graph.ts";
import { countRows, findRows } from "../read/find_rows.ts";
import { loadCollected } from "../read/load_collected.ts";
import { pageBound, pageNodes, readWithinBudget, smallerLimit } from "../read/row_limit.ts";
import { fillOrderValues } from "../read/paginate.ts";
import { rootScope } from "../plan/loaded_edges.ts";
import { decodeGlobalId } from "../plan/global_id.ts";
import { findNodes } from "./noder.ts";
import { readNodeWithPage } from "../read/joined_page.ts";
import { keyFits } from "../column_values.ts";
import { notFound } from "../error_codes.ts";
import { type ErrorBudget, spendError } from "../error_budget.ts";
import { type Connection, type PaginationArgs, toConnection } from "../plan/relay_connection.ts";
import { planPage, withoutExtraRow } from "../plan/page_plan.ts";
import type { RequestState } from "../request/request_state.ts";
import { whereFilter } from "../plan/where_filter.ts";
import { prepareSubqueryReadFilters } from "../plan/subquery_read_filters.ts";

/**
 * Resolves a root connection field (`users(after, first, before, last, orderBy, where)`) of
 * `type`; the where input filters the page and the count alike.
 *
 * @throws GraphQLError `INVALID_PAGINATION`, `INVALID_CURSOR`, or
 *   `BAD_USER_INPUT` for a bad where input, before any SQL; `QUERY_TOO_COMPLEX` when the
 *   request's nodes go over its budget
 */
export async function resolveConnection(
  ctx: RequestState,
  type: NodeType,
  args: PaginationArgs & { where?: unknown },
  info: GraphQLResolveInfo,
): Promise<Connection<object>> {
  const { em, graph, limits } = ctx;
  const plan = collectConnection(ctx, type, info);
  await prepareSubqueryReadFilters(em, graph, type, args);
  const filter = whereFilter(em, graph, type.name, args.where);
  const page = planPage(type, args, limits, em);
  if (!plan.morePages) withoutExtraRow(page);
  const paginated = args.first != null || args.last != null || args.after != null ||
    args.before != null;
  // A selected totalCount of a page with `first`/`last` and no cursor is counted in the page's
  // statement (`countAll`) when its read is lean; else (entgql) a selected totalCount is counted
  // first when paginating or when neither edges nor pageInfo are selected (then no row is read),
  // and a count of 0 sends no page statement; without pagination arguments every row is loaded
  // and counted as loaded.
  const inPage = plan.totalCount && plan.page && paginated && args.after == null &&
    args.before == null;
  let counted: number | undefined;
  const total = plan.totalCount && (paginated || !plan.page) && !inPage
    ? await countRows(em, type, {}, filter)
    : undefined;
  // Order values of SQL terms (dates, edge terms) are read by fillOrderValues.
  const properties = em.getMetadata().find(type.entity)!.properties;
  const ordered = Object.keys(Object.assign({}, ...page.query.orderBy)).filter((k) =>
    k in properties
  );
  // The page's nodes are drawn from the request's budget (row_limit.ts).
  const rows = total === 0 || !plan.page ? [] : await readWithinBudget(
    ctx.budget,
    pageBound(page, 1),
    (limit) =>
      findRows(em, type, page.query.where, {
        client: filter,
        orderBy: page.query.orderBy,
        limit: smallerLimit(page.query.limit, limit),
        fields: fieldsOf(plan.node, ordered),
        countAll: inPage ? { client: filter, found: (count) => counted = count } : undefined,
      }),
    (rows) => pageNodes(page, [rows.length]),
    async () => pageNodes(page, [await countRows(em, type, page.query.where, filter)]),
  );
  const connection = toConnection(
    page,
    rows as object[],
    () => total ?? counted ?? (paginated ? countRows(em, type, {}, filter) : rows.length),
  );
  await fillOrderValues(em, page, connection.edges.map((e) => e.node));
  await loadCollected(ctx, connection.edges.map((e) => e.node), plan.node, rootScope(info.path));
  return connection;
}

/** Resolves `node(id)` and loads the collected edges of the node. */
export async function resolveNode(
  ctx: RequestState,
  id: string,
  info: GraphQLResolveInfo,
): Promise<object> {
  const [node] = await resolveNodes(ctx, [id], info);
  // Without an error budget every missing id is its error.
  if (!node || node instanceof Error) throw node ?? notFound(id);
  return node;
}

/**
 * Resolves `nodes(ids)` (one query per type) and loads the collected edges, one query per type per
 * edge. A missing id's slot is its `NOT_FOUND` error while `errors` allows one more, else `null`
 * (the error counted as dropped, `error_budget.ts`).
 */
export async function resolveNodes(
  ctx: RequestState,
  ids: readonly string[],
  info: GraphQLResolveInfo,
  errors?: ErrorBudget,
): Promise<(object | Error | null)[]> {
  const { em, graph } = ctx;
  const decoded = ids.map((id) => decodeGlobalId(graph, id));
  const types = new Set(decoded.map((d) => d?.type).filter((t) => t !== undefined));
  let plans = collectNodes(ctx, info, [...types]);
  const missing = (id: string) => spendError(errors) ? notFound(id) : null;
  // `node(id)`: the node and the page of one of its edges in one statement, when one joins.
  const single = decoded.length === 1 && decoded[0] && keyFits(em, decoded[0].type, decoded[0].pk)
    ? await readNodeWithPage(ctx, decoded[0].type, decoded[0].pk, plans.get(decoded[0].type.name)!)
    : undefined;
  const nodes = single !== undefined
    ? [single ?? missing(ids[0])]
    : await findNodes(em, ids, decoded, (t) => fieldsOf(plans.get(t.name)!), missing);
  // An id typed by an ancestor of the row's class (the root `Staff` id of an `Owner` row, or a
  // `Manager` id of it) read the row with the ancestor's selection: read it again as its own
  // class, whose selection (`... on Owner`) the ancestor's plan does not hold.
  const again: number[] = [];
  const own = nodes.map((node, i) => {
    const type = !node || node instanceof Error ? undefined : nodeTypeOf(graph, node);
    if (type && type !== decoded[i]?.type) again.push(i);
    return type;
  });
  if (again.length > 0) {
    plans = collectNodes(ctx, info, [...new Set([...types, ...own.filter((t) => !!t)])]);
    const reread = await findNodes(
      em,
      again.map((i) => ids[i]),
      again.map((i) => ({ type: own[i]!, pk: decoded[i]!.pk })),
      (t) => fieldsOf(plans.get(t.name)!),
      missing,
    );
    again.forEach((i, j) => nodes[i] = reread[j]);
  }
  const byType = new Map<string, object[]>();
  for (const node of nodes) {
    if (!node || node instanceof Error) continue;
    const name = nodeTypeOf(graph, node)?.name;
    if (!name) continue;
    const list = byType.get(name);
    if (list) list.push(node);
    else byType.set(name, [node]);
  }
  for (const [name, list] of byType) {
    await loadLazy(ctx, graph.types[name], list, plans.get(name)!);
    await loadCollected(ctx, [...new Set(list)], plans.get(name)!, rootScope(info.path));
  }
  return nodes;
}

/**
 * Loads the collected edges of a node returned by a mutation (or any field returning one node
 * of `type`), so the payload costs the same statements as a query.
 */
export async function resolveReturnedNode<T extends object>(
  ctx: RequestState,
  type: NodeType,
  node: T,
  info: GraphQLResolveInfo,
): Promise<T> {
  const plan = collectNode(ctx, type, info);
  // A formula is computed by the database when the row is read: a node just written holds no
  // value for it, so it is read again when one is selected.
  const formula = Object.values(type.fields).some((f) =>
    f.computed === "formula" && (!plan.props || plan.props.has(f.prop))
  );
  if (formula) await ctx.em.refresh(node);
  await loadLazy(ctx, type, [node], plan);
  await loadCollected(ctx, [node], plan, rootScope(info.path));
  return node;
}

/**
 * Loads the selected `lazy` properties of nodes read whole (`node`, `nodes`, mutation payloads),
 * which MikroORM leaves out unless asked: one query for the nodes that miss one.
 */
async function loadLazy(
  { em, read }: RequestState,
  type: NodeType,
  nodes: object[],
  plan: NodePlan,
): Promise<void> {
  const properties = em.getMetadata().find(type.entity)?.properties ?? {};
  const lazy = [...plan.props ?? []].filter((p) => properties[p]?.lazy);
  if (lazy.length === 0) return;
  const missing = nodes.filter((n) =>
    lazy.some((p) => (n as Record<string, unknown>)[p] === undefined)
  );
  if (missing.length > 0) {
    await em.populate(missing, lazy as never[], read);
  }
}
