/**
 * Loads collected edges for many parents at once: one SQL statement per edge per nesting level,
 * never one per parent row, and no DataLoader (spec, "Field collection" rule 1).
 *
 * - unique edges: one `IN (...)` query on the target's primary key (or, for an inverse `1:1`,
 *   on the target's foreign key);
 * - list and connection edges (`1:m`, bidirectional `m:n`): one query for all parents, every row
 *   carrying its parent key (the child's foreign key, or for `m:n` the key joined through the
 *   pivot table); with `first`/`last` each parent gets
 *   its own page through `ROW_NUMBER() OVER (PARTITION BY <parent key> ORDER BY <order>, id)`
 *   filtered to `row_number <= n + 1`; a single parent uses a plain `ORDER BY ... LIMIT n + 1`;
 * - nested `totalCount`: one grouped `COUNT(*) ... GROUP BY <parent key>` when selected, or the
 *   number of loaded rows when no pagination argument is given.
 *
 * Loaded values are stored per parent entity (`loaded_edges.ts`), where the edge resolvers find
 * them.
 *
 * @module
 */
import { type EntityManager, type FilterQuery, type QueryOrderMap, wrap } from "@mikro-orm/core";
import { raw, type SqlEntityManager } from "@mikro-orm/sql";
import type { EdgePlan, NodePlan } from "../plan/field_collection.ts";
import type { NodeType } from "../graph.ts";
import { storeEdge as store } from "./loaded_edges.ts";
import { isRecord, leanable, toRecords } from "./lean_records.ts";
import { allOf, whereFilter } from "../plan/where_filter.ts";
import { whereFiltered } from "./orm_filters.ts";
import {
  type Connection,
  type PaginationArgs,
  type PaginationLimits,
  toConnection,
  valueAt,
} from "../plan/connection.ts";
import {
  orderSql,
  type PagePlan,
  type PageQuery,
  planPage,
  withoutExtraRow,
} from "../plan/page_plan.ts";
import { readConnection } from "./read_from.ts";
import { allSettled } from "./all_settled.ts";
import type { RequestContext } from "../request_context.ts";

/** The `fields` option of a plan: collected properties plus `extra`; `undefined` loads all. */
export function fieldsOf(plan: NodePlan, extra: string[] = []): string[] | undefined {
  return plan.props && [...new Set([...plan.props, ...extra.map((p) => p.split(".")[0])])];
}

/**
 * Loads every edge of `plan` for `parents`, level by level, recursively.
 *
 * @param scope the root field's response key (`rootScope` of `loaded_edges.ts`)
 */
export async function loadPlan(
  ctx: RequestContext,
  parents: object[],
  plan: NodePlan,
  scope: string,
): Promise<void> {
  if (parents.length === 0) return;
  // The edges of one level are independent: their statements run concurrently, and all of them
  // finish before a failure answers the request.
  await allSettled(plan.edges.map(async (edgePlan) => {
    const children = edgePlan.edge.kind === "m:1" || edgePlan.edge.kind === "1:1"
      ? await loadUnique(ctx, parents, edgePlan, scope)
      : edgePlan.edge.inverse
      ? await loadMany(ctx, plan.type, parents, edgePlan, scope)
      : []; // an m:n edge without an inverse property: its resolver loads it per parent
    await loadPlan(ctx, [...new Set(children)], edgePlan.node, scope);
  }));
}

type Row = Record<string, unknown>;

/** The primary key of an entity, a record, a reference, or a record's foreign-key value. */
function pk(value: unknown): string {
  return String(pkValue(value));
}

/** {@linkcode pk}, typed as read (a number for an integer key). */
function pkValue(value: unknown): unknown {
  if (typeof value !== "object" || value === null) return value;
  if (isRecord(value)) {
    const meta = (value as { __meta: { primaryKeys: string[] } }).__meta;
    return (value as Row)[meta.primaryKeys[0]];
  }
  return wrap(value, true).getPrimaryKey();
}

/** What {@linkcode findRows} reads. */
export interface FindRowsOptions {
  orderBy?: QueryOrderMap<object>[];
  limit?: number;
  /** The properties to read; `undefined` reads every column (as entities). */
  fields?: string[];
  /** The relation to parents already read the rows are loaded through (`readFilter`). */
  through?: string;
}

/**
 * Reads the rows of `type` matching `where`: as records of the lean read path when the
 * selected properties allow it (`records.ts`), else as entities with `em.find`.
 */
