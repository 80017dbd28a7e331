/**
 * Order terms: the one description of a page's order, rendered in the three forms a page needs
 * ({@linkcode orderTerms} resolves `orderBy`, {@linkcode pageOrder} adds the id tiebreaker):
 *
 * - {@linkcode orderByOf}: a MikroORM `orderBy` for `em.find`, `Collection.matching` and the
 *   QueryBuilder;
 * - {@linkcode orderText}: SQL text for a window function's `ORDER BY` (MariaDB/MySQL get
 *   `IS NULL` terms for their missing `NULLS FIRST/LAST`);
 * - {@linkcode keyset}: the keyset predicate "after"/"before" a cursor's values.
 *
 * Rows are ordered by the terms, then by the primary key, every part of a composite key (the
 * tiebreaker that makes the order total): in the direction of a single order term, ascending after a `MultiOrder()` list
 * (entgql); nulls sort as the smallest value (first ascending, last descending) on every dialect.
 *
 * Some terms are SQL expressions over the row (`termSql`), whose cursor values are read
 * from the database:
 *
 * - `<EDGE>_COUNT` (entgql, non-unique edge): `(SELECT count(*) FROM <target or pivot> WHERE
 *   <foreign key> = <row key>)`;
 * - `<EDGE>_<FIELD>` (entgql, unique edge): `(SELECT <field> FROM <target> WHERE <target key> =
 *   <row foreign key>)`, nullable (a row without the edge sorts as null);
 * - date fields: the column itself, but its cursor value is the database's own representation
 *   (`dialect.exactValue`), so a PostgreSQL microsecond timestamp survives the round trip through
 *   a cursor and a page boundary inside one millisecond neither skips nor repeats rows;
 * - enum fields on MariaDB/MySQL: the column's text (an `ENUM` column sorts by declaration index
 *   there, but compares to a cursor's string as a string).
 *
 * Edge terms count and read only the related rows the request may read: the target's read filter
 * (`plan/read_filters.ts` `readFilterOf`: MikroORM filters, policies' read rules) is a condition of
 * their subquery (`<target key> IN (SELECT <key> FROM <target> WHERE <read filter>)`). An order
 * on a field with a policy field rule is `FORBIDDEN` unless the viewer may read it on every row.
 *
 * Expressions are MikroORM `raw()` fragments with the row alias left open, usable in `orderBy`
 * and filter keys of `em.find`, `Collection.matching` and the QueryBuilder alike.
 *
 * @module
 */
import {
  type EntityManager,
  type EntityMetadata,
  type FilterQuery,
  type QueryOrderMap,
  raw,
  type RawQueryFragment,
} from "@mikro-orm/core";
import { dialectOf, exactValue, quoteIdentifiers } from "../dialect.ts";
import { ErrorCode, gqlError } from "../error_codes.ts";
import type { EdgeOrderTerm, NodeType, ScalarKind } from "../graph.ts";
import { keyParts } from "../keys.ts";
import { visibleKeys } from "./read_filters.ts";
import { markValues } from "../database/value_markers.ts";
import { checkFieldReadable } from "../policy_binding.ts";

/** `ASC` or `DESC`, the values of the `OrderDirection` enum. */
export type OrderDirection = "ASC" | "DESC";

/** A `<T>Order` input value. */
export interface OrderInput {
  /** A value of `<T>OrderField`. */
  field: string;
  /** Defaults to `ASC`. */
  direction?: OrderDirection;
}

/** One resolved order term. `path` is an entity property path (`"title"`, `"author.name"`). */
export interface OrderTerm {
  path: string;
  kind: ScalarKind;
  direction: OrderDirection;
  /** The value can be null (sorted as the smallest value). */
  nullable?: boolean;
  /** `<EDGE>_COUNT`: the number of rows of the edge `path`. */
  count?: boolean;
  /** `<EDGE>_<FIELD>`: this property of the row the unique edge `path` points to. */
  field?: string;
  /** The SQL of edge and date terms (`termSql`; set by {@linkcode pageOrder}). */
  sql?: TermSql;
}

/** An order term's SQL: the expression ordered and compared, and the one read for its cursor. */
export interface TermSql {
  /** The expression `ORDER BY` and the keyset compare, on the row alias of the query it is in. */
  expression: RawQueryFragment;
  /** The expression on the row alias `alias`, as SQL text. */
  text(alias: string): string;
  /** The expression selected for the cursor value (the database's own representation). */
  value(alias: string): RawQueryFragment;
}

