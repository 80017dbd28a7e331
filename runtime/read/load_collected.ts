/**
 * Loads collected edges for many parents at once: one SQL statement per edge per nesting level,
 * never one per parent row, and no DataLoader (as entgql's field collection).
 *
 * - unique edges: one `IN (...)` query on the target's primary key (or, for an inverse `1:1`,
 *   on the target's foreign key), every column of a composite key matched (`keys.ts`);
 * - list and connection edges (`1:m`, bidirectional `m:n`): one query for all parents, every row
 *   carrying its parent key (`partitioned.ts`); with `first`/`last` each parent gets its own page,
 *   kept to the page size + 1; a single parent uses a plain `ORDER BY ... LIMIT n + 1`;
 * - nested `totalCount`: one grouped `COUNT(*) ... GROUP BY <parent key>` when selected with a
 *   pagination argument or without `edges`/`pageInfo` (then no row is read), else the number of
 *   loaded rows;
 * - every statement reading rows draws from the request's node budget (`row_limit.ts`).
 *
 * Loaded values are stored per parent entity (`loaded_edges.ts`), where the edge resolvers find
 * them.
 *
 * @module
 */
import type { FilterQuery } from "@mikro-orm/core";
import type { SqlEntityManager } from "@mikro-orm/sql";
import { type EdgePlan, fieldsOf, type NodePlan } from "../plan/field_collection.ts";
import type { NodeType } from "../graph.ts";
import { keyParts, keyText, keyValues, referencesFilter, rowsFilter } from "../keys.ts";
import { leanable } from "./lean_records.ts";
import { allOf } from "../jsutils/all_of.ts";
import { whereFilter } from "../plan/where_filter.ts";
import { type Connection, toConnection } from "../plan/relay_connection.ts";
import { type PagePlan, planPage, withoutExtraRow } from "../plan/page_plan.ts";
import { allSettled } from "../jsutils/all_settled.ts";
import type { RequestState } from "../request/request_state.ts";
import { findRows, type FindRowsOptions } from "./find_rows.ts";
import { fillOrderValues } from "./paginate.ts";
import { countPartitioned, loadPartitioned } from "./partitioned.ts";
import { pageBound, pageNodes, readWithinBudget, smallerLimit } from "./row_limit.ts";
import { prepareSubqueryReadFilters } from "../plan/subquery_read_filters.ts";

/**
 * Loads every edge of `plan` for `parents`, level by level, recursively.
 *
 * @param scope the root field's response key (`rootScope` of `loaded_edges.ts`)
 */
export async function loadCollected(
  ctx: RequestState,
  parents: object[],
  plan: NodePlan,
  scope: string,
): Promise<void> {
  if (parents.length === 0) return;
  // The edges of one level are independent: their statements run concurrently, and all of them
  // finish before a failure answers the request.
  await allSettled(plan.edges.map(async (edgePlan) => {
    const children = edgePlan.edge.kind === "m:1" || edgePlan.edge.kind === "1:1"
      ? await loadUnique(ctx, plan.type, parents, edgePlan, scope)
      : edgePlan.edge.inverse
      ? await loadMany(ctx, plan.type, parents, edgePlan, scope)
      : []; // an m:n edge without an inverse property: its resolver loads it per parent
    // An interface's rows (their classes vary) get no collected edges: their resolvers load them.
    if (ctx.graph.types[edgePlan.edge.target].abstract) {
      for (const child of children) ctx.loaded.markUnplanned(child, scope);
    }
    // A managed entity reached from two parents is one parent below (the level's rows are
    // deduplicated only when edges below them are loaded).
    if (edgePlan.node.edges.length > 0) {
      await loadCollected(ctx, [...new Set(children)], edgePlan.node, scope);
    }
  }));
}

type Row = Record<string, unknown>;

async function loadUnique(
  { em, graph, loaded }: RequestState,
  parentType: NodeType,
  parents: object[],
  plan: EdgePlan,
  scope: string,
): Promise<object[]> {
  const { edge } = plan;
  const target = graph.types[edge.target];
  const fields = fieldsOf(plan.node, edge.inverse ? [edge.inverse] : []);
  const byKey = new Map<string, object>();
  if (edge.inverse) {
    // The target's relation `inverse` holds the parent's key: matched on every key column.
    const keys = parents.map((parent) => keyValues(parentType, parent));
    const texts = keys.map((values) => keyText(parentType, values));
    const unique = [...new Map(keys.map((values, i) => [texts[i], values])).values()];
    const rows = await findRows(em, target, referencesFilter(parentType, edge.inverse, unique), {
      fields,
    });
    for (const row of rows) {
      byKey.set(keyText(parentType, keyValues(parentType, (row as Row)[edge.inverse])), row);
    }
    parents.forEach((parent, i) =>
      loaded.store(parent, scope, plan.key, byKey.get(texts[i]) ?? null, plan)
    );
  } else {
    // The parent's foreign key (every column of it) names the target's row.
    const refs = parents.map((p) => (p as Row)[edge.prop]);
    const keys = refs.map((ref) => ref == null ? undefined : keyValues(target, ref));
    const texts = keys.map((values) => values && keyText(target, values));
    const unique = new Map<string, unknown[]>();
    keys.forEach((values, i) => values && unique.set(texts[i]!, values));
    if (unique.size > 0) {
      const rows = await findRows(em, target, rowsFilter(target, [...unique.values()]), {
        fields,
      });
      for (const row of rows) byKey.set(keyText(target, keyValues(target, row)), row);
    }
    parents.forEach((parent, i) =>
      loaded.store(
        parent,
        scope,
        plan.key,
        texts[i] === undefined ? null : byKey.get(texts[i]) ?? null,
        plan,
      )
    );
  }
  return [...byKey.values()];
}

