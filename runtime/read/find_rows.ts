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
import type { NodeType } from "../graph.ts";
import { keyParts } from "../keys.ts";
import { countQuery, runStatement, type Statement } from "../database/bound_statement.ts";
import { cachedRows, cachedStatement, textKey } from "./statement_cache.ts";
import { leanable, toRecords } from "./lean_records.ts";
import { whereFiltered } from "../plan/read_filters.ts";
import { readConnectionType } from "../database/read_from.ts";

type Row = Record<string, unknown>;

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
    return await em.find(type.entity, where, {
      orderBy: options.orderBy as never,
      limit: options.limit,
      flags: options.limit === undefined ? undefined : [QueryFlag.DISABLE_PAGINATE],
      fields: selectedFields(type, options) as never,
      connectionType: readConnectionType(em),
    });
  }
  const rows = await runStatement(em, readConnectionType(em), lean.statement);
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
  const { orderBy, limit, through } = options;
  const site = textKey([
    "rows",
    meta.className,
    fields,
    through ?? null,
    orderBy ?? null,
    limit === undefined ? "no limit" : "limit",
  ]);
  const statement = await cachedStatement(em, site, { where, limit }, async (inputs) => {
    const qb = (em as SqlEntityManager).createQueryBuilder(type.entity, "e0", connectionType)
      .select(fields as never);
    await whereFiltered(em, qb, type.entity, inputs.where, through);
    if (orderBy) qb.orderBy(orderBy as never);
    if (inputs.limit !== undefined) qb.limit(inputs.limit).setFlag(QueryFlag.DISABLE_PAGINATE);
    return qb;
  });
  return { statement, meta, fields: fields! };
}

/** The properties `options` selects, the key's first; `undefined` for every column. */
function selectedFields(type: NodeType, options: FindRowsOptions): string[] | undefined {
  return options.fields &&
    [...new Set([...keyParts(type).map((part) => part.prop), ...options.fields])];
}

/**
 * Counts the rows of `type` matching `where` (a root connection's `totalCount`): one
 * QueryBuilder `count(*)` with the EntityManager's filters (`read_filters.ts`) for types the lean path
 * reads, `em.count` for types of an inheritance hierarchy (whose discriminators MikroORM adds).
 */
export async function countRows(
  em: EntityManager,
  type: NodeType,
  where: FilterQuery<object>,
): Promise<number> {
  const meta = em.getMetadata().find(type.entity)!;
  if (!leanable(meta, keyParts(type).map((part) => part.prop))) {
    return await em.count(type.entity, where, { connectionType: readConnectionType(em) });
  }
  const connectionType = readConnectionType(em);
  const site = textKey(["count", meta.className]);
  const [row] = await cachedRows(em, connectionType, site, where, async (inputs) => {
    const qb = (em as SqlEntityManager).createQueryBuilder(type.entity, "e0", connectionType);
    await whereFiltered(em, qb, type.entity, inputs);
    return countQuery(qb);
  });
  return row ? +(row.count as number) : 0;
}