export async function findRows(
  em: EntityManager,
  type: NodeType,
  where: FilterQuery<object>,
  options: FindRowsOptions,
): Promise<object[]> {
  const meta = em.getMetadata().find(type.entity)!;
  const fields = options.fields && [...new Set([type.id.prop, ...options.fields])];
  if (!leanable(meta, fields)) {
    return await em.find(type.entity, where, {
      orderBy: options.orderBy as never,
      limit: options.limit,
      fields: fields as never,
      connectionType: readConnection(em),
    });
  }
  const qb = (em as SqlEntityManager).createQueryBuilder(type.entity, "e0", readConnection(em))
    .select(fields as never);
  await whereFiltered(em, qb, type.entity, where, options.through);
  if (options.orderBy) qb.orderBy(options.orderBy as never);
  if (options.limit !== undefined) qb.limit(options.limit);
  return toRecords(em, meta, await qb.execute("all", false) as Row[], fields!);
}

/**
 * Counts the rows of `type` matching `where` (a root connection's `totalCount`): one
 * QueryBuilder `count(*)` with the EntityManager's filters (`filters.ts`) for types the lean path
 * reads, `em.count` for types of an inheritance hierarchy (whose discriminators MikroORM adds).
 */
export async function countRows(
  em: EntityManager,
  type: NodeType,
  where: FilterQuery<object>,
): Promise<number> {
  const meta = em.getMetadata().find(type.entity)!;
  if (!leanable(meta, [type.id.prop])) {
    return await em.count(type.entity, where, { connectionType: readConnection(em) });
  }
  const qb = (em as SqlEntityManager).createQueryBuilder(type.entity, "e0", readConnection(em));
  await whereFiltered(em, qb, type.entity, where);
  return await qb.getCount();
}

async function loadUnique(
  { em, graph }: RequestContext,
  parents: object[],
  plan: EdgePlan,
  scope: string,
): Promise<object[]> {
  const { edge } = plan;
  const target = graph.types[edge.target];
  const fields = fieldsOf(plan.node, edge.inverse ? [edge.inverse] : []);
  const byKey = new Map<string, object>();
  if (edge.inverse) {
    const keys = parents.map(pk);
    const rows = await findRows(em, target, { [edge.inverse]: { $in: [...new Set(keys)] } }, {
      fields,
    });
    for (const row of rows) byKey.set(pk((row as Row)[edge.inverse]), row);
    parents.forEach((parent, i) => store(parent, scope, plan.key, byKey.get(keys[i]) ?? null));
  } else {
    const refs = parents.map((p) => (p as Row)[edge.prop]);
    const ids = [...new Set(refs.filter((r) => r != null).map(pk))];
    if (ids.length > 0) {
      const rows = await findRows(em, target, { [target.id.prop]: { $in: ids } }, { fields });
      for (const row of rows) byKey.set(pk(row), row);
    }
    parents.forEach((parent, i) =>
      store(parent, scope, plan.key, refs[i] == null ? null : byKey.get(pk(refs[i])) ?? null)
    );
  }
  return [...byKey.values()];
}

async function loadMany(
  ctx: RequestContext,
  parentType: NodeType,
  parents: object[],
  plan: EdgePlan,
  scope: string,
): Promise<object[]> {
  const { graph, limits } = ctx;
  const em = ctx.em as SqlEntityManager;
  const { edge, args } = plan;
  const target = graph.types[edge.target];
  const inverse = edge.inverse!;
  const page = planPage(target, edge.connection ? args : {}, limits, em);
  if (plan.morePages === false) withoutExtraRow(page);
  const filter = edge.connection ? whereFilter(em, graph, target.name, args.where, "where") : {};
  const where = allOf(filter, page.query.where);
  // Values of SQL order terms (dates at full precision, edge counts/fields) are read by
  // fillOrderValues below, not selected as properties.
  const fields = fieldsOf(plan.node, page.terms.filter((t) => !t.sql).map((t) => t.path));
  // Parent keys: as text to group rows by, typed (numbers stay numbers) in the SQL.
  const keyValues = parents.map(pkValue);
  const keys = keyValues.map(String);
  const typed = new Map(keys.map((key, i) => [key, keyValues[i]]));
  const ids = [...typed.keys()];
  const paginated = args.first != null || args.last != null || args.after != null ||
    args.before != null;
  // A selected totalCount of a paginated connection is counted first (one grouped statement);
  // parents counting 0 rows are left out of the page statement, which is not sent when all do.
  const counts = edge.connection && plan.totalCount && paginated
    ? await countPartitioned(ctx, parentType, target, inverse, [...typed.values()], filter)
    : undefined;
  const wanted = counts ? ids.filter((id) => (counts.get(id) ?? 0) > 0) : ids;
  const rowsByParent = new Map<string, object[]>(ids.map((id) => [id, []]));
  if (wanted.length === 1) {
    const rows = await findRows(
      em,
      target,
      allOf({ [inverse]: typed.get(wanted[0]) }, where),
      { orderBy: page.query.orderBy, limit: page.query.limit, fields, through: inverse },
    );
    rowsByParent.set(wanted[0], rows);
  } else if (wanted.length > 1) {
    const rows = await loadPartitioned(
      ctx,
      parentType,
      target,
      inverse,
      wanted.map((id) => typed.get(id)),
      page,
      where,
      fields,
    );
    for (const [parent, row] of rows) rowsByParent.get(parent)?.push(row);
  }
  const children: object[] = [];
  for (const [i, parent] of parents.entries()) {
    const rows = rowsByParent.get(keys[i]) ?? [];
    if (!edge.connection) {
      store(parent, scope, plan.key, rows);
      children.push(...rows);
      continue;
    }
    const count = counts ? counts.get(keys[i]) ?? 0 : rows.length;
    const connection: Connection<object> = toConnection(page, rows, () => count);
    store(parent, scope, plan.key, connection);
    children.push(...connection.edges.map((e) => e.node));
  }
  // Cursor values of SQL order terms, for the rows on the pages only.
  await fillOrderValues(em, page, children);
  return children;
}