/** What an order term orders by, as the SQL builder needs it. */
export interface TermSource {
  /** The entity property: a scalar, or the edge of a count or edge-field term. */
  path: string;
  kind: string;
  count?: boolean;
  field?: string;
}

/**
 * The SQL of `term` on the rows of `type`, or `undefined` for a plain property term (ordered by
 * its property path, its cursor value read from the entity).
 *
 * @throws Error when MikroORM's metadata lacks the properties the generated tables name
 */
function termSql(em: EntityManager, type: NodeType, term: TermSource): TermSql | undefined {
  const dialect = dialectOf(em);
  const enumColumn = term.kind === "enum" && dialect === "mysql";
  if (!term.count && !term.field && term.kind !== "time" && !enumColumn) return undefined;
  const q = (name: string) => quoteIdentifiers(em, name);
  const meta = metaOf(em, type.entity);
  const prop = meta.properties[term.path];
  const own = (alias: string, column: string) => `${alias}.${q(column)}`;
  let sql: (alias: string) => string;
  if (term.count) {
    sql = (alias) => {
      if (prop.kind === "m:n") {
        const owner = prop.owner ? prop : metaOf(em, prop.type).properties[prop.mappedBy];
        const columns = prop.owner ? owner.joinColumns : owner.inverseJoinColumns;
        const targetColumns = prop.owner ? owner.inverseJoinColumns : owner.joinColumns;
        return `(select count(*) from ${q(owner.pivotTable)} as ${q("__o")} where ${
          equal(columns, meta.primaryKeys.map((pk) => own(alias, field(meta, pk))), "__o", q)
        }${
          visibleOnly(em, metaOf(em, prop.type), targetColumns.map((c) => `${q("__o")}.${q(c)}`))
        })`;
      }
      const target = metaOf(em, prop.type);
      const back = target.properties[prop.mappedBy];
      return `(select count(*) from ${q(target.tableName)} as ${q("__o")} where ${
        equal(back.fieldNames, back.referencedColumnNames.map((c) => own(alias, c)), "__o", q)
      }${visibleOnly(em, target, keyColumns(target).map((c) => `${q("__o")}.${q(c)}`))})`;
    };
  } else if (term.field) {
    const target = metaOf(em, prop.type);
    const column = q(field(target, term.field));
    sql = (alias) => {
      const condition = prop.owner
        ? equal(prop.referencedColumnNames, prop.fieldNames.map((c) => own(alias, c)), "__o", q)
        : equal(
          target.properties[prop.mappedBy].fieldNames,
          meta.primaryKeys.map((pk) => own(alias, field(meta, pk))),
          "__o",
          q,
        );
      return `(select ${q("__o")}.${column} from ${q(target.tableName)} as ${
        q("__o")
      } where ${condition}${
        visibleOnly(em, target, keyColumns(target).map((c) => `${q("__o")}.${q(c)}`))
      })`;
    };
  } else if (enumColumn) {
    // MariaDB/MySQL sort an ENUM column by declaration index but compare it to a string as a
    // string: order and compare its text instead, as the other dialects do.
    sql = (alias) => `cast(${own(alias, field(meta, term.path))} as char)`;
  } else {
    sql = (alias) => own(alias, field(meta, term.path));
  }
  const time = term.kind === "time";
  return {
    expression: raw(sql),
    text: sql,
    value: (alias) => raw(time ? exactValue(dialect, sql(alias)) : sql(alias)),
  };
}

/** The key columns of `meta`'s table, in key order. */
function keyColumns(meta: EntityMetadata): string[] {
  return meta.primaryKeys.flatMap((pk) => meta.properties[pk].fieldNames);
}

/**
 * ` and (<columns>) in (select <key> from <target> where <read filter>)` when the request's read
 * filter of `target` is active, else `""`: the rows of an edge term's subquery the request may
 * read. The filter's values are written as markers (`database/value_markers.ts`), which the bound
 * connection sends as parameters; a value no marker carries (a buffer) is formatted into the text
 * as MikroORM formats a raw fragment's values (`platform.formatQuery`).
 */
function visibleOnly(em: EntityManager, target: EntityMetadata, columns: string[]): string {
  const keys = visibleKeys(em, target.class);
  if (!keys) return "";
  const tuple = columns.length === 1 ? columns[0] : `(${columns.join(", ")})`;
  const platform = em.getPlatform();
  const text = markValues(
    keys.sql,
    keys.params,
    (token, value) => platform.formatQuery(token, [value]),
  );
  return ` and ${tuple} in (${text})`;
}

function metaOf(em: EntityManager, entity: unknown): EntityMetadata {
  return em.getMetadata().find(entity as never)!;
}

