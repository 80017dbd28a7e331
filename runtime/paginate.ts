/**
 * Keyset (cursor) pagination with the semantics of the GraphQL Cursor Connections Specification
 * and entgql's `Paginate`:
 *
 * - rows are ordered by the order terms, then by the primary key (the tiebreaker that makes the
 *   order total): in the direction of a single order term, ascending after a `MultiOrder()` list
 *   (entgql); nulls sort as the smallest value (first ascending, last descending) on every
 *   dialect;
 * - `after`/`before` become a keyset predicate on `(order values, id)`, the expanded
 *   `a > x OR (a = x AND b > y) OR (a = x AND b = y AND id > z)`, null-aware for nullable terms;
 * - edge terms (`<EDGE>_COUNT`, `<EDGE>_<FIELD>`) and dates are SQL expressions over the row
 *   (`order.ts`) whose cursor values are read from the database with the rows' keys in one query
 *   ({@linkcode fillOrderValues}), keeping the database's full precision;
 * - `first: n` fetches `n + 1` rows, `last: n` fetches `n + 1` rows in the reversed order and
 *   reverses the page back; the extra row only tells whether another page exists (so `first: 0`
 *   with rows after the cursor has `hasNextPage: true`, as the Relay spec and entgql say);
 * - `hasNextPage = before given || extra row with first`,
 *   `hasPreviousPage = after given || extra row with last`;
 * - `startCursor`/`endCursor` are `null` on an empty page;
 * - `totalCount` is a thunk, so the count query runs only when the field is selected.
 *
 * @module
 */
import {
  type EntityManager,
  type FilterQuery,
  helper,
  type QueryOrderMap,
  Reference,
  Utils,
} from "@mikro-orm/core";
import type { SqlEntityManager } from "@mikro-orm/sql";
import { type Cursor, type CursorShape, decodeCursor, encodeCursor } from "./cursor.ts";
import { ErrorCode, gqlError } from "./errors.ts";
import type { NodeType, ScalarKind } from "./graph.ts";
import { dialectOf } from "./dialect.ts";
import { type TermSql, termSql } from "./order.ts";
import { readConnection } from "./read_from.ts";

/** `ASC` or `DESC`, the values of the `OrderDirection` enum. */
export type OrderDirection = "ASC" | "DESC";

/** A `<T>Order` input value. */
export interface OrderInput {
  /** A value of `<T>OrderField`. */
  field: string;
  /** Defaults to `ASC`. */
  direction?: OrderDirection;
}

/** The pagination arguments of a connection field. */
export interface PaginationArgs {
  /** Rows after this cursor. */
  after?: string | null;
  /** The first `n` rows (`n >= 0`); not with `last`. */
  first?: number | null;
  /** Rows before this cursor. */
  before?: string | null;
  /** The last `n` rows (`n >= 0`); not with `first`. */
  last?: number | null;
  /** One order, or a list of orders for `MultiOrder()` types. */
  orderBy?: OrderInput | OrderInput[] | null;
}

/** Limits applied to pagination arguments. */
export interface PaginationLimits {
  /** Largest `first`/`last` accepted; default 1000. */
  maxPageSize?: number;
}

/** `PageInfo` of the Relay connection specification. */
export interface PageInfo {
  /** `before` was given, or `first` found more rows. */
  hasNextPage: boolean;
  /** `after` was given, or `last` found more rows. */
  hasPreviousPage: boolean;
  /** Cursor of the first edge; `null` on an empty page. */
  startCursor: string | null;
  /** Cursor of the last edge; `null` on an empty page. */
  endCursor: string | null;
}

/** A connection edge: the node and its opaque cursor (encoded when read). */
export interface Edge<T> {
  /** The node (an entity or a plain record of the loaded columns). */
  node: T;
  /** The edge's opaque cursor, base64url text (spec: Relay cursor connections). */
  cursor: string;
}

