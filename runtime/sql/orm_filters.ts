/**
 * MikroORM filters (`filters` of the ORM config, `@Filter`/`defineEntity` filters, `em.addFilter`)
 * on the runtime's QueryBuilder reads. `em.find` and `em.count` apply the filters enabled on the
 * EntityManager; a QueryBuilder applies none unless asked, so the reads `find_rows.ts`, `partitioned.ts` and `paginate.ts` build themselves
 * (lean root pages and counts, `node`/`nodes`, unique edges, nested pages and grouped counts) set
 * their condition with {@linkcode whereFiltered}, which adds the same filters in the same
 * statement.
 *
 * @module
 */
import {
  type EntityManager,
  type FilterOptions,
  type FilterQuery,
  QueryHelper,
} from "@mikro-orm/core";
import { allOf } from "../plan/where_filter.ts";

/**
 * The condition `em.find(entity, ...)` adds for the filters enabled on `em` (no per-call filter
 * options, as the runtime's reads pass none):
 *
 * - the entity's own active filters (`em.applyFilters`, what `QueryBuilder.applyFilters` adds);
 * - for each required many-to-one or owning one-to-one relation whose target has active filters,
 *   those filters on the target (`{ post: <Post's filters> }`, a join on the foreign key): MikroORM
 *   joins such a relation with its filters (`autoJoinRefsForFilters`), an inner join for a
 *   required one, so a row whose required target is filtered out is not read. (A nullable
 *   relation's row stays; its edge then loads as `null`, the target being filtered.)
 *
 * @param through the relation the rows are read through from parents already read (a nested
 *   connection's inverse property): its targets are visible rows, so it is not joined
 * @returns `{}` when no filter is active
 */
async function readFilter(
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
    if (Reflect.ownKeys(target).length > 0) relations.push({ [prop.name]: target });
  }
  return allOf(own as FilterQuery<object>, ...relations);
}

/**
 * Whether reads of `entity` on `em` are filtered at all ({@linkcode readFilter} adds a condition):
 * the filters of the entity, or of a required relation's target, are enabled.
 */
export async function readFiltered(em: EntityManager, entity: string | object): Promise<boolean> {
  return Reflect.ownKeys(await readFilter(em, entity) as object).length > 0;
}

/**
 * Puts the filters of the relations a QueryBuilder's condition joined (a `has<Edge>With` on a
 * to-one edge, {@linkcode readFilter}'s required relations) on their joins, as `em.find` does
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