function field(meta: EntityMetadata, prop: string): string {
  return meta.properties[prop].fieldNames[0];
}

function equal(
  columns: string[],
  values: string[],
  alias: string,
  q: (name: string) => string,
): string {
  return columns.map((c, i) => `${q(alias)}.${q(c)} = ${values[i]}`).join(" and ");
}

/**
 * The entities whose read filters the edge terms of `orderBy` read in their subqueries (the
 * targets of `<EDGE>_COUNT` and `<EDGE>_<FIELD>` terms), for `prepareReadFilters`
 * (`plan/read_filters.ts`). Unknown order fields are left to {@linkcode orderTerms} to refuse.
 */
export function orderTargets(
  em: EntityManager,
  type: NodeType,
  orderBy: OrderInput | OrderInput[] | null | undefined,
): Set<string | object> {
  const targets = new Set<string | object>();
  const inputs = orderBy == null ? [] : Array.isArray(orderBy) ? orderBy : [orderBy];
  for (const input of inputs) {
    const field = type.orderFields[input.field];
    if (field && (field.count || field.field)) {
      targets.add(metaOf(em, metaOf(em, type.entity).properties[field.prop].type).class);
    }
  }
  return targets;
}

/**
 * Resolves `orderBy` into order terms (without the id tiebreaker and without SQL).
 *
 * @throws GraphQLError `BAD_USER_INPUT` for an order field the type does not have, or the same
 *   field twice (so a keyset has at most one term per order field)
 */
export function orderTerms(
  type: NodeType,
  orderBy: OrderInput | OrderInput[] | null | undefined,
): OrderTerm[] {
  const inputs = orderBy == null ? [] : Array.isArray(orderBy) ? orderBy : [orderBy];
  return inputs.map((input, i) => {
    const field = type.orderFields[input.field];
    if (!field) {
      throw gqlError(
        ErrorCode.BAD_USER_INPUT,
        `unknown order field ${input.field} for ${type.name}`,
      );
    }
    if (inputs.findIndex((other) => other.field === input.field) < i) {
      throw gqlError(
        ErrorCode.BAD_USER_INPUT,
        `order field ${input.field} is repeated in "orderBy"`,
      );
    }
    return {
      path: field.prop,
      kind: field.kind,
      direction: input.direction ?? "ASC",
      nullable: field.nullable,
      count: field.count,
      field: field.field,
    };
  });
}

/**
 * The full order of a page of `type` under `orderBy`: the resolved terms with their SQL, then the
 * key tiebreaker, one term per part of the key (`keys.ts`; entgql: the single order term's
 * direction, ascending for a `MultiOrder()` list whatever its terms' directions, so entgql orders
 * `status DESC, id`).
 *
 * @param em the request's EntityManager: needed for edge order terms; with it, date terms keep
 *   the database's precision in cursors; without it they are compared as JavaScript dates
 * @param declared the edge's declared order (`EdgeDescription.order`), used when `orderBy` is
 *   absent or empty
 * @throws GraphQLError `BAD_USER_INPUT` (see {@linkcode orderTerms})
 * @throws Error when an edge order term is planned without an EntityManager
 */
export function pageOrder(
  type: NodeType,
  orderBy: OrderInput | OrderInput[] | null | undefined,
  em?: EntityManager,
  declared?: readonly EdgeOrderTerm[],
): OrderTerm[] {
  // Without `orderBy`, an edge's declared order (MikroORM `orderBy` on the collection), the key
  // ascending after it as after a list; the model's own order, so no read rule is checked on it.
  const byDeclared = !!declared?.length && (orderBy == null || [orderBy].flat().length === 0);
  const resolved = byDeclared
    ? declared.map((t): OrderTerm => ({
      path: t.prop,
      kind: t.kind,
      direction: t.direction,
      nullable: t.nullable,
    }))
    : orderTerms(type, orderBy);
  const terms = resolved.map((term, i) => {
    if (em) {
      if (!byDeclared) {
        checkOrderReadable(em, type, term, Array.isArray(orderBy) ? `orderBy[${i}]` : "orderBy");
      }
      return { ...term, sql: termSql(em, type, term) };
    }
    if (term.count || term.field) {
      throw new Error(`ordering ${type.name} by ${term.path} needs planPage(..., em)`);
    }
    return term;
  });
  const idDirection = Array.isArray(orderBy) || byDeclared
    ? "ASC"
    : terms.at(-1)?.direction ?? "ASC";
  const tiebreaker = keyParts(type).map((part): OrderTerm => ({
    path: part.prop,
    kind: part.kind,
    direction: idDirection,
  }));
  return [...terms, ...tiebreaker];
}

