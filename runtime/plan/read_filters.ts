/**
 * MikroORM filters (`filters` of the ORM config, `@Filter`/`defineEntity` filters, `em.addFilter`)
 * on the runtime's QueryBuilder reads. `em.find` and `em.count` apply the filters enabled on the
 * EntityManager; a QueryBuilder applies none unless asked, so the reads `find_rows.ts`, `partitioned.ts` and `paginate.ts` build themselves
 * (lean root pages and counts, `node`/`nodes`, unique edges, nested pages and grouped counts) set
 * their condition with {@linkcode whereFiltered}, which adds the same filters in the same
 * statement.
 *
 * Statements that reach other entities' rows inside a condition or an order term (the
 * `has<Edge>`/`has<Edge>With` subqueries and `<edge>ID` predicates of `plan/where_filter.ts`, the
 * `<EDGE>_COUNT`/`<EDGE>_<FIELD>` order terms of `plan/order_terms.ts`) add those entities' read
 * filters there: they plan synchronously, so the request's read filters of every entity are
 * computed once per EntityManager ({@linkcode prepareReadFilters}) and looked up with
 * {@linkcode readFilterOf}. No answer, count or order then depends on a row the filters hide.
 *
 * @module
 */
import {
  type EntityManager,
  type EntityMetadata,
  type EntityProperty,
  type FilterOptions,
  type FilterQuery,
  QueryHelper,
  raw,
} from "@mikro-orm/core";
import type { SqlEntityManager } from "@mikro-orm/sql";
import { allOf } from "../jsutils/all_of.ts";
import { dialectOf, quoteIdentifiers } from "../dialect.ts";

/**
 * The condition `em.find(entity, ...)` adds for the filters enabled on `em` (no per-call filter
 * options, as the runtime's reads pass none):
 *
 * - the entity's own active filters (`em.applyFilters`, what `QueryBuilder.applyFilters` adds);
 * - for each required many-to-one or owning one-to-one relation whose target has active filters,
 *   that the foreign key names a target those filters keep: MikroORM joins such a relation with
 *   its filters (`autoJoinRefsForFilters`), an inner join for a required one, so a row whose
 *   required target is filtered out is not read. (A nullable relation's row stays; its edge then
 *   loads as `null`, the target being filtered.) MariaDB gets the same join (`{ post: <Post's
 *   filters> }`); SQLite gets `<foreign key> in (select <key> from <target> where <its
 *   filters>)`, the same rows, because its planner then drives the scan from the visible
 *   targets where it scans the rows first with the join; PostgreSQL gets `<foreign key> =
 *   any(array(select <key> from <target> where <its filters>))` when the foreign key is a
 *   single column an index can probe ({@linkcode probeable}), else the join. With an index on
 *   `(<parent fk>, <this fk>)` (or on the foreign key), counting a parent's children then reads
 *   only the children of visible targets: SQLite probes the index per visible target, and
 *   PostgreSQL probes it with the array whatever its statistics say (with the join or an `in`,
 *   PostgreSQL knowing that most of a parent's rows are hidden ones hashes the visible targets
 *   and scans all of the parent's rows); so rows hidden by their target cost nothing to count
 *   (`bench/auth_timing.ts`: 120,000 of them). PostgreSQL compares a row with a non-constant
 *   array element by element (it hashes only constant arrays), so without an index the array
 *   form would cost each row the number of visible targets: the join is kept there.
 *
 * @param through the relation the rows are read through from parents already read (a nested
 *   connection's inverse property): its targets are visible rows, so it is not joined
 * @returns `{}` when no filter is active
 */
export async function readFilter(
  em: EntityManager,
  entity: string | object,
  through?: string,
): Promise<FilterQuery<object>> {
  const meta = em.getMetadata().find(entity as never)!;
  const own = await em.applyFilters(entity as never, {}, {}, "read") ?? {};
  const relations: FilterQuery<object>[] = [];
  for (const prop of meta.relations) {
    const reference = prop.kind === "m:1" || (prop.kind === "1:1" && prop.owner);
    if (!reference || prop.nullable || prop.polymorphic || prop.object || prop.name === through) {
      continue;
    }
    const filters = QueryHelper.mergePropertyFilters(prop.filters, {});
    const target = await em.applyFilters(prop.targetMeta!.class, {}, filters, "read") ?? {};
    if (Reflect.ownKeys(target).length === 0) continue;
    const dialect = dialectOf(em);
    relations.push(
      dialect === "sqlite"
        ? keptReference(em, prop, target, "in")
        : dialect === "postgresql" && probeable(meta, prop, through)
        ? keptReference(em, prop, target, "any")
        : { [prop.name]: target },
    );
  }
  return allOf(own as FilterQuery<object>, ...relations);
}

/**
 * The condition that the reference `prop` names a target row `filter` keeps
 * ({@linkcode readFilter}): `<foreign key of prop> in (select <referenced columns> from <target>
 * where <filter>)` (`in`, SQLite's form) or `<foreign key> = any(array(select ...))` (`any`,
 * PostgreSQL's, for a single-column key).
 */
function keptReference(
  em: EntityManager,
  prop: EntityProperty,
  filter: FilterQuery<object>,
  form: "in" | "any",
): FilterQuery<object> {
  const targets = (em as SqlEntityManager).createQueryBuilder(prop.targetMeta!.class, "__k")
    .select(prop.referencedColumnNames.map((c) => `__k.${c}`) as never)
    .where(filter as never);
  const sql = targets.getQuery();
  return {
    [
      raw((alias: string) => {
        const columns = prop.fieldNames.map((c) => `${alias}.${quoteIdentifiers(em, c)}`);
        const tuple = columns.length === 1 ? columns[0] : `(${columns.join(", ")})`;
        return form === "in" ? `${tuple} in (${sql})` : `${tuple} = any(array(${sql}))`;
      }, [...targets.getParams()]) as never
    ]: [],
  };
}