/** A connection; `totalCount` is resolved lazily by the `<T>Connection.totalCount` resolver. */
export interface Connection<T> {
  /** The page's edges, in the requested order. */
  edges: Edge<T>[];
  /** Whether more pages exist, and the cursors of the page's ends. */
  pageInfo: PageInfo;
  /** Counts every node of the connection (ignoring the page); called only when selected. */
  totalCount: () => Promise<number> | number;
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
  /** The SQL of edge and date terms (set by {@linkcode planPage} when given an EntityManager). */
  sql?: TermSql;
}

/** The rows to fetch for one page: filter, order and limit, ready for `em.find`. */
export interface PageQuery {
  /** The keyset predicate (`{}` when there is no cursor). */
  where: FilterQuery<object>;
  /** The order, id last, already reversed for `last`. */
  orderBy: QueryOrderMap<object>[];
  /** `first + 1` or `last + 1`; `undefined` fetches all rows. */
  limit?: number;
}

/** Row -> its cursor values of the SQL terms, filled by {@linkcode fillOrderValues}. */
export type OrderValues = WeakMap<object, unknown[]>;

/** A planned page: what to fetch and how to turn the fetched rows into a connection. */
export interface PagePlan {
  query: PageQuery;
  /** The order terms without the id term. */
  terms: OrderTerm[];
  /** The type's primary-key property. */
  idProp: string;
  /** The cursor shape for encoding. */
  shape: CursorShape;
  args: PaginationArgs;
  /** The node type paginated. */
  type: NodeType;
  /** The database values of SQL terms per fetched row (see {@linkcode fillOrderValues}). */
  values: OrderValues;
}

const DEFAULT_MAX_PAGE_SIZE = 1000;

/**
 * Validates `first`/`last`.
 *
 * @throws GraphQLError `INVALID_PAGINATION` naming the argument when both are given, one is
 *   negative, or one exceeds `maxPageSize`
 */
export function validatePagination(
  args: PaginationArgs,
  limits: PaginationLimits = {},
): void {
  const max = limits.maxPageSize ?? DEFAULT_MAX_PAGE_SIZE;
  if (args.first != null && args.last != null) {
    throw gqlError(
      ErrorCode.INVALID_PAGINATION,
      `"first" and "last" cannot be given together`,
    );
  }
  for (const name of ["first", "last"] as const) {
    const value = args[name];
    if (value == null) continue;
    if (value < 0) {
      throw gqlError(
        ErrorCode.INVALID_PAGINATION,
        `"${name}" must be a non-negative integer, got ${value}`,
      );
    }
    if (value > max) {
      throw gqlError(
        ErrorCode.INVALID_PAGINATION,
        `"${name}" must be at most ${max}, got ${value}`,
      );
    }
  }
}

/**
 * Resolves `orderBy` into order terms.
 *
 * @throws GraphQLError `BAD_USER_INPUT` for an order field the type does not have, or the same
 *   field twice (so a keyset has at most one term per order field)
 */
export function orderTerms(
  type: NodeType,
  orderBy: PaginationArgs["orderBy"],
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
 * Plans one page of `type` under `args`: validates the arguments, decodes the cursors and builds
 * the keyset predicate, the order and the limit.
 *
 * @param em the request's EntityManager: needed for edge order terms; with it, date terms keep
 *   the database's precision in cursors (their values are then read by
 *   {@linkcode fillOrderValues}); without it they are compared as JavaScript dates
 * @throws GraphQLError `INVALID_PAGINATION`, `INVALID_CURSOR` or `BAD_USER_INPUT`
 * @throws Error when an edge order term is planned without an EntityManager
 */