/** What {@linkcode planMany} decides for a list or connection edge before any row is read. */
export interface ManyPlan {
  target: NodeType;
  /** The target's relation to the parent. */
  inverse: string;
  page: PagePlan;
  /**
   * The edge's where input as a filter (connections; `{}` for lists): the client's condition,
   * beside the page's keyset predicate (`page.query.where`).
   */
  filter: FilterQuery<object>;
  /** The target's properties to read (`fieldsOf`); `undefined` for every column. */
  fields: string[] | undefined;
  /** Whether `first`, `last`, `after` or `before` is given. */
  paginated: boolean;
  /** A connection selecting neither edges nor pageInfo: only its totalCount is read. */
  countOnly: boolean;
  /** Whether a selected totalCount is counted first, by one grouped statement. */
  counted: boolean;
  /**
   * Whether a selected totalCount is counted in the page's own statement instead: a page with
   * rows read as records and no cursor (a parent without a row then counts 0), one parent's page
   * with the count as a scalar subquery (`countAll` of `findRows`), many parents' with a window
   * (`loadPartitioned`).
   */
  countedInPage: boolean;
}

/**
 * Plans the list or connection edge `plan` (its arguments, page, filters and columns), before
 * any statement.
 *
 * @throws GraphQLError `INVALID_PAGINATION`, `INVALID_CURSOR`, `BAD_USER_INPUT` (a bad where
 *   input)
 */
export async function planMany(ctx: RequestState, plan: EdgePlan): Promise<ManyPlan> {
  const { graph, limits } = ctx;
  const em = ctx.em as SqlEntityManager;
  const { edge, args } = plan;
  const target = graph.types[edge.target];
  if (edge.connection) {
    await prepareSubqueryReadFilters(em, graph, target, args);
  }
  const page = planPage(target, edge.connection ? args : {}, limits, em, edge.order);
  if (plan.morePages === false) withoutExtraRow(page);
  const filter = edge.connection ? whereFilter(em, graph, target.name, args.where, "where") : {};
  const paginated = args.first != null || args.last != null || args.after != null ||
    args.before != null;
  // A connection selecting neither edges nor pageInfo reads no rows: its totalCount is counted.
  const countOnly = edge.connection && plan.page === false;
  // Values of SQL order terms (dates at full precision, edge counts/fields) are read by
  // fillOrderValues, not selected as properties.
  const fields = fieldsOf(plan.node, page.terms.filter((t) => !t.sql).map((t) => t.path));
  const counted = edge.connection && plan.totalCount && (paginated || countOnly);
  const countedInPage = counted && !countOnly && args.after == null && args.before == null &&
    fields !== undefined &&
    leanable(em.getMetadata().find(target.entity)!, [
      ...keyParts(target).map((part) => part.prop),
      ...fields,
    ]);
  return {
    target,
    inverse: edge.inverse!,
    page,
    filter,
    fields,
    paginated,
    countOnly,
    counted: counted && !countedInPage,
    countedInPage,
  };
}

/**
 * The `findRows` read of the page of `many` of the one parent whose key values are `key`, within
 * the node budget's `limit`.
 */
export function singleParentPage(
  parentType: NodeType,
  many: ManyPlan,
  key: readonly unknown[],
  limit: number | undefined,
  options: Pick<FindRowsOptions, "countAll"> = {},
): [FilterQuery<object>, FindRowsOptions] {
  return [
    allOf(referencesFilter(parentType, many.inverse, [key]), many.page.query.where),
    {
      client: many.filter,
      orderBy: many.page.query.orderBy,
      limit: smallerLimit(many.page.query.limit, limit),
      fields: many.fields,
      through: many.inverse,
      ...options,
    },
  ];
}

/** A page read ahead for a parent (`joined_page.ts`): its rows and the plan they were read by. */
interface PrefetchedPage {
  readonly rows: object[];
  readonly many: ManyPlan;
}

