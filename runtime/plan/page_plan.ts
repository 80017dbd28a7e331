/**
 * The SQL side of a page: the keyset predicate, the order and the limit that select one page's
 * rows, from the page's order terms (`order_terms.ts`) and its decoded cursors (`cursor.ts`):
 *
 * - `after`/`before` become the keyset predicate on `(order values, key)` (every part of a
 *   composite key), the expanded
 *   `a > x OR (a = x AND b > y) OR (a = x AND b = y AND id > z)`, null-aware for nullable terms;
 * - `first: n` reads `n + 1` rows, `last: n` reads `n + 1` rows in the reversed order (the Relay
 *   rules that turn them into a connection are `relay_connection.ts`).
 *
 * @module
 */
import type { EntityManager, FilterQuery, QueryOrderMap } from "@mikro-orm/core";
import { type CursorShape, decodeCursor } from "./cursor.ts";
import { keyValueError } from "../column_values.ts";
import { ErrorCode, gqlError, quoteInput } from "../error_codes.ts";
import type { EdgeOrderTerm, NodeType } from "../graph.ts";
import { keyParts, type PrimaryKey } from "../keys.ts";
import {
  type ConnectionPlan,
  type OrderValues,
  type PaginationArgs,
  type PaginationLimits,
  validatePagination,
} from "./relay_connection.ts";
import {
  keyset,
  orderByOf,
  type OrderInput,
  type OrderTerm,
  orderText,
  pageOrder,
} from "./order_terms.ts";

/** The rows to fetch for one page: filter, order and limit, ready for `em.find`. */
export interface PageQuery {
  /** The keyset predicate (`{}` when there is no cursor). */
  where: FilterQuery<object>;
  /** The order, id last, already reversed for `last`. */
  orderBy: QueryOrderMap<object>[];
  /** `first + 1` or `last + 1`; `undefined` fetches all rows. */
  limit?: number;
}

/** A planned page: what to fetch and how to turn the fetched rows into a connection. */
export interface PagePlan extends ConnectionPlan {
  query: PageQuery;
  /** The full order: {@linkcode ConnectionPlan.terms}, then the key tiebreaker (`keys.ts`). */
  order: OrderTerm[];
}

/**
 * Plans one page of `type` under `args`: validates the arguments, decodes the cursors and builds
 * the keyset predicate, the order and the limit.
 *
 * @param em the request's EntityManager: needed for edge order terms; with it, date terms keep
 *   the database's precision in cursors (their values are then read by `fillOrderValues`);
 *   without it they are compared as JavaScript dates
 * @param declared an edge's declared order, used without `orderBy` (`EdgeDescription.order`)
 * @throws GraphQLError `INVALID_PAGINATION`, `INVALID_CURSOR` or `BAD_USER_INPUT`
 * @throws Error when an edge order term is planned without an EntityManager
 */
export function planPage(
  type: NodeType,
  args: PaginationArgs,
  limits?: PaginationLimits,
  em?: EntityManager,
  declared?: readonly EdgeOrderTerm[],
): PagePlan {
  validatePagination(args, limits);
  const order = pageOrder(type, args.orderBy, em, declared);
  const parts = keyParts(type);
  const terms = order.slice(0, -parts.length);
  const shape: CursorShape = {
    idKinds: parts.map((part) => part.kind),
    valueKinds: terms.map((t) =>
      !t.sql ? t.kind : t.kind === "time" ? "exactTime" : t.count ? "int" : "exact"
    ),
    order: orderKey(args.orderBy),
    type: type.name,
  };
  const conditions: FilterQuery<object>[] = [];
  for (const [name, forward] of [["after", true], ["before", false]] as const) {
    const value = args[name];
    if (value == null) continue;
    const cursor = decodeCursor(value, shape, name);
    const id = parts.length === 1 ? [cursor.id] : cursor.id as unknown[];
    // A key its column cannot hold (beyond an integer type, a malformed UUID): no row's cursor.
    const pk = parts.length === 1 ? cursor.id as PrimaryKey : JSON.stringify(id);
    if (em && keyValueError(em, type, pk, name)) {
      throw gqlError(
        ErrorCode.INVALID_CURSOR,
        `invalid cursor in "${name}": a key no ${type.name} can have (${quoteInput(value)})`,
      );
    }
    conditions.push(keyset(order, [...cursor.values, ...id], forward));
  }
  const size = args.first ?? args.last;
  return new Page(
    {
      where: conditions.length === 0
        ? {}
        : conditions.length === 1
        ? conditions[0]
        : { $and: conditions },
      orderBy: orderByOf(order, args.last != null),
      limit: size == null ? undefined : size + 1,
    },
    order,
    terms,
    shape,
    args,
    type,
  );
}

/** A planned page; its `values` are made when first read (only SQL order terms have any). */
class Page implements PagePlan {
  #values: OrderValues | undefined;

  constructor(
    readonly query: PageQuery,
    readonly order: OrderTerm[],
    readonly terms: OrderTerm[],
    readonly shape: CursorShape,
    readonly args: PaginationArgs,
    readonly type: NodeType,
  ) {}

  get values(): OrderValues {
    return this.#values ??= new WeakMap();
  }
}

/**
 * Makes `plan` read exactly `first`/`last` rows instead of one more: for a page whose
 * `hasNextPage`/`hasPreviousPage` is not selected. `toConnection` then cannot see whether more
 * rows exist and reports `false` for the unselected flag.
 */
export function withoutExtraRow(plan: PagePlan): void {
  // `first: 0` keeps its single row: a limit of 0 reads as "no limit" in places.
  if (plan.query.limit !== undefined && plan.query.limit > 1) plan.query.limit -= 1;
}

/**
 * `plan`'s order as SQL text on the row alias `alias`, the same order as `plan.query.orderBy`
 * (see `orderText` in `order_terms.ts`): for a window function's `ORDER BY`.
 */
export function orderSql(em: EntityManager, plan: PagePlan, alias: string): string {
  return orderText(em, plan.type, plan.order, alias, plan.args.last != null);
}

function orderKey(orderBy: OrderInput | OrderInput[] | null | undefined): string {
  const inputs = orderBy == null ? [] : Array.isArray(orderBy) ? orderBy : [orderBy];
  return inputs.map((o) => o.field).join(",");
}