/**
 * Refuses an order on a field the viewer may not read on every row (a policy field rule): the
 * row's own field, or for `<EDGE>_<FIELD>` the field of the edge's target.
 *
 * @throws GraphQLError `FORBIDDEN`
 */
function checkOrderReadable(
  em: EntityManager,
  type: NodeType,
  term: OrderTerm,
  path: string,
): void {
  if (term.count) return;
  if (!term.field) {
    checkFieldReadable(em, type.entity, type.name, term.path, path);
    return;
  }
  const target = metaOf(em, metaOf(em, type.entity).properties[term.path].type);
  checkFieldReadable(em, target.class, target.className, term.field, path);
}

/** Where `term` goes in the order, reversed (for `last`) or not. */
function placement(term: OrderTerm, reverse: boolean): { direction: string; nulls?: string } {
  const direction = reverse === (term.direction === "ASC") ? "desc" : "asc";
  if (!term.nullable) return { direction };
  return { direction, nulls: direction === "asc" ? "first" : "last" };
}

/** `terms` as a MikroORM `orderBy` (nulls smallest), reversed for `last` pages. */
export function orderByOf(terms: readonly OrderTerm[], reverse: boolean): QueryOrderMap<object>[] {
  return terms.map((term) => {
    const { direction, nulls } = placement(term, reverse);
    const value = nulls ? `${direction} nulls ${nulls}` : direction;
    return term.sql ? { [term.sql.expression as never]: value } : nest(term.path, value);
  }) as QueryOrderMap<object>[];
}

/**
 * `terms` as SQL text on the row alias `alias` of `type`'s table, the same order as
 * {@linkcode orderByOf} (MariaDB/MySQL get `IS NULL` terms for their missing
 * `NULLS FIRST/LAST`): for a window function's `ORDER BY`, e.g. per-parent pages with
 * `ROW_NUMBER() OVER (PARTITION BY ... ORDER BY <this>)`.
 */
export function orderText(
  em: EntityManager,
  type: NodeType,
  terms: readonly OrderTerm[],
  alias: string,
  reverse: boolean,
): string {
  const mysql = dialectOf(em) === "mysql";
  const meta = metaOf(em, type.entity);
  return terms.flatMap((term) => {
    const { direction, nulls } = placement(term, reverse);
    const sql = term.sql?.text(alias) ??
      `${alias}.${quoteIdentifiers(em, field(meta, term.path))}`;
    if (!nulls) return [`${sql} ${direction}`];
    return mysql
      ? [`${sql} ${nulls === "first" ? "is not null" : "is null"}`, `${sql} ${direction}`]
      : [`${sql} ${direction} nulls ${nulls}`];
  }).join(", ");
}

/**
 * The keyset predicate "after `values`" (`forward`) or "before `values`" in the order `terms`
 * (one value per term, the key's last): `a > x OR (a = x AND b > y) OR (a = x AND b = y AND
 * id > z)`, each comparison in its term's direction. A nullable term treats null as its smallest
 * value: "greater than null" is `IS NOT NULL`, "less than x" is `< x OR IS NULL`, nothing is less
 * than null, and equality to null is `IS NULL`.
 */
export function keyset(
  terms: readonly OrderTerm[],
  values: readonly unknown[],
  forward: boolean,
): FilterQuery<object> {
  const on = (t: OrderTerm, condition: unknown) =>
    t.sql ? { [t.sql.expression as never]: condition } : nest(t.path, condition);
  const branches: FilterQuery<object>[] = [];
  terms.forEach((term, i) => {
    const greater = (term.direction === "ASC") === forward;
    const value = values[i];
    let beyond: FilterQuery<object> | undefined;
    if (!term.nullable) beyond = on(term, { [greater ? "$gt" : "$lt"]: value });
    else if (greater) beyond = on(term, value === null ? { $ne: null } : { $gt: value });
    else if (value !== null) beyond = { $or: [on(term, { $lt: value }), on(term, null)] };
    if (!beyond) return;
    const parts: FilterQuery<object>[] = terms.slice(0, i).map((t, j) => on(t, values[j]));
    parts.push(beyond);
    branches.push(parts.length === 1 ? parts[0] : { $and: parts });
  });
  return branches.length === 1 ? branches[0] : { $or: branches };
}

/** `nest("author.name", v)` is `{ author: { name: v } }`. */
function nest(path: string, value: unknown): Record<string, unknown> {
  return path.split(".").reduceRight<unknown>(
    (inner, key) => ({ [key]: inner }),
    value,
  ) as Record<string, unknown>;
}
