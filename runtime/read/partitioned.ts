/**
 * Statements over the rows of many parents at once, every row tagged with its parent key
 * (`__parent0`, `__parent1`, ... one column per column of the key): a partitioned page
 * (`ROW_NUMBER() OVER (PARTITION BY <parent key> ORDER BY <order>, id)` kept to the page size + 1)
 * and a grouped count (`COUNT(*) ... GROUP BY <parent key>`). The parent key is the child's
 * foreign-key columns, or for `m:n` the parent's key columns reached through the pivot table; a
 * composite key is matched on every column (`(a, b) IN ((?, ?), ...)`).
 *
 * @module
 */
import { type FilterQuery, QueryFlag } from "@mikro-orm/core";
import { raw, type SqlEntityManager } from "@mikro-orm/sql";
import { quoteIdentifiers } from "../dialect.ts";
import type { NodeType } from "../graph.ts";
import { keyParts, keyText } from "../keys.ts";
import { orderSql, type PagePlan } from "../plan/page_plan.ts";
import type { RequestState } from "../request/request_state.ts";
import { cachedRows, textKey } from "./statement_cache.ts";
import { leanable, toRecords } from "./lean_records.ts";
import { whereVisible } from "../plan/visible_rows.ts";

type Row = Record<string, unknown>;

/** The result column of `countAll`'s window. */
const TOTAL = "__total";

/**
 * One statement for all parents' pages: the target's rows of the parents `ids` (their key values,
 * `keys.ts`; `parentRows`: the foreign key, or the pivot table for `m:n`), every row tagged with
 * its parent key, numbered per parent in page order and kept to the page size + 1 (all rows when
 * the page has no limit), at most `limit` rows in all (the node budget's `LIMIT`, `row_limit.ts`).
 *
 * @param where the server's conditions beside the parents' keys: the page's keyset predicate
 * @param client the client's where input (`whereVisible` of `plan/visible_rows.ts`)
 * @param countAll called once per parent with rows, with its key text and the number of its rows
 *   matching `where` and `client` whatever the page (`count(*) over (partition by <parent key>)`
 *   in the statement): a connection's `totalCount` when `where` holds no keyset predicate
 *
 * @returns parent key text (`keyText`) -> its rows (records or hydrated entities) in page order;
 *   a parent without rows has no entry
 */
export async function loadPartitioned(
  ctx: RequestState,
  parentType: NodeType,
  target: NodeType,
  inverse: string,
  ids: readonly (readonly unknown[])[],
  page: PagePlan,
  where: FilterQuery<object>,
  client: FilterQuery<object>,
  fields: string[] | undefined,
  limit: number | undefined,
  countAll?: (parent: string, count: number) => void,
): Promise<Map<string, object[]>> {
  const em = ctx.em as SqlEntityManager;
  const selected = fields ? selectColumns(em, target, fields, "t") : ["t.*"];
  const parent = parentOf(em, parentType, target, inverse);
  const parentKey = parent.columns.join(", ");
  const paged = page.query.limit !== undefined;
  // The statement's text is the same for the same parents' count, where shape and page: planned
  // once (statement_cache.ts), the ids, where values and limits bound.
  const site = textKey([
    "partitioned",
    parentType.name,
    target.name,
    inverse,
    fields ?? null,
    page.query.orderBy,
    paged ? orderSql(em, page, "t") : "all",
    limit === undefined ? "no limit" : "limit",
    countAll ? "count all" : "",
  ]);
  const inputs = { ids, where, client, size: page.query.limit ?? null, limit: limit ?? null };
  const rows = await cachedRows(em, ctx.read.connectionType, site, inputs, async (inputs) => {
    const qb = await parentRows(ctx, parent, target, inverse, inputs, selected);
    // Each parent's rows matching `where`, counted before its page is cut (a window).
    if (countAll) {
      qb.addSelect(
        raw(`count(*) over (partition by ${parentKey}) as ${quoteIdentifiers(em, TOTAL)}`),
      );
    }
    if (!paged) {
      qb.orderBy([
        ...parent.columns.map((c) => ({ [raw(c) as never]: "asc" })),
        ...page.query.orderBy,
      ] as never);
      // The pivot join of an m:n edge must not make MikroORM wrap the limit in a subquery.
      if (inputs.limit !== null) qb.limit(inputs.limit).setFlag(QueryFlag.DISABLE_PAGINATE);
      return qb;
    }
    // Each parent's page: its rows numbered in page order, kept up to the page size (+ 1).
    qb.addSelect(
      raw(
        `row_number() over (partition by ${parentKey} order by ${orderSql(em, page, "t")}) as ${
          quoteIdentifiers(em, "__rn")
        }`,
      ),
    );
    // Lean rows read the page's columns and parent key; the row number only filters and orders.
    const columns = leanable(em.getMetadata().find(target.entity)!, fields)
      ? [
        ...outputColumns(em, target, fields!),
        ...parentAliases(parent),
        ...countAll ? [TOTAL] : [],
      ]
        .map((c) => quoteIdentifiers(em, c)).join(", ")
      : "*";
    const pages = em.createQueryBuilder(target.entity, "__page", ctx.read.connectionType)
      .from(qb, "__page")
      .select(raw(columns) as never)
      .where({
        [raw(quoteIdentifiers(em, "__rn")) as never]: { $lte: inputs.size },
      })
      .orderBy([
        ...parentAliases(parent).map((c) => ({ [raw(quoteIdentifiers(em, c)) as never]: "asc" })),
        { [raw(quoteIdentifiers(em, "__rn")) as never]: "asc" },
      ] as never);
    if (inputs.limit !== null) pages.limit(inputs.limit);
    return pages;
  });
  const meta = em.getMetadata().find(target.entity)!;
  const aliases = parentAliases(parent);
  let nodes: object[];
  if (leanable(meta, fields)) nodes = toRecords(em, meta, rows, fields!);
  else {
    // Hydrate as `em.find` does (driver result mapping, then the entity factory merging into the
    // identity map); `em.map` would add a full `merge` per row, the largest cost of a request.
    const factory = em.getEntityFactory();
    const driver = em.getDriver();
    nodes = rows.map((row) => {
      const data: Row = {};
      for (const [column, value] of Object.entries(row)) {
        if (column !== "__rn" && column !== TOTAL && !aliases.includes(column)) {
          data[column] = value;
        }
      }
      return factory.create(target.entity, driver.mapResult(data, meta) as never, {
        merge: true,
        convertCustomTypes: true,
      }) as object;
    });
    await em.getUnitOfWork().dispatchOnLoadEvent();
  }
  return byParent(parentType, aliases, rows, nodes, countAll);
}