/**
 * Whether an index declared in `meta` can be probed with values of the single-column foreign key
 * `prop`: the column is the first of an index (the property's own `index`, `unique` or key, or
 * an entity index or unique constraint starting with it or with a property of the same column),
 * or the second after the column of `through` (a nested connection's rows are read by their
 * parent's key first). Indexes made in the database only are not seen.
 */
function probeable(meta: EntityMetadata, prop: EntityProperty, through?: string): boolean {
  if (prop.fieldNames.length !== 1) return false;
  const [column] = prop.fieldNames;
  const columnOf = (name: string | undefined) =>
    name === undefined ? undefined : meta.properties[name]?.fieldNames?.join(",");
  const through1 = columnOf(through);
  const starts = (properties: unknown) => {
    const list = (Array.isArray(properties) ? properties : [properties]).map((p) =>
      columnOf(p as string)
    );
    return list[0] === column || (through1 !== undefined && list[0] === through1 &&
      list[1] === column);
  };
  return Object.values(meta.properties).some((p) =>
    p.fieldNames?.length === 1 && p.fieldNames[0] === column &&
    Boolean(p.index || p.unique || p.primary)
  ) || meta.indexes.some((index) => starts(index.properties)) ||
    meta.uniques.some((unique) => starts(unique.properties));
}

const READY = new WeakMap<EntityManager, Map<string, FilterQuery<object>>>();

/**
 * Computes the read filters ({@linkcode readFilter}: an entity's own filters and its required
 * relations') of `entities` on `em`, for {@linkcode readFilterOf}: each once per EntityManager
 * (about 10 µs per filter source asked). Call it before planning a where input or an order on
 * `em`, with the entities their subqueries read (`whereTargets` of `plan/where_filter.ts`,
 * `orderTargets` of `plan/order_terms.ts`).
 */
export async function prepareReadFilters(
  em: EntityManager,
  entities: Iterable<string | object>,
): Promise<void> {
  let filters = READY.get(em);
  if (!filters) READY.set(em, filters = new Map());
  for (const entity of entities) {
    const { className } = em.getMetadata().find(entity as never)!;
    if (!filters.has(className)) filters.set(className, await readFilter(em, entity));
  }
}

/**
 * The read filter of `entity` on `em` (`{}` when none is active), as
 * {@linkcode prepareReadFilters} computed it: the condition a row of `entity` must meet to be
 * read, for subqueries over its rows.
 *
 * @throws Error when {@linkcode prepareReadFilters} has not computed it on `em` (a missing call
 *   is a failure, never an unfiltered subquery)
 */
export function readFilterOf(em: EntityManager, entity: string | object): FilterQuery<object> {
  const meta = em.getMetadata().find(entity as never)!;
  const filter = READY.get(em)?.get(meta.className);
  if (!filter) {
    throw new Error(`the read filter of ${meta.className} is used before prepareReadFilters`);
  }
  return filter;
}

/**
 * The keys of the rows of `entity` the request may read, as an uncorrelated subquery (`select
 * <key columns> from <table> where <read filter>` with its parameters), or `undefined` when
 * `entity` has no active read filter. For a reference to a row: `<foreign key> in (<this>)`.
 * Needs {@linkcode prepareReadFilters}.
 */
export function visibleKeys(
  em: EntityManager,
  entity: string | object,
): { sql: string; params: readonly unknown[] } | undefined {
  const visible = readFilterOf(em, entity);
  if (Reflect.ownKeys(visible as object).length === 0) return undefined;
  const meta = em.getMetadata().find(entity as never)!;
  const qb = (em as SqlEntityManager).createQueryBuilder(meta.class, "__v")
    .select(meta.primaryKeys as never)
    .where(visible as never);
  return { sql: qb.getQuery(), params: qb.getParams() };
}

/**
 * Whether reads of `entity` on `em` are filtered at all ({@linkcode readFilter} adds a condition):
 * the filters of the entity, or of a required relation's target, are enabled.
 */
export async function readFiltered(em: EntityManager, entity: string | object): Promise<boolean> {
  return Reflect.ownKeys(await readFilter(em, entity) as object).length > 0;
}

/**
 * Puts the filters of the relations a QueryBuilder's condition joined ({@linkcode readFilter}'s
 * required relations outside SQLite, a condition on a relation in a read rule or a MikroORM
 * filter, `{ project: { ... } }`) on their joins, as `em.find` does
 * after building its condition (MikroORM's `applyJoinedFilters`): a row whose nullable target is
 * filtered out does not match a condition on the target. Call it after the condition is set.
 */
async function filterJoins(
  em: EntityManager,
  qb: { applyJoinedFilters(em: EntityManager, options: FilterOptions): Promise<void> },
): Promise<void> {
  await qb.applyJoinedFilters(em, {});
}

/**
 * Adds `where` and the filters `em.find` would add ({@linkcode readFilter}, then
 * {@linkcode filterJoins}) to `qb`, a QueryBuilder over `entity`: the one way the runtime's
 * QueryBuilder reads set their condition.
 *
 * @param through see {@linkcode readFilter}
 */
export async function whereFiltered(
  em: EntityManager,
  qb: {
    andWhere(cond: never): unknown;
    applyJoinedFilters(em: EntityManager, options: FilterOptions): Promise<void>;
  },
  entity: string | object,
  where: FilterQuery<object>,
  through?: string,
): Promise<void> {
  qb.andWhere(allOf(where, await readFilter(em, entity, through)) as never);
  await filterJoins(em, qb);
}
