/**
 * Reads of the rows of one node type: a root connection's page and its `totalCount`, the rows of
 * `node`/`nodes`, and a single parent's page. The lean read path (`lean_records.ts`) where the
 * selected properties allow it, else managed entities through `em.find`; the EntityManager's
 * MikroORM filters either way (`read_filters.ts`). The lean path's statements run with bound
 * parameters (`bound_statement.ts`).
 *
 * @module
 */
import {
  type EntityManager,
  type EntityMetadata,
  type FilterQuery,
  QueryFlag,
  type QueryOrderMap,
} from "@mikro-orm/core";
import type { SqlEntityManager } from "@mikro-orm/sql";
import { quoteIdentifiers } from "../dialect.ts";
import type { NodeType } from "../graph.ts";
import { keyParts } from "../keys.ts";
import { countQuery, runStatement, type Statement } from "../database/bound_statement.ts";
import { cachedStatement, textKey } from "./statement_cache.ts";
import { leanable, toRecords } from "./lean_records.ts";
import { allOf } from "../jsutils/all_of.ts";
import { whereVisible } from "../plan/visible_rows.ts";
import { readConnectionType } from "../database/read_from.ts";

type Row = Record<string, unknown>;

/** The result column of `countAll`'s count. */
const TOTAL = "__total";

/** What {@linkcode findRows} reads. */
export interface FindRowsOptions {
  orderBy?: QueryOrderMap<object>[];
  limit?: number;
  /** The properties to read; `undefined` reads every column (as entities). */
  fields?: string[];
  /** The relation to parents already read the rows are loaded through (`readFilter`). */
  through?: string;
  /**
   * The client's where input on the rows, beside `where` (the server's conditions and a cursor's
   * keyset predicate): evaluated on rows the request may read only (`whereVisible` of
   * `plan/visible_rows.ts`) on the lean path.
   */
  client?: FilterQuery<object>;
  /** Also counts the rows matching another condition (a connection's `totalCount`). */
  countAll?: CountAll;
}

/**
 * A count read with a page of the same rows (a page without a cursor: its rows are the first of
 * those counted, at least one when there is any), in its statement: `select (<the count's
 * statement>) as __total, ...`, a scalar subquery the database runs once.
 */
export interface CountAll {
  /** What the counted rows match: the server's conditions (the parent's key of a nested page). */
  where?: FilterQuery<object>;
  /** What the counted rows match: the client's where input (`FindRowsOptions.client`). */
  client?: FilterQuery<object>;
  /**
   * Called with the count when the read is lean (0 when the page has no row); not called
   * otherwise, when the caller counts on its own.
   */
  found(count: number): void;
}

/**
 * Reads the rows of `type` matching `where`: as records of the lean read path when the
 * selected properties allow it (`lean_records.ts`), else as entities with `em.find`.
 */
export async function findRows(
  em: EntityManager,
  type: NodeType,
  where: FilterQuery<object>,
  options: FindRowsOptions,
): Promise<object[]> {
  const lean = await leanRead(em, type, where, options);
  if (!lean) {
    return await em.find(type.entity, allOf(where, options.client ?? {}), {
      orderBy: options.orderBy as never,
      limit: options.limit,
      flags: options.limit === undefined ? undefined : [QueryFlag.DISABLE_PAGINATE],
      fields: selectedFields(type, options) as never,
      connectionType: readConnectionType(em),
    });
  }
  const counted = options.countAll && await withCount(em, type, lean, options.countAll, options);
  const rows = await runStatement(em, readConnectionType(em), counted ?? lean.statement);
  if (counted) options.countAll!.found(rows.length === 0 ? 0 : Number(rows[0][TOTAL]));
  return toRecords(em, lean.meta, rows, lean.fields);
}

/** The statement of a lean read (`findRows`) and what its rows become records by. */
export interface LeanRead {
  /** SQL text (`?` placeholders) and values, the statement cache's (`statement_cache.ts`). */
  statement: Statement;
  meta: EntityMetadata;
  /** The properties selected (the key's first): `toRecords`' `props`. */
  fields: string[];
}

/**
 * The statement {@linkcode findRows} sends for a lean read of `type`'s rows matching `where`, not
 * run (`joined_page.ts` sends it inside one of its own); `undefined` when the selected
 * properties are not read as records (`lean_records.ts`).
 */
