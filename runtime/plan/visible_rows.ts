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
 * A connection's own rows are read the same way when the client adds a where input to them
 * ({@linkcode whereVisible}): the where input sits outside the fenced rows, and the server's own
 * conditions (the parents' keys of a nested page) inside, beside the read filter, where an index
 * serves them; so does a cursor's keyset predicate, a comparison of the row's order values with
 * the cursor's, which tells no more than the page's own walk in that order (the pages of a
 * connection walk its order and stop once full, hidden rows passed included:
 * docs/authorization-writes.md), and which an index serves inside.
 *
 * `tests/graphql/leakproof_test.ts` checks with `EXPLAIN` on each database that the fence holds.
 *
 * @module
 */
import type { EntityManager, FilterQuery } from "@mikro-orm/core";
import type { QueryBuilder, SqlEntityManager } from "@mikro-orm/sql";
import { dialectOf, quoteIdentifiers } from "../dialect.ts";
import { allOf } from "../jsutils/all_of.ts";
import { readFilter, readFilterOf, whereFiltered } from "./read_filters.ts";

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
  fence(em, inner);
  return sql.createQueryBuilder(meta.class, alias).from(inner as never, alias) as never;
}

/** Puts the dialect's fence (module documentation) on `qb`'s statement, its last change. */
function fence(em: EntityManager, qb: QueryBuilder<object>): void {
  const fenced = qb.getNativeQuery();
  const dialect = dialectOf(em);
  if (dialect === "sqlite") fenced.limit(-1);
  else if (dialect === "mysql") fenced.limit(Number.MAX_SAFE_INTEGER);
  fenced.offset(0);
}

/** The conditions of a read of a connection's rows ({@linkcode whereVisible}). */
export interface VisibleWhere {
  /**
   * The server's own conditions, with the read filter, inside the fence: parent keys (a
   * nested page), node keys, a cursor's keyset predicate.
   */
  where?: FilterQuery<object>;
  /** The client's where input: evaluated only on rows the request may read. */
  client?: FilterQuery<object>;
  /** The relation the rows are read through from parents already read (`readFilter`). */
  through?: string;
  /**
   * Adds server conditions written as SQL on the rows' alias (a long parent key list) to the
   * builder it is given: the fenced rows' own, or `qb` when there is no fence.
   */
  inside?: (qb: QueryBuilder<object>) => void;
}

/**
 * Sets the condition of `qb`, a read of `entity`'s rows aliased `alias` (no condition set yet):
 * `where`, `inside` and the request's read filter (`whereFiltered` of `read_filters.ts`), and
 * `client`. When `entity` has a read filter and `client` a condition, `qb` reads from the
 * fenced derived table of the rows the rest keeps (the module documentation), under the same
 * alias, and `client` is its condition: no condition of the client is evaluated on a row the
 * request may not read. Otherwise all of them make one `WHERE`, as `whereFiltered` writes it.
 *
 * The fence costs reading all the rows the server's conditions and the read filter keep before
 * the client's conditions and the page's order and limit (a page that walks an index in order
 * cannot stop early): only reads where the client adds a condition to rows a read filter hides
 * pay it.
 */
export async function whereVisible(
  em: EntityManager,
  qb: QueryBuilder<object>,
  entity: string | object,
  alias: string,
  { where = {}, client = {}, through, inside }: VisibleWhere,
): Promise<void> {
  const bare = Reflect.ownKeys(client as object).length === 0 ||
    Reflect.ownKeys(await readFilter(em, entity, through) as object).length === 0;
  if (bare) {
    inside?.(qb);
    await whereFiltered(em, qb as never, entity, allOf(where, client), through);
    return;
  }
  const meta = em.getMetadata().find(entity as never)!;
  const sql = em as SqlEntityManager;
  const inner = sql.createQueryBuilder(meta.class, alias)
    .select(`${alias}.*` as never) as unknown as QueryBuilder<object>;
  const [key, ...more] = meta.primaryKeys.flatMap((pk) => meta.properties[pk].fieldNames);
  if (dialectOf(em) === "sqlite" && more.length === 0 && through !== undefined) {
    // SQLite picks the index of the parents' key, which reads a parent's rows in the order the
    // query wants, over one probed per visible value of the read filter (`(<parent fk>, <author
    // fk>)`), unless that one covers the columns read: the visible rows' keys first, then their
    // rows. (Not for a root connection's rows: no parent key to start from, and the second pass
    // over the visible keys doubles the cost.)
    const keys = sql.createQueryBuilder(meta.class, alias)
      .select(`${alias}.${key}` as never) as unknown as QueryBuilder<object>;
    inside?.(keys);
    await whereFiltered(em, keys as never, entity, where, through);
    const { sql: text, params } = keys.toQuery();
    inner.where(`${quoteIdentifiers(em, alias, key)} in (${text})`, [...params]);
  } else {
    inside?.(inner);
    await whereFiltered(em, inner as never, entity, where, through);
  }
  fence(em, inner);
  qb.from(inner as never, alias);
  qb.andWhere(client as never);
  await (qb as unknown as { applyJoinedFilters(em: EntityManager, o: object): Promise<void> })
    .applyJoinedFilters(em, {});
}
