/**
 * The rows of an entity the request may read, as a derived table the database cannot open up:
 * the visibility fence under every condition a client writes about rows it may not see.
 *
 * A client's predicate (`hasCommentsWith: [{ bodyHasPrefix: "secret" }]`) written beside the
 * read filter (`plan/read_filters.ts`) in one `WHERE` may be evaluated first by the database, on
 * every row: a hidden row's text then changes how much work the statement does (the visibility
 * conditions run only on rows the predicate kept), and its answer's timing tells the client what
 * a hidden row holds. PostgreSQL's row-level security orders its own conditions first (a
 * security barrier); here the client's predicate reads a derived table of the visible rows
 * instead (`from (select * from <table> where <read filter> <fence>) as <alias>`), which no
 * engine merges into the outer query or pushes the outer conditions into, because of its fence:
 *
 * - PostgreSQL: `offset 0` (a subquery with an `OFFSET` is neither pulled up nor given the outer
 *   query's quals: PostgreSQL's documented optimisation fence);
 * - SQLite: `limit -1 offset 0` (the query flattener leaves a subquery with an `OFFSET` alone, and
 *   the push-down optimisation one with a `LIMIT`);
 * - MariaDB/MySQL: `limit 9007199254740991 offset 0` (a derived table with a `LIMIT` is
 *   materialised, never merged, and MariaDB pushes no condition into it).
 *
 * `tests/graphql/leakproof_test.ts` checks with `EXPLAIN` on each database that the fence holds.
 *
 * @module
 */
import type { EntityManager } from "@mikro-orm/core";
import type { QueryBuilder, SqlEntityManager } from "@mikro-orm/sql";
import { dialectOf } from "../dialect.ts";
import { readFilterOf } from "./read_filters.ts";

/** The alias of the visible rows' own statement, inside the fence. */
const INNER = "__v";

/**
 * A QueryBuilder over `entity`, aliased `alias`, reading only the rows the request may read: its
 * `FROM` is the fenced derived table of those rows (above) when `entity` has an active read
 * filter, else the table itself. Conditions set on it afterwards (a client's where input) are
 * evaluated on visible rows only. Needs `prepareReadFilters` of `entity` on `em`.
 *
 * @param alias the derived table's alias, which the conditions set on the builder name
 */
export function visibleRows(
  em: EntityManager,
  entity: string | object,
  alias: string,
): QueryBuilder<object> {
  const meta = em.getMetadata().find(entity as never)!;
  const sql = em as SqlEntityManager;
  const visible = readFilterOf(em, entity);
  if (Reflect.ownKeys(visible as object).length === 0) {
    return sql.createQueryBuilder(meta.class, alias) as unknown as QueryBuilder<object>;
  }
  const inner = sql.createQueryBuilder(meta.class, INNER)
    .select(`${INNER}.*` as never)
    .where(visible as never);
  const fenced = inner.getNativeQuery();
  const dialect = dialectOf(em);
  if (dialect === "sqlite") fenced.limit(-1);
  else if (dialect === "mysql") fenced.limit(Number.MAX_SAFE_INTEGER);
  fenced.offset(0);
  return sql.createQueryBuilder(meta.class, alias).from(inner as never, alias) as never;
}