export async function leanRead(
  em: EntityManager,
  type: NodeType,
  where: FilterQuery<object>,
  options: FindRowsOptions,
): Promise<LeanRead | undefined> {
  const meta = em.getMetadata().find(type.entity)!;
  const fields = selectedFields(type, options);
  // Rows are read by a condition on a relation, never with a joined collection: the limit
  // applies to them as read (MikroORM would wrap it in a subquery for an m:n condition).
  if (!leanable(meta, fields)) return undefined;
  const connectionType = readConnectionType(em);
  const { orderBy, limit, through, client } = options;
  const site = textKey([
    "rows",
    meta.className,
    fields,
    through ?? null,
    orderBy ?? null,
    limit === undefined ? "no limit" : "limit",
  ]);
  const inputs = { where, client, limit };
  const statement = await cachedStatement(em, site, inputs, async (inputs) => {
    const qb = (em as SqlEntityManager).createQueryBuilder(type.entity, "e0", connectionType)
      .select(fields as never);
    await whereVisible(em, qb as never, type.entity, "e0", {
      where: inputs.where,
      client: inputs.client,
      through,
    });
    if (orderBy) qb.orderBy(orderBy as never);
    if (inputs.limit !== undefined) qb.limit(inputs.limit).setFlag(QueryFlag.DISABLE_PAGINATE);
    return qb;
  });
  return { statement, meta, fields: fields! };
}

/**
 * `lean`'s statement with `countAll`'s count as its first column (`__total`), the count's
 * statement a scalar subquery; `undefined` when the page's text does not start as a lean
 * QueryBuilder's select does.
 */
async function withCount(
  em: EntityManager,
  type: NodeType,
  lean: LeanRead,
  countAll: CountAll,
  options: FindRowsOptions,
): Promise<Statement | undefined> {
  const page = lean.statement;
  if (!page.sql.startsWith("select ")) return undefined;
  const count = await countStatement(
    em,
    type,
    countAll.where ?? {},
    options.through,
    countAll.client,
  );
  return {
    sql: `select (${count.sql}) as ${quoteIdentifiers(em, TOTAL)}, ${page.sql.slice(7)}`,
    params: [...count.params, ...page.params],
  };
}

/** The properties `options` selects, the key's first; `undefined` for every column. */
function selectedFields(type: NodeType, options: FindRowsOptions): string[] | undefined {
  return options.fields &&
    [...new Set([...keyParts(type).map((part) => part.prop), ...options.fields])];
}

/**
 * Counts the rows of `type` matching `where` and `client`, the client's where input (a root
 * connection's `totalCount`; `whereVisible` of `plan/visible_rows.ts`): one
 * QueryBuilder `count(*)` with the EntityManager's filters (`read_filters.ts`) for types the lean path
 * reads, `em.count` for types of an inheritance hierarchy (whose discriminators MikroORM adds).
 */
export async function countRows(
  em: EntityManager,
  type: NodeType,
  where: FilterQuery<object>,
  client: FilterQuery<object> = {},
): Promise<number> {
  const meta = em.getMetadata().find(type.entity)!;
  if (!leanable(meta, keyParts(type).map((part) => part.prop))) {
    return await em.count(type.entity, allOf(where, client), {
      connectionType: readConnectionType(em),
    });
  }
  const [row] = await runStatement(
    em,
    readConnectionType(em),
    await countStatement(em, type, where, undefined, client),
  );
  return row ? +(row.count as number) : 0;
}

/**
 * The statement counting the rows of `type` matching `where` (the server's conditions) and
 * `client` (the client's: `whereVisible` of `plan/visible_rows.ts`) (`count` column; read through
 * the relation `through`, as `findRows` reads them) of a type the lean path reads, from the
 * statement cache.
 */
async function countStatement(
  em: EntityManager,
  type: NodeType,
  where: FilterQuery<object>,
  through?: string,
  client?: FilterQuery<object>,
): Promise<Statement> {
  const connectionType = readConnectionType(em);
  const site = textKey(["count", em.getMetadata().find(type.entity)!.className, through ?? null]);
  return await cachedStatement(em, site, { where, client }, async (inputs) => {
    const qb = (em as SqlEntityManager).createQueryBuilder(type.entity, "e0", connectionType);
    await whereVisible(em, qb as never, type.entity, "e0", { ...inputs, through });
    return countQuery(qb);
  });
}
