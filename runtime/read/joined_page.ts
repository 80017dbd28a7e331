/**
 * A node read by its key together with the page of one of its list or connection edges, in one
 * statement: `node(id) { ... comments(first: 10) { ... } }` costs one round trip, as PostGraphile
 * and a hand-written query answer it, instead of the node's statement and then its page's.
 *
 * The node's key is known before its row is read (a decoded global id), so its page does not
 * depend on the row: both statements are the ones `findRows` sends (`leanRead`, their texts from
 * the statement cache, the EntityManager's filters in both), each a derived table of one
 * statement:
 *
 * ```sql
 * select n.id as n0, n.title as n1, c.id as c0, c.text as c1
 * from (<the node's statement>) as n left join (<the page's statement>) as c on 1 = 1
 * order by <the page's order on c>
 * ```
 *
 * No row: no node (and no page). A row whose page columns are null: the node, with an empty page.
 * The page is charged to the node budget as its own statement would be (`row_limit.ts`), and kept
 * for `loadCollected` (`prefetchPage`), which answers the edge from it.
 *
 * Joined only where the two reads are each one lean statement and the page one statement of
 * bounded size: a node type and target read as records (`lean_records.ts`), the edge a `1:m`
 * edge (the target's many-to-one to the node), a page with `first`/`last` of at most
 * `PROBE_NODES` rows, no SQL order term (an edge count or a date's full precision, read by
 * `fillOrderValues` after the page) and no `totalCount` counted before it. Any other read goes
 * as before: the node's statement, then the edge's.
 *
 * @module
 */
import type { EntityMetadata } from "@mikro-orm/core";
import type { SqlEntityManager } from "@mikro-orm/sql";
import { quoteIdentifiers } from "../dialect.ts";
import type { NodeType } from "../graph.ts";
import { keyParts, keysFilter, keyValues, keyValuesOf, type PrimaryKey } from "../keys.ts";
import type { EdgePlan, NodePlan } from "../plan/field_collection.ts";
import { fieldsOf } from "../plan/field_collection.ts";
import { orderSql } from "../plan/page_plan.ts";
import type { RequestState } from "../request/request_state.ts";
import { runStatement, type Statement } from "../database/bound_statement.ts";
import { readConnectionType } from "../database/read_from.ts";
import { leanRead } from "./find_rows.ts";
import { leanable, toRecords } from "./lean_records.ts";
import { type ManyPlan, planMany, prefetchPage, singleParentPage } from "./load_collected.ts";
import { pageBound, pageNodes, PROBE_NODES, readWithinBudget, type RowBound } from "./row_limit.ts";
import { noFilters } from "./unfiltered_forks.ts";

type Row = Record<string, unknown>;

/**
 * Reads the node of `type` with the key `pk` and the page of the first edge of `plan` that can
 * join it (see the module documentation) in one statement, the page kept for `loadCollected`.
 *
 * @param plan the node's collected plan (`collectNodes`)
 * @returns the node's record, `null` when no row has the key, `undefined` when no edge joins
 *   (nothing was read: read the node as usual)
 * @throws GraphQLError `QUERY_TOO_COMPLEX` when the page is over the request's node budget
 */
export async function readNodeWithPage(
  ctx: RequestState,
  type: NodeType,
  pk: PrimaryKey,
  plan: NodePlan,
): Promise<object | null | undefined> {
  const read = await readJoinedPage(ctx, type, pk, plan);
  if (read?.node) prefetchPage(ctx, read.node, read.edge, read.rows, read.many);
  return read && read.node;
}

/** What {@linkcode readJoinedPage} read: the node and the page of one of its edges. */
export interface JoinedPage {
  /** The node's record, `null` when no row has the key. */
  readonly node: object | null;
  /** The edge whose page was read with the node. */
  readonly edge: EdgePlan;
  /** The page's records as read (one beyond the page when it answers `hasNextPage`). */
  readonly rows: object[];
  /** The plan the page was read by (`planMany`). */
  readonly many: ManyPlan;
}