export function planPage(
  type: NodeType,
  args: PaginationArgs,
  limits?: PaginationLimits,
  em?: EntityManager,
): PagePlan {
  validatePagination(args, limits);
  const terms = orderTerms(type, args.orderBy).map((term) => {
    if (em) return { ...term, sql: termSql(em, type, term) };
    if (term.count || term.field) {
      throw new Error(`ordering ${type.name} by ${term.path} needs planPage(..., em)`);
    }
    return term;
  });
  const shape: CursorShape = {
    idKind: type.id.kind,
    valueKinds: terms.map((t) =>
      !t.sql ? t.kind : t.kind === "time" ? "exactTime" : t.count ? "int" : "exact"
    ),
    order: orderKey(args.orderBy),
    type: type.name,
  };
  const idDirection = idOrder(args.orderBy, terms);
  const all = [...terms, {
    path: type.id.prop,
    kind: "int" as ScalarKind,
    direction: idDirection,
  }];
  const conditions: FilterQuery<object>[] = [];
  if (args.after != null) {
    conditions.push(
      keyset(all, decodeCursor(args.after, shape, "after"), true),
    );
  }
  if (args.before != null) {
    conditions.push(
      keyset(all, decodeCursor(args.before, shape, "before"), false),
    );
  }
  const reverse = args.last != null;
  const orderBy = all.map((t) => {
    const direction = flip(t.direction, reverse).toLowerCase();
    const nulls = !t.nullable ? "" : direction === "asc" ? " nulls first" : " nulls last";
    return t.sql
      ? { [t.sql.expression as never]: direction + nulls }
      : nest(t.path, direction + nulls);
  });
  const size = args.first ?? args.last;
  return {
    query: {
      where: conditions.length === 0
        ? {}
        : conditions.length === 1
        ? conditions[0]
        : { $and: conditions },
      orderBy: orderBy as QueryOrderMap<object>[],
      limit: size == null ? undefined : size + 1,
    },
    terms,
    idProp: type.id.prop,
    shape,
    args,
    type,
    values: new WeakMap(),
  };
}

/**
 * Makes `plan` read exactly `first`/`last` rows instead of one more: for a page whose
 * `hasNextPage`/`hasPreviousPage` is not selected. {@linkcode toConnection} then cannot see
 * whether more rows exist and reports `false` for the unselected flag.
 */
export function withoutExtraRow(plan: PagePlan): void {
  // `first: 0` keeps its single row: a limit of 0 reads as "no limit" in places.
  if (plan.query.limit !== undefined && plan.query.limit > 1) plan.query.limit -= 1;
}

/**
 * Turns the rows fetched for `plan` into a connection: drops the extra row, reverses `last`
 * pages back, computes `PageInfo` and the cursors.
 *
 * @param rows rows in the order of `plan.query.orderBy` (reversed for `last`)
 * @param count the thunk behind `totalCount`
 */
export function toConnection<T extends object>(
  plan: PagePlan,
  rows: T[],
  count: () => Promise<number> | number,
): Connection<T> {
  const { args } = plan;
  let page = rows;
  let hasNextPage = args.before != null;
  let hasPreviousPage = args.after != null;
  if (args.first != null && page.length > args.first) {
    hasNextPage = true;
    page = page.slice(0, args.first);
  }
  if (args.last != null) {
    if (page.length > args.last) {
      hasPreviousPage = true;
      page = page.slice(0, args.last);
    }
    page = page.toReversed();
  }
  // Cursors are getters: encoded only when the operation selects them.
  const edges = page.map((node) => ({
    node,
    get cursor() {
      return cursorOf(plan, node);
    },
  }));
  return {
    edges,
    pageInfo: {
      hasNextPage,
      hasPreviousPage,
      get startCursor() {
        return edges[0]?.cursor ?? null;
      },
      get endCursor() {
        return edges.at(-1)?.cursor ?? null;
      },
    },
    totalCount: count,
  };
}

/**
 * Fetches and builds one page: {@linkcode planPage}, then `fetch`, then
 * {@linkcode fillOrderValues} when the order has SQL terms, then {@linkcode toConnection}.
 *
 * @param fetch runs the page query (`em.find`, `Collection.matching`, ...)
 * @param count counts all rows of the connection (without the keyset), run only when selected
 * @param em the request's EntityManager (see {@linkcode planPage})
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
  const pk = (row: object) => String(valueAt(row, plan.idProp));
  const meta = em.getMetadata().find(plan.type.entity)!;
  const pkColumn = meta.properties[plan.idProp].fieldNames[0];
  const found: Record<string, unknown>[] = await (em as SqlEntityManager)
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
    const values = byKey.get(pk(row));
    if (values) plan.values.set(row, values);
  }
}

/**
 * The cursor of `node` under `plan`.
 *
 * @throws Error when the order has SQL terms and {@linkcode fillOrderValues} did not read them
 */