/**
 * `nodes` (one per row of `rows`) grouped by their row's parent key text, in row order. The rows
 * come ordered by their parent key, so one map entry (and one key text) is made per parent, not
 * per row; `countAll` is called once per parent with its row count column.
 */
function byParent(
  parentType: NodeType,
  aliases: readonly string[],
  rows: readonly Row[],
  nodes: readonly object[],
  countAll: ((parent: string, count: number) => void) | undefined,
): Map<string, object[]> {
  const groups = new Map<string, object[]>();
  const single = aliases.length === 1 ? aliases[0] : undefined;
  let last: unknown = undefined;
  let list: object[] | undefined;
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i];
    // A single-column key is compared by value (its text is made once per parent); a composite
    // key by its text.
    const raw = single !== undefined
      ? row[single]
      : keyText(parentType, aliases.map((alias) => row[alias]));
    if (list === undefined || raw !== last) {
      last = raw;
      const key = single !== undefined ? keyText(parentType, [raw]) : raw as string;
      list = groups.get(key);
      if (!list) {
        groups.set(key, list = []);
        if (countAll) countAll(key, Number(row[TOTAL]));
      }
    }
    list.push(nodes[i]);
  }
  return groups;
}

/**
 * The select list of `props` on the row alias `alias`. Reference properties (the foreign keys of
 * unique edges) are selected as their raw columns: the query joins the parent through one of
 * them, and the QueryBuilder would turn `t.<edge>` into the joined entity's key instead.
 */
function selectColumns(
  em: SqlEntityManager,
  type: NodeType,
  props: string[],
  alias: string,
): unknown[] {
  const meta = em.getMetadata().find(type.entity)!;
  return props.map((prop) => {
    const property = meta.properties[prop];
    const reference = property?.kind === "m:1" || (property?.kind === "1:1" && property.owner);
    return reference
      ? raw(property.fieldNames.map((c) => quoteIdentifiers(em, alias, c)).join(", "))
      : `${alias}.${prop}`;
  });
}

/** The result column names of {@linkcode selectColumns} for `props`. */
function outputColumns(em: SqlEntityManager, type: NodeType, props: string[]): Set<string> {
  const meta = em.getMetadata().find(type.entity)!;
  return new Set(props.flatMap((prop) => meta.properties[prop].fieldNames));
}

/** How a batched statement over `target` rows tells each row's parent. */
interface ParentKey {
  /** SQL of the parent's key columns of a row, in key order. */
  columns: string[];
  /** Adds the join to the parent, when the key is not on the target's table. */
  join(qb: { join(field: string, alias: string): unknown }): void;
  /** Whether the key is the joined parent's (`m:n`), not columns of the target's table. */
  joined: boolean;
}

/** The result column names of the parent key's columns: `__parent0`, `__parent1`, ... */
function parentAliases(parent: ParentKey): string[] {
  return parent.columns.map((_, i) => `__parent${i}`);
}