/**
 * {@linkcode readNodeWithPage} without keeping the page for `loadCollected`: the node and the
 * page read in one statement, for a caller that answers the edge itself
 * (`resolve/planned_operations.ts`).
 *
 * @returns `undefined` when no edge joins (nothing was read)
 * @throws GraphQLError `QUERY_TOO_COMPLEX` when the page is over the request's node budget
 */
export async function readJoinedPage(
  ctx: RequestState,
  type: NodeType,
  pk: PrimaryKey,
  plan: NodePlan,
): Promise<JoinedPage | undefined> {
  const em = ctx.em as SqlEntityManager;
  const known = TEMPLATES.get(plan);
  const template = known && known.platform === em.getPlatform() && known.schema === em.schema &&
      typeof pk === typeof known.key && await noFilters(em)
    ? known
    : undefined;
  const joined = template ?? await planJoinedPage(ctx, type, plan);
  if (!joined) return undefined;
  const { edge, many, bound } = joined;
  const read: { node: object | null } = { node: null };
  const rows = await readWithinBudget(
    ctx.budget,
    bound,
    async (limit) => {
      // The template's statement reads the page's own limit: a tighter budget builds its own.
      const built = template && limit === undefined
        ? {
          statement: {
            sql: template.sql,
            params: template.params.map((param) => param === KEY ? pk : param),
          },
          columns: template.columns,
        }
        : await joinedRead(em, type, pk, joined, limit);
      if (!built) return [];
      const rows = await runStatement(em, readConnectionType(em), built.statement);
      if (rows.length === 0) return [];
      const { columns } = built;
      read.node =
        toRecords(em, joined.nodeMeta, [columnsAt(rows[0], columns.node)], joined.nodeFields)[0];
      // The page's key column is null only in the row of a node without a page.
      const pageRows = rows[0][columns.pageKeyAlias] == null
        ? []
        : rows.map((row) => columnsAt(row, columns.page));
      return toRecords(em, joined.targetMeta, pageRows, joined.pageFields);
    },
    (rows) => pageNodes(many.page, [rows.length]),
  );
  if (!template && known === undefined) await keepTemplate(ctx, type, pk, plan, joined);
  return { node: read.node, edge, rows, many };
}

/** A node plan's joined read, decided before its key is known (`planJoinedPage`). */
interface JoinedPlan {
  readonly edge: EdgePlan;
  readonly many: ManyPlan;
  readonly bound: RowBound;
  readonly nodeMeta: EntityMetadata;
  /** The node's properties read (the key's first). */
  readonly nodeFields: string[];
  readonly targetMeta: EntityMetadata;
  /** The page's properties read (the key's first). */
  readonly pageFields: string[];
}

/**
 * A node plan's joined read planned once, for a key of one type: the joined statement's text and
 * its parameters, the key's value in the key's places ({@linkcode KEY}).
 */
interface JoinedTemplate extends JoinedPlan {
  readonly platform: object;
  readonly schema: string | undefined;
  /** A key of the template's type (a number or a string). */
  readonly key: PrimaryKey;
  readonly sql: string;
  readonly params: readonly unknown[];
  /** The joined statement's columns and their result aliases. */
  readonly columns: JoinedStatement;
}

/** The place of the key's value among a template's parameters. */
const KEY = Symbol("mikrogql.joinedKey");

/**
 * Templates per node plan (plans are made once per document and kept: `field_collection.ts`,
 * `resolve/planned_operations.ts`); `null` for a plan whose statement is not templated.
 */
const TEMPLATES = new WeakMap<NodePlan, JoinedTemplate | null>();

/**
 * The joined read of `plan` (see the module documentation), or `undefined` when no edge joins.
 */