export function cursorOf(plan: PagePlan, node: object): string {
  const sqlValues = plan.terms.some((t) => t.sql) ? plan.values.get(node) : undefined;
  if (plan.terms.some((t) => t.sql) && !sqlValues) {
    throw new Error("cursor values of SQL order terms were not read: call fillOrderValues()");
  }
  let next = 0;
  const cursor: Cursor = {
    id: valueAt(node, plan.idProp),
    values: plan.terms.map((t) => t.sql ? sqlValues![next++] : valueAt(node, t.path)),
    order: plan.shape.order,
    type: plan.type.name,
  };
  return encodeCursor(cursor);
}

/**
 * `plan`'s order as SQL text on the row alias `alias`, the same order as `plan.query.orderBy`
 * (id last, reversed for `last`, nulls smallest; MariaDB/MySQL get `IS NULL` terms for their
 * missing `NULLS FIRST/LAST`): for a window function's `ORDER BY`, e.g. per-parent pages with
 * `ROW_NUMBER() OVER (PARTITION BY ... ORDER BY <this>)`.
 */
export function orderSql(em: EntityManager, plan: PagePlan, alias: string): string {
  const dialect = dialectOf(em);
  const meta = em.getMetadata().find(plan.type.entity)!;
  const reverse = plan.args.last != null;
  const id: OrderTerm = {
    path: plan.idProp,
    kind: "int",
    direction: idOrder(plan.args.orderBy, plan.terms),
  };
  return [...plan.terms, id].flatMap((term) => {
    const direction = flip(term.direction, reverse).toLowerCase();
    const sql = term.sql?.text(alias) ??
      `${alias}.${em.getPlatform().quoteIdentifier(meta.properties[term.path].fieldNames[0])}`;
    if (!term.nullable) return [`${sql} ${direction}`];
    const nullsFirst = direction === "asc";
    return dialect === "mysql"
      ? [`${sql} ${nullsFirst ? "is not null" : "is null"}`, `${sql} ${direction}`]
      : [`${sql} ${direction} nulls ${nullsFirst ? "first" : "last"}`];
  }).join(", ");
}

/**
 * The direction of the id tiebreaker (entgql): the single order term's direction, ascending for
 * a `MultiOrder()` list whatever its terms' directions (entgql orders `status DESC, id`).
 */
function idOrder(orderBy: PaginationArgs["orderBy"], terms: OrderTerm[]): OrderDirection {
  return Array.isArray(orderBy) ? "ASC" : terms.at(-1)?.direction ?? "ASC";
}

function orderKey(orderBy: PaginationArgs["orderBy"]): string {
  const inputs = orderBy == null ? [] : Array.isArray(orderBy) ? orderBy : [orderBy];
  return inputs.map((o) => o.field).join(",");
}

function flip(direction: OrderDirection, reverse: boolean): OrderDirection {
  return reverse ? (direction === "ASC" ? "DESC" : "ASC") : direction;
}

/**
 * The keyset predicate "after `cursor`" (`forward`) or "before `cursor`" in the order `terms`:
 * `a > x OR (a = x AND b > y) OR (a = x AND b = y AND id > z)`, each comparison in its term's
 * direction. A nullable term treats null as its smallest value: "greater than null" is
 * `IS NOT NULL`, "less than x" is `< x OR IS NULL`, nothing is less than null, and equality to
 * null is `IS NULL`.
 */
function keyset(
  terms: OrderTerm[],
  cursor: Cursor,
  forward: boolean,
): FilterQuery<object> {
  const values = [...cursor.values, cursor.id];
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
  ) as Record<
    string,
    unknown
  >;
}

function valueAt(row: object, path: string): unknown {
  let value: unknown = row;
  for (const key of path.split(".")) {
    value = (value as Record<string, unknown> | null)?.[key];
  }
  // A relation primary key (a shipment keyed by its order): the key of the row it points to.
  if (Reference.isReference(value)) value = value.unwrap();
  return Utils.isEntity(value) ? helper(value).getPrimaryKey() : value;
}