/**
 * The QueryBuilder over `target` rows ("t") of the parents `ids` (their typed key values),
 * selecting `select` and the parent key as `__parent0`, ...: `<key> in (...)` (`(<a>, <b>) in
 * ((?, ?), ...)` for a composite key) as SQL with one parameter per value, which MikroORM takes
 * without walking a criteria object per id, then `where` (the server's) and `client` (the
 * client's where input) with the EntityManager's filters (`whereVisible`: `client` outside the
 * fenced visible rows when there are both).
 */
async function parentRows(
  ctx: RequestState,
  parent: ParentKey,
  target: NodeType,
  inverse: string,
  { ids, where, client }: {
    ids: readonly (readonly unknown[])[];
    where: FilterQuery<object>;
    client: FilterQuery<object>;
  },
  select: unknown[],
) {
  const em = ctx.em as SqlEntityManager;
  const aliases = parentAliases(parent);
  const columns = [
    ...select,
    ...parent.columns.map((c, i) => raw(`${c} as ${quoteIdentifiers(em, aliases[i])}`)),
  ];
  const qb = em.createQueryBuilder(target.entity, "t", ctx.read.connectionType)
    .select(columns as never);
  const single = parent.columns.length === 1;
  const tuple = single ? "?" : `(${parent.columns.map(() => "?").join(", ")})`;
  const parents = (q: { where(sql: string, params: unknown[]): unknown }) =>
    q.where(
      `${single ? parent.columns[0] : `(${parent.columns.join(", ")})`} in (${
        ids.map(() => tuple).join(", ")
      })`,
      ids.flat(),
    );
  // The parents' keys are the server's condition: beside the read filter, inside the fence of
  // visible rows when the client's `where` needs one (`whereVisible`). An `m:n` parent key is
  // the joined parent's, outside: the fenced rows are then all of the target's visible rows.
  const joined = parent.joined;
  if (joined) {
    parent.join(qb);
    parents(qb);
  }
  await whereVisible(em, qb as never, target.entity, "t", {
    where,
    client,
    through: inverse,
    inside: joined ? undefined : (q) => parents(q as never),
  });
  // A condition on an inverse one-to-one of the row (`{ shipment: null }`, `has<Edge>: false`,
  // or a filter's) makes MikroORM join its owner and add the owner's key to the select list
  // (`"s1"."order_id" as "s1__order_id"`): a column a grouped count's `GROUP BY` does not name,
  // which PostgreSQL refuses. The list is set again once the condition is in: exactly `select`
  // and the parent key.
  qb.select(columns as never);
  return qb;
}

/**
 * The parent key of `target` rows reached through `inverse`: the foreign-key columns themselves
 * when `inverse` is a many-to-one on the target (`where t.<fk> in (...)`, no join, the foreign
 * key's index serves the filter), else the parent's key columns joined through the pivot table
 * (`m:n`).
 */
function parentOf(
  em: SqlEntityManager,
  parentType: NodeType,
  target: NodeType,
  inverse: string,
): ParentKey {
  const property = em.getMetadata().find(target.entity)!.properties[inverse];
  if (property.kind === "m:1") {
    return {
      columns: property.fieldNames.map((c) => quoteIdentifiers(em, "t", c)),
      join: () => {},
      joined: false,
    };
  }
  const parentMeta = em.getMetadata().find(parentType.entity)!;
  return {
    columns: keyParts(parentType).flatMap((part) =>
      parentMeta.properties[part.prop].fieldNames.map((c) => quoteIdentifiers(em, "p", c))
    ),
    join: (qb) => qb.join(`t.${inverse}`, "p"),
    joined: true,
  };
}

/**
 * One grouped `COUNT(*)` for all parents of the rows matching `where` (the server's conditions)
 * and `client` (the client's where input, as {@linkcode loadPartitioned}'s): parent key text
 * (`keyText`) -> number of related rows.
 */
export async function countPartitioned(
  ctx: RequestState,
  parentType: NodeType,
  target: NodeType,
  inverse: string,
  ids: readonly (readonly unknown[])[],
  where: FilterQuery<object>,
  client: FilterQuery<object>,
): Promise<Map<string, number>> {
  const em = ctx.em as SqlEntityManager;
  const parent = parentOf(em, parentType, target, inverse);
  const site = textKey(["grouped count", parentType.name, target.name, inverse]);
  const rows = await cachedRows(
    em,
    ctx.read.connectionType,
    site,
    { ids, where, client },
    async (inputs) =>
      (await parentRows(ctx, parent, target, inverse, inputs, [
        raw(`count(*) as ${quoteIdentifiers(em, "__count")}`),
      ])).groupBy(parent.columns.map((c) => raw(c)) as never),
  );
  const aliases = parentAliases(parent);
  return new Map(
    rows.map((r) => [keyText(parentType, aliases.map((a) => r[a])), Number(r.__count)]),
  );
}