/**
 * Fetches and builds one page: `planPage`, then `fetch`, then {@linkcode fillOrderValues} when
 * the order has SQL terms, then `toConnection`.
 *
 * @param fetch runs the page query (`em.find`, `Collection.matching`, ...)
 * @param count counts all rows of the connection (without the keyset), run only when selected
 * @param em the request's EntityManager (see `planPage`)
 */
export async function paginate<T extends object>(
  type: NodeType,
  args: PaginationArgs,
  fetch: (query: PageQuery) => Promise<T[]>,
  count: () => Promise<number>,
  limits?: PaginationLimits,
  em?: EntityManager,
): Promise<Connection<T>> {
  const plan = planPage(type, args, limits, em);
  const connection = toConnection(plan, await fetch(plan.query), count);
  if (em) await fillOrderValues(em, plan, connection.edges.map((e) => e.node));
  return connection;
}

/**
 * Reads the cursor values of `plan`'s SQL terms for `rows` (rows of `plan.type`, from any
 * number of parents) in one query by primary key, into `plan.values`. Does nothing when the
 * order has no SQL term.
 */
export async function fillOrderValues(
  em: EntityManager,
  plan: PagePlan,
  rows: readonly object[],
): Promise<void> {
  const terms = plan.terms.filter((t) => t.sql);
  if (terms.length === 0 || rows.length === 0) return;
  const key = (row: object) => String(valueAt(row, plan.idProp));
  const meta = em.getMetadata().find(plan.type.entity)!;
  const pkColumn = meta.properties[plan.idProp].fieldNames[0];
  const found: Row[] = await (em as SqlEntityManager)
    .createQueryBuilder(plan.type.entity, "e0", readConnection(em))
    .select([
      plan.idProp,
      ...terms.map((t, i) => t.sql!.value("e0").as(`__order_${i}`)),
    ])
    .where({ [plan.idProp]: { $in: [...new Set(rows.map((r) => valueAt(r, plan.idProp)))] } })
    .execute("all", false);
  const byKey = new Map(found.map((r) => [
    String(r[pkColumn]),
    terms.map((t, i) => t.count ? Number(r[`__order_${i}`]) : r[`__order_${i}`] ?? null),
  ]));
  for (const row of rows) {
    const values = byKey.get(key(row));
    if (values) plan.values.set(row, values);
  }
}

function quote(em: SqlEntityManager, ...parts: string[]): string {
  const platform = em.getPlatform();
  return parts.map((p) => platform.quoteIdentifier(p)).join(".");
}

function column(em: SqlEntityManager, type: NodeType, prop: string): string {
  const meta = em.getMetadata().find(type.entity);
  const fieldName = meta?.properties[prop]?.fieldNames?.[0];
  if (!fieldName) throw new Error(`cannot order ${type.name} by "${prop}" in a nested connection`);
  return fieldName;
}

/**
 * One statement for all parents' pages: the target joined back to the parent through `inverse`,
 * every row tagged with its parent key, numbered per parent, filtered to the page size + 1.
 *
 * @returns `[parent key, hydrated row]` pairs, per parent in page order
 */
