/**
 * The Relay rules of a connection, with the semantics of the GraphQL Cursor Connections
 * Specification and entgql's `Paginate`, without any SQL (the page's query is `page_plan.ts`):
 *
 * - `first`/`last` are validated ({@linkcode validatePagination});
 * - `first: n` fetches `n + 1` rows, `last: n` fetches `n + 1` rows in the reversed order and
 *   {@linkcode toConnection} reverses the page back; the extra row only tells whether another
 *   page exists (so `first: 0` with rows after the cursor has `hasNextPage: true`, as the Relay
 *   spec and entgql say);
 * - the spec's `HasNextPage`/`HasPreviousPage`: with `first`, `hasNextPage` is whether the extra
 *   row was read (`before` or not), without it whether `before` was given; with `last`,
 *   `hasPreviousPage` is whether the extra row was read, without it whether `after` was given
 *   (the spec's "the server can efficiently determine that elements exist prior to `after`":
 *   the cursor's row; graphql-relay-js answers `false` there, and agrees everywhere else,
 *   `tests/graphql/relay_oracle_test.ts`);
 * - `startCursor`/`endCursor` are `null` on an empty page; cursors ({@linkcode cursorOf}) hold
 *   the order values and the key of their row (every part of a composite key);
 * - `totalCount` is a thunk, so the count query runs only when the field is selected.
 *
 * @module
 */
import { helper, Reference, Utils } from "@mikro-orm/core";
import { type Cursor, type CursorShape, encodeCursor } from "./cursor.ts";
import { ErrorCode, gqlError } from "../error_codes.ts";
import type { NodeType } from "../graph.ts";
import { keyValues } from "../keys.ts";
import type { OrderInput, OrderTerm } from "./order_terms.ts";

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
  /** The edge's opaque cursor, base64url text (Relay's cursor connections spec). */
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

/** Row -> its cursor values of the SQL terms, filled by `fillOrderValues` (`read/paginate.ts`). */
export type OrderValues = WeakMap<object, unknown[]>;

/** What turns fetched rows into a connection: the arguments and how cursors are made. */
export interface ConnectionPlan {
  /** The order terms without the key terms. */
  terms: OrderTerm[];
  /** The cursor shape for encoding. */
  shape: CursorShape;
  args: PaginationArgs;
  /** The node type paginated. */
  type: NodeType;
  /** The database values of SQL terms per fetched row (filled by `fillOrderValues`). */
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
 * Turns the rows fetched for `plan` into a connection: drops the extra row, reverses `last`
 * pages back, computes `PageInfo` and the cursors.
 *
 * @param rows rows in the page query's order (reversed for `last`)
 * @param count the thunk behind `totalCount`
 */
export function toConnection<T extends object>(
  plan: ConnectionPlan,
  rows: T[],
  count: () => Promise<number> | number,
): Connection<T> {
  const { args } = plan;
  let page = rows;
  // The spec's HasNextPage / HasPreviousPage: with `first` (`last`), whether it cut the rows
  // the cursors leave; without it, whether `before` (`after`) was given (a row exists beyond it).
  let hasNextPage = args.before != null;
  let hasPreviousPage = args.after != null;
  if (args.first != null) {
    hasNextPage = page.length > args.first;
    if (hasNextPage) page = page.slice(0, args.first);
  }
  if (args.last != null) {
    hasPreviousPage = page.length > args.last;
    if (hasPreviousPage) page = page.slice(0, args.last);
    page = page.toReversed();
  }
  const edges = new Array<Edge<T>>(page.length);
  for (let i = 0; i < page.length; i++) edges[i] = new LazyEdge(plan, page[i]);
  return {
    edges,
    pageInfo: new LazyPageInfo(edges, hasNextPage, hasPreviousPage),
    totalCount: count,
  };
}

/**
 * A connection's `PageInfo` whose cursors are its first and last edges', encoded only when
 * selected (accessors on the class, not two closures per connection).
 */
class LazyPageInfo<T> implements PageInfo {
  constructor(
    private readonly edges: readonly Edge<T>[],
    readonly hasNextPage: boolean,
    readonly hasPreviousPage: boolean,
  ) {}

  get startCursor(): string | null {
    return this.edges[0]?.cursor ?? null;
  }

  get endCursor(): string | null {
    return this.edges.at(-1)?.cursor ?? null;
  }
}

/**
 * An edge whose cursor is encoded only when the operation selects it, once (`endCursor` is the
 * last edge's).
 */
class LazyEdge<T extends object> implements Edge<T> {
  #cursor: string | undefined;

  constructor(private readonly plan: ConnectionPlan, readonly node: T) {}

  get cursor(): string {
    return this.#cursor ??= cursorOf(this.plan, this.node);
  }
}

const NO_VALUES: readonly unknown[] = Object.freeze([]);

/**
 * The cursor of `node` under `plan`.
 *
 * @throws Error when the order has SQL terms and `fillOrderValues` did not read them
 */
export function cursorOf(plan: ConnectionPlan, node: object): string {
  const { terms } = plan;
  let values = NO_VALUES as unknown[];
  if (terms.length > 0) {
    const sqlValues = plan.values.get(node);
    values = new Array(terms.length);
    let next = 0;
    for (let i = 0; i < terms.length; i++) {
      if (!terms[i].sql) values[i] = valueAt(node, terms[i].path);
      else if (sqlValues) values[i] = sqlValues[next++];
      else {throw new Error(
          "cursor values of SQL order terms were not read: call fillOrderValues()",
        );}
    }
  }
  const cursor: Cursor = {
    id: cursorId(plan.type, node),
    values,
    order: plan.shape.order,
    type: plan.type.name,
  };
  return encodeCursor(cursor);
}

/** A cursor's id of `node`: its key's value, or the list of the values of a composite key's parts. */
function cursorId(type: NodeType, node: object): unknown {
  const values = keyValues(type, node);
  return type.id.parts ? values : values[0];
}

/**
 * The value of `row` (an entity or a record) at the property path `path`; a reference or an
 * entity found there (a relation primary key: a shipment keyed by its order) gives the primary
 * key of the row it points to.
 */
export function valueAt(row: object, path: string): unknown {
  let value: unknown = row;
  for (const key of path.split(".")) {
    value = (value as Record<string, unknown> | null)?.[key];
  }
  if (Reference.isReference(value)) value = value.unwrap();
  return Utils.isEntity(value) ? helper(value).getPrimaryKey() : value;
}