/**
 * Keeps `rows`, the page of `plan` of `parent` read (and charged to the node budget) with the
 * parent's own statement as `many` planned it, for {@linkcode loadCollected} to use instead of
 * planning and reading it again.
 */
export function prefetchPage(
  ctx: RequestState,
  parent: object,
  plan: EdgePlan,
  rows: object[],
  many: ManyPlan,
): void {
  const page: PrefetchedPage = { rows, many };
  ctx.loaded.prefetch(parent, plan, page);
}

async function loadMany(
  ctx: RequestState,
  parentType: NodeType,
  parents: object[],
  plan: EdgePlan,
  scope: string,
): Promise<object[]> {
  const em = ctx.em as SqlEntityManager;
  const { edge } = plan;
  const prefetched = parents.length === 1
    ? ctx.loaded.prefetched(parents[0], plan) as PrefetchedPage | undefined
    : undefined;
  const many = prefetched?.many ?? await planMany(ctx, plan);
  const { target, inverse, page, filter, countOnly } = many;
  // Parent keys: as text to group rows by, typed (numbers stay numbers) in the SQL; a composite
  // key is matched on every column.
  const parentKeys = parents.map((parent) => keyValues(parentType, parent));
  const keys = parentKeys.map((values) => keyText(parentType, values));
  const typed = new Map(keys.map((key, i) => [key, parentKeys[i]]));
  const ids = [...typed.keys()];
  // A selected totalCount of a paginated connection is counted first (one grouped statement);
  // parents counting 0 rows are left out of the page statement, which is not sent when all do.
  const counts = many.counted
    ? await countPartitioned(ctx, parentType, target, inverse, [...typed.values()], {}, filter)
    : many.countedInPage
    ? new Map<string, number>()
    : undefined;
  const wanted = countOnly
    ? []
    : many.counted
    ? ids.filter((id) => (counts!.get(id) ?? 0) > 0)
    : ids;
  // Each parent's rows; a parent without rows has no entry.
  let rowsByParent = new Map<string, object[]>();
  // Each statement draws its nodes from the request's budget (row_limit.ts), which asks for the
  // nodes of a large unbounded read by one grouped count before reading them.
  const count = async () =>
    pageNodes(
      page,
      (await countPartitioned(
        ctx,
        parentType,
        target,
        inverse,
        wanted.map((id) => typed.get(id)!),
        page.query.where,
        filter,
      ))
        .values(),
    );
  if (prefetched) {
    rowsByParent.set(ids[0], prefetched.rows);
  } else if (wanted.length === 1) {
    const rows = await readWithinBudget(
      ctx.budget,
      pageBound(page, 1),
      (limit) =>
        findRows(
          em,
          target,
          ...singleParentPage(parentType, many, typed.get(wanted[0])!, limit, {
            countAll: many.countedInPage
              ? {
                where: referencesFilter(parentType, inverse, [typed.get(wanted[0])!]),
                client: filter,
                found: (count: number) => counts!.set(wanted[0], count),
              }
              : undefined,
          }),
        ),
      (rows) => pageNodes(page, [rows.length]),
      count,
    );
    rowsByParent.set(wanted[0], rows);
  } else if (wanted.length > 1) {
    const rows = await readWithinBudget(
      ctx.budget,
      pageBound(page, wanted.length),
      (limit) =>
        loadPartitioned(
          ctx,
          parentType,
          target,
          inverse,
          wanted.map((id) => typed.get(id)!),
          page,
          page.query.where,
          filter,
          many.fields,
          limit,
          many.countedInPage ? (parent, count) => counts!.set(parent, count) : undefined,
        ),
      (groups) => pageNodes(page, rowCounts(groups)),
      count,
    );
    rowsByParent = rows;
  }
  const children: object[] = [];
  for (let i = 0; i < parents.length; i++) {
    const parent = parents[i];
    const rows = rowsByParent.get(keys[i]) ?? NO_ROWS;
    if (!edge.connection) {
      ctx.loaded.store(parent, scope, plan.key, rows, plan);
      for (const row of rows) children.push(row);
      continue;
    }
    const count = counts ? counts.get(keys[i]) ?? 0 : rows.length;
    const connection: Connection<object> = toConnection(page, rows, () => count);
    ctx.loaded.store(parent, scope, plan.key, connection, plan);
    for (const edge of connection.edges) children.push(edge.node);
  }
  // Cursor values of SQL order terms, for the rows on the pages only (a list has no cursors).
  if (edge.connection) await fillOrderValues(em, page, children);
  return children;
}

/** The rows of a parent without any (shared: never changed). */
const NO_ROWS: object[] = Object.freeze([]) as unknown as object[];

/** The number of rows of each parent of `loadPartitioned`'s groups. */
function rowCounts(groups: Map<string, object[]>): number[] {
  const counts: number[] = [];
  for (const rows of groups.values()) counts.push(rows.length);
  return counts;
}
