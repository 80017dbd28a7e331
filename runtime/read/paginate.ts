/**
 * One connection's page outside field collection (`paginate`), and the cursor values of SQL order
 * terms (`fillOrderValues`), which the keyset needs and no row carries: dates at full precision,
 * edge counts and edge fields.
 *
 * @module
 */
import type { EntityManager } from "@mikro-orm/core";
import type { SqlEntityManager } from "@mikro-orm/sql";
import type { EdgeOrderTerm, NodeType } from "../graph.ts";
import {
  type Connection,
  type PaginationArgs,
  type PaginationLimits,
  toConnection,
} from "../plan/relay_connection.ts";
import { keyParts, keyText, keyValues, rowsFilter } from "../keys.ts";
import { type PagePlan, type PageQuery, planPage } from "../plan/page_plan.ts";
import { readRows } from "../database/bound_statement.ts";
import { readConnectionType } from "../database/read_from.ts";
import { prepareReadFilters } from "../plan/read_filters.ts";
import { orderTargets } from "../plan/order_terms.ts";

type Row = Record<string, unknown>;

/**
 * Fetches and builds one page: `planPage`, then `fetch`, then `toConnection`, then
 * {@linkcode fillOrderValues} for the page's rows when the order has SQL terms.
 *
 * @param fetch runs the page query (`em.find`, `Collection.matching`, ...)
 * @param count counts all rows of the connection (without the keyset), run only when selected
 * @param em the request's EntityManager (see `planPage`)
 * @param declared an edge's declared order, used without `orderBy` (`EdgeDescription.order`)
 */
export async function paginate<T extends object>(
  type: NodeType,
  args: PaginationArgs,
  fetch: (query: PageQuery) => Promise<T[]>,
  count: () => Promise<number>,
  limits?: PaginationLimits,
  em?: EntityManager,
  declared?: readonly EdgeOrderTerm[],
): Promise<Connection<T>> {
  if (em) await prepareReadFilters(em, orderTargets(em, type, args.orderBy));
  const plan = planPage(type, args, limits, em, declared);
  const connection = toConnection(plan, await fetch(plan.query), count);
  if (em) await fillOrderValues(em, plan, connection.edges.map((e) => e.node));
  return connection;
}

/**
 * Reads the cursor values of `plan`'s SQL terms for `rows` (rows of `plan.type`, from any
 * number of parents) in one query by primary key (every part of a composite key), into `plan.values`. Does nothing when the
 * order has no SQL term.
 */
export async function fillOrderValues(
  em: EntityManager,
  plan: PagePlan,
  rows: readonly object[],
): Promise<void> {
  const terms = plan.terms.filter((t) => t.sql);
  if (terms.length === 0 || rows.length === 0) return;
  const type = plan.type;
  const meta = em.getMetadata().find(type.entity)!;
  const parts = keyParts(type);
  const columns = parts.map((part) => meta.properties[part.prop].fieldNames[0]);
  const keys = new Map(rows.map((row) => {
    const values = keyValues(type, row);
    return [keyText(type, values), values];
  }));
  const found = await readRows(
    (em as SqlEntityManager)
      .createQueryBuilder(type.entity, "e0", readConnectionType(em))
      .select([
        ...parts.map((part) => part.prop),
        ...terms.map((t, i) => t.sql!.value("e0").as(`__order_${i}`)),
      ])
      .where(rowsFilter(type, [...keys.values()])),
  );
  const byKey = new Map(found.map((r) => [
    keyText(type, columns.map((c) => r[c])),
    terms.map((t, i) => t.count ? Number(r[`__order_${i}`]) : r[`__order_${i}`] ?? null),
  ]));
  const key = (row: object) => keyText(type, keyValues(type, row));
  for (const row of rows) {
    const values = byKey.get(key(row));
    if (values) plan.values.set(row, values);
  }
}