async function planJoinedPage(
  ctx: RequestState,
  type: NodeType,
  plan: NodePlan,
): Promise<JoinedPlan | undefined> {
  const em = ctx.em as SqlEntityManager;
  const edge = plan.edges.find((edge) => joinable(ctx, edge));
  if (!edge) return undefined;
  let many: ManyPlan;
  try {
    many = await planMany(ctx, edge);
  } catch {
    // A bad argument answers as it does when the edge is read on its own, after the node.
    return undefined;
  }
  const { page, target } = many;
  const bound = pageBound(page, 1);
  const targetMeta = em.getMetadata().find(target.entity)!;
  const pageFields = many.fields &&
    [...new Set([...keyParts(target).map((part) => part.prop), ...many.fields])];
  if (
    many.countOnly || many.counted || many.countedInPage || bound.nodes === undefined ||
    bound.nodes > PROBE_NODES || page.terms.some((term) => term.sql) || !pageFields ||
    !leanable(targetMeta, pageFields)
  ) {
    return undefined;
  }
  const nodeMeta = em.getMetadata().find(type.entity)!;
  const nodeFields = fieldsOf(plan);
  const selected = nodeFields &&
    [...new Set([...keyParts(type).map((part) => part.prop), ...nodeFields])];
  if (!selected || !leanable(nodeMeta, selected)) return undefined;
  return {
    edge,
    many,
    bound,
    nodeMeta,
    nodeFields: selected,
    targetMeta,
    pageFields,
  };
}

/**
 * The joined statement of `joined` for the node with the key `pk` and a page of at most `limit`
 * rows (the node budget's; `undefined`: the page's own), from the statement cache's texts, with
 * the columns its rows hold.
 */
async function joinedRead(
  em: SqlEntityManager,
  type: NodeType,
  pk: PrimaryKey,
  joined: JoinedPlan,
  limit: number | undefined,
): Promise<{ statement: Statement; columns: JoinedStatement } | undefined> {
  const { many, targetMeta } = joined;
  const node = await leanRead(em, type, keysFilter(type, [pk]), { fields: joined.nodeFields });
  const key = keyValues(type, keyValuesOf(type, pk));
  const pageRead = await leanRead(em, many.target, ...singleParentPage(type, many, key, limit));
  if (!node || !pageRead) return undefined;
  const columns = joinedStatement(
    em,
    node.statement.sql,
    pageRead.statement.sql,
    many.page,
    () => ({
      node: columnsOf(node.meta.properties, node.fields),
      page: columnsOf(targetMeta.properties, pageRead.fields),
      pageKey: firstColumn(targetMeta, many.target),
    }),
  );
  return {
    statement: {
      sql: columns.sql,
      params: [...node.statement.params, ...pageRead.statement.params],
    },
    columns,
  };
}

/**
 * Keeps the template of `plan`'s joined read after its first read with the key `pk`, when one
 * holds (else remembers that none does): without MikroORM filters, a key of one property, and the
 * statement built for a stand-in key of the same type equal to the one built for `pk` but for the
 * key's places, each holding the key as given (no conversion by a custom type).
 */
async function keepTemplate(
  ctx: RequestState,
  type: NodeType,
  pk: PrimaryKey,
  plan: NodePlan,
  joined: JoinedPlan,
): Promise<void> {
  const em = ctx.em as SqlEntityManager;
  const standIn = typeof pk === "number" ? -7_654_321_098.5 : "\u0000mikrogql.joinedKey";
  const template = async (): Promise<JoinedTemplate | null> => {
    if (type.id.parts || joined.edge.args.where != null || !(await noFilters(em))) return null;
    const built = await joinedRead(em, type, pk, joined, undefined);
    const other = (await joinedRead(em, type, standIn, joined, undefined))?.statement;
    if (!built || !other) return null;
    const real = built.statement;
    if (real.sql !== other.sql || real.params.length !== other.params.length) return null;
    const params: unknown[] = [];
    for (let i = 0; i < real.params.length; i++) {
      if (Object.is(other.params[i], standIn) && Object.is(real.params[i], pk)) params.push(KEY);
      else if (Object.is(other.params[i], real.params[i]) && other.params[i] !== standIn) {
        params.push(real.params[i]);
      } else return null;
    }
    if (!params.includes(KEY)) return null;
    const platform = em.getPlatform();
    return {
      ...joined,
      platform,
      schema: em.schema,
      key: pk,
      sql: real.sql,
      params,
      columns: built.columns,
    };
  };
  TEMPLATES.set(plan, await template());
}

/** Whether `edge` may be read with its parent's statement: a `1:m` edge of a concrete target. */
function joinable(ctx: RequestState, edge: EdgePlan): boolean {
  const { edge: description } = edge;
  if (description.kind !== "1:m" || !description.inverse || description.unbound) return false;
  const target = ctx.graph.types[description.target];
  if (target.abstract) return false;
  const inverse = ctx.em.getMetadata().find(target.entity)?.properties[description.inverse];
  return inverse?.kind === "m:1";
}