async function loadPartitioned(
  ctx: RequestContext,
  parentType: NodeType,
  target: NodeType,
  inverse: string,
  ids: readonly unknown[],
  page: PagePlan,
  where: FilterQuery<object>,
  fields: string[] | undefined,
): Promise<[string, object][]> {
  const em = ctx.em as SqlEntityManager;
  const selected = fields ? selectColumns(em, target, fields, "t") : ["t.*"];
  const { qb, parent } = await parentRows(ctx, parentType, target, inverse, ids, where, selected);
  const parentKey = parent.key;
  let rows: Row[];
  if (page.query.limit === undefined) {
    qb.orderBy([{ [raw(parentKey) as never]: "asc" }, ...page.query.orderBy] as never);
    rows = await qb.execute("all", false);
  } else {
    // Each parent's page: its rows numbered in page order, kept up to the page size (+ 1).
    qb.addSelect(
      raw(
        `row_number() over (partition by ${parentKey} order by ${orderSql(em, page, "t")}) as ${
          quote(em, "__rn")
        }`,
      ),
    );
    // Lean rows read the page's columns and parent key; the row number only filters and orders.
    const columns = leanable(em.getMetadata().find(target.entity)!, fields)
      ? [...outputColumns(em, target, fields!), "__parent"].map((c) => quote(em, c)).join(", ")
      : "*";
    rows = await em.createQueryBuilder(target.entity, "__page", ctx.read.connectionType)
      .from(qb, "__page")
      .select(raw(columns) as never)
      .where({ [raw(quote(em, "__rn")) as never]: { $lte: raw(String(page.query.limit)) } })
      .orderBy([
        { [raw(quote(em, "__parent")) as never]: "asc" },
        { [raw(quote(em, "__rn")) as never]: "asc" },
      ] as never)
      .execute("all", false);
  }
  const meta = em.getMetadata().find(target.entity)!;
  if (leanable(meta, fields)) {
    const records = toRecords(em, meta, rows, fields!);
    return records.map((record, i) => [String(rows[i].__parent), record]);
  }
  // Hydrate as `em.find` does (driver result mapping, then the entity factory merging into the
  // identity map); `em.map` would add a full `merge` per row, the largest cost of a request.
  const factory = em.getEntityFactory();
  const driver = em.getDriver();
  const hydrated = rows.map(({ __parent, __rn: _rn, ...data }): [string, object] => [
    String(__parent),
    factory.create(target.entity, driver.mapResult(data, meta) as never, {
      merge: true,
      convertCustomTypes: true,
    }) as object,
  ]);
  await em.getUnitOfWork().dispatchOnLoadEvent();
  return hydrated;
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
      ? raw(property.fieldNames.map((c) => quote(em, alias, c)).join(", "))
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
  /** SQL of the parent's key of a row. */
  key: string;
  /** Adds the join to the parent, when the key is not on the target's table. */
  join(qb: { join(field: string, alias: string): unknown }): void;
}

/**
 * The QueryBuilder over `target` rows ("t") of the parents `ids` (typed primary-key values),
 * selecting `select` and the parent key as `__parent`: `<key> in (...)` as SQL with one parameter
 * per id, which MikroORM inlines without walking a criteria object per id, then `where` with the
 * EntityManager's filters (`whereFiltered`).
 */
async function parentRows(
  ctx: RequestContext,
  parentType: NodeType,
  target: NodeType,
  inverse: string,
  ids: readonly unknown[],
  where: FilterQuery<object>,
  select: unknown[],
) {
  const em = ctx.em as SqlEntityManager;
  const parent = parentOf(em, parentType, target, inverse);
  const qb = em.createQueryBuilder(target.entity, "t", ctx.read.connectionType)
    .select([...select, raw(`${parent.key} as ${quote(em, "__parent")}`)] as never);
  parent.join(qb);
  qb.where(`${parent.key} in (${ids.map(() => "?").join(", ")})`, [...ids]);
  await whereFiltered(em, qb, target.entity, where, inverse);
  return { qb, parent };
}

/**
 * The parent key of `target` rows reached through `inverse`: the foreign-key column itself when
 * `inverse` is a many-to-one on the target (`where t.<fk> in (...)`, no join, the foreign key's
 * index serves the filter), else the parent's key joined through the pivot table (`m:n`).
 */
function parentOf(
  em: SqlEntityManager,
  parentType: NodeType,
  target: NodeType,
  inverse: string,
): ParentKey {
  const property = em.getMetadata().find(target.entity)!.properties[inverse];
  if (property.kind === "m:1" && property.fieldNames.length === 1) {
    return {
      key: quote(em, "t", property.fieldNames[0]),
      join: () => {},
    };
  }
  return {
    key: quote(em, "p", column(em, parentType, parentType.id.prop)),
    join: (qb) => qb.join(`t.${inverse}`, "p"),
  };
}

/** One grouped `COUNT(*)` for all parents: parent key -> number of related rows. */
async function countPartitioned(
  ctx: RequestContext,
  parentType: NodeType,
  target: NodeType,
  inverse: string,
  ids: readonly unknown[],
  filter: FilterQuery<object>,
): Promise<Map<string, number>> {
  const em = ctx.em as SqlEntityManager;
  const { qb, parent } = await parentRows(ctx, parentType, target, inverse, ids, filter, [
    raw(`count(*) as ${quote(em, "__count")}`),
  ]);
  const rows: Row[] = await qb.groupBy(raw(parent.key) as never).execute("all", false);
  return new Map(rows.map((r) => [String(r.__parent), Number(r.__count)]));
}