/** The result columns of `props` (every column of a composite foreign key), each once. */
function columnsOf(
  properties: Record<string, { fieldNames: string[] }>,
  props: readonly string[],
): string[] {
  return [...new Set(props.flatMap((prop) => properties[prop].fieldNames))];
}

/** The column of the first key part of `type`'s rows (never null in a row read). */
function firstColumn(
  meta: { properties: Record<string, { fieldNames: string[] }> },
  type: NodeType,
): string {
  return meta.properties[keyParts(type)[0].prop].fieldNames[0];
}

/** The columns of one side of the joined statement: their names and their result aliases. */
interface JoinedColumns {
  readonly names: readonly string[];
  readonly aliases: readonly string[];
}

/** The joined statement's text and columns, for one pair of statement texts. */
interface JoinedStatement {
  readonly sql: string;
  readonly node: JoinedColumns;
  readonly page: JoinedColumns;
  /** The alias of the page's first key column (null only in the row of a node without a page). */
  readonly pageKeyAlias: string;
}

/** The joined statements of one platform, and how many it holds. */
interface JoinedStatements {
  /** By the node's statement text, then the page's, then the page's direction (`last`). */
  byNode: Map<string, Map<string, [JoinedStatement?, JoinedStatement?]>>;
  size: number;
}

/**
 * The joined statements made, per platform: both texts come from the statement cache, so a
 * request of a document seen before builds no SQL here. At most {@linkcode MAX_JOINED} per
 * platform in all (then started again): the pages of one node statement vary with the client's
 * where input, so each level is not bounded on its own.
 */
const JOINED = new WeakMap<object, JoinedStatements>();
const MAX_JOINED = 1_000;

/**
 * The joined statement of the node's statement `nodeSql` and the page's `pageSql` (see the
 * module documentation), made from `columns` on first use.
 */
function joinedStatement(
  em: SqlEntityManager,
  nodeSql: string,
  pageSql: string,
  page: ManyPlan["page"],
  columns: () => { node: string[]; page: string[]; pageKey: string },
): JoinedStatement {
  const platform = em.getPlatform();
  let joined = JOINED.get(platform);
  if (!joined) JOINED.set(platform, joined = { byNode: new Map(), size: 0 });
  const direction = page.args.last != null ? 1 : 0;
  const known = joined.byNode.get(nodeSql)?.get(pageSql)?.[direction];
  if (known) return known;
  if (joined.size >= MAX_JOINED) {
    joined.byNode.clear();
    joined.size = 0;
  }
  let byPage = joined.byNode.get(nodeSql);
  if (!byPage) joined.byNode.set(nodeSql, byPage = new Map());
  let pair = byPage.get(pageSql);
  if (!pair) byPage.set(pageSql, pair = []);
  joined.size++;
  const q = (name: string) => quoteIdentifiers(em, name);
  const { node, page: pageColumns, pageKey } = columns();
  const side = (names: string[], prefix: string): JoinedColumns => ({
    names,
    aliases: names.map((_, i) => `${prefix}${i}`),
  });
  const made: JoinedStatement = {
    sql: `select ${
      [
        ...node.map((column, i) => `${q("n")}.${q(column)} as ${q(`n${i}`)}`),
        ...pageColumns.map((column, i) => `${q("c")}.${q(column)} as ${q(`c${i}`)}`),
      ].join(", ")
    } from (${nodeSql}) as ${q("n")} left join (${pageSql}) as ${q("c")} on 1 = 1 order by ${
      orderSql(em, page, q("c"))
    }`,
    node: side(node, "n"),
    page: side(pageColumns, "c"),
    pageKeyAlias: `c${pageColumns.indexOf(pageKey)}`,
  };
  return pair[direction] = made;
}

/** The columns of `row` read from their aliases, under their names. */
function columnsAt(row: Row, columns: JoinedColumns): Row {
  const out: Row = {};
  const { names, aliases } = columns;
  for (let i = 0; i < names.length; i++) out[names[i]] = row[aliases[i]];
  return out;
}
