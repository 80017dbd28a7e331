/**
 * The row limit of every statement that reads the nodes of a list or a connection (root pages,
 * nested pages and list edges): its share of the request's node budget (`node_budget.ts`), the
 * SQL `LIMIT` it gets from it, and the charge of the nodes it read.
 *
 * - A statement whose page bounds its nodes (`first`/`last` times its parents) to what the
 *   budget has neither spent nor reserved reserves that bound and runs at once, concurrently
 *   with the others, without a budget `LIMIT`.
 * - A statement over {@linkcode PROBE_NODES} whose caller can count its nodes in SQL (root pages,
 *   the pages and list edges `load_collected.ts` reads for all parents of a level) reads that many
 *   nodes + 1 first, as a bounded statement; when it has more, its count is compared with what
 *   is neither spent nor promised to the counted statements reading now: over it, the request is
 *   `QUERY_TOO_COMPLEX` at once (a refused statement materialises at most 1,001 nodes), else it
 *   reserves its count and reads.
 * - Any other statement (no `first`/`last`, or a bound over what is left) waits until the
 *   statements before it finished and runs alone, with `LIMIT` = the nodes left + 1 (+ the rows
 *   that only tell `hasNextPage`): reading more nodes than are left makes the request
 *   `QUERY_TOO_COMPLEX`.
 *
 * Once the request is refused no statement reads anything more, and those still reading drop
 * their rows when they arrive.
 *
 * The outcome does not depend on the order statements run in: a request is refused exactly when
 * its nodes add up to more than the budget. The `LIMIT` is a number the statement's query
 * builder receives (`qb.limit`), never SQL text.
 *
 * @module
 */
import type { GraphQLError } from "graphql";
import { ErrorCode, gqlError } from "../error_codes.ts";
import type { NodeBudget } from "../node_budget.ts";
import type { PaginationArgs } from "../plan/relay_connection.ts";
import type { PageQuery } from "../plan/page_plan.ts";

/** What one statement may read, as its caller knows before sending it. */
export interface RowBound {
  /** Most nodes its page allows (page size times parents); `undefined` when unbounded. */
  nodes: number | undefined;
  /**
   * Rows it may read beyond its nodes: the row past `first`/`last` per parent that only tells
   * whether another page exists (0 when `hasNextPage`/`hasPreviousPage` is not selected).
   */
  extra: number;
}

/**
 * Most nodes a statement with a count reads before its count is asked: a smaller result is its
 * answer (one statement, the common case); for a larger one the count decides before the rows
 * are read, so a refused statement materialises at most this many nodes + 1.
 */
export const PROBE_NODES = 1_000;

/**
 * Runs the statement `read` within `budget`: `read` receives the SQL `LIMIT` to apply (besides
 * its page's own), or `undefined` when its page's bound fits the budget; `nodes` counts the nodes
 * of what it read, which are charged.
 *
 * With `count` (the nodes the statement reads, counted by SQL without reading them), a statement
 * whose bound is over {@linkcode PROBE_NODES} reads that many nodes + 1 first, concurrently with
 * the others; when it has more, its count is compared with what the budget has not spent nor
 * promised to counted statements running now: over it, the request is refused at once with those
 * rows unread, and statements still reading drop their rows when they finish; else it reserves
 * its count and reads. Without `count`, a statement that may exceed what is left runs alone with
 * `LIMIT` = the nodes left + 1.
 *
 * @throws GraphQLError `QUERY_TOO_COMPLEX` ("reads more than N nodes") when the nodes read (or
 *   counted) go over the budget, or when another statement of the request did; `read`'s and
 *   `count`'s own errors
 */
export async function readWithinBudget<T>(
  budget: NodeBudget,
  bound: RowBound,
  read: (limit: number | undefined) => Promise<T>,
  nodes: (result: T) => number,
  count?: () => Promise<number>,
): Promise<T> {
  if (!count || (bound.nodes !== undefined && bound.nodes <= PROBE_NODES)) {
    return await reserved(budget, bound.nodes, (reservation) => {
      const fits = bound.nodes !== undefined && bound.nodes <= reservation;
      return readAndCharge(
        budget,
        reservation,
        fits ? undefined : reservation + 1 + bound.extra,
        read,
        nodes,
      );
    });
  }
  const probed = await reserved(budget, PROBE_NODES, async (reservation) => {
    const result = await read(reservation + 1 + bound.extra);
    // Fewer nodes than the LIMIT: every row was read (the extra rows are not nodes).
    if (nodes(result) <= reservation || reservation < PROBE_NODES) {
      return { result: charge(budget, reservation, result, nodes) };
    }
    return undefined;
  });
  if (probed) return probed.result;
  const counted = await count();
  if (budget.exceeded) throw overBudget(budget);
  if (counted > budget.max - budget.spent - budget.counted) throw exceeded(budget);
  budget.counted += counted;
  let result: T | undefined;
  try {
    result = await reserved(budget, counted, async (reservation) => {
      const result = await read(reservation + 1 + bound.extra);
      // over its count: rows came in since; read again below, alone
      return nodes(result) > counted && reservation === counted
        ? undefined
        : charge(budget, reservation, result, nodes);
    });
  } finally {
    budget.counted -= counted;
  }
  return result ?? await reserved(
    budget,
    undefined,
    (reservation) => readAndCharge(budget, reservation, reservation + 1 + bound.extra, read, nodes),
  );
}

/** `read` with `limit`, its nodes charged within `reservation`. */
async function readAndCharge<T>(
  budget: NodeBudget,
  reservation: number,
  limit: number | undefined,
  read: (limit: number | undefined) => Promise<T>,
  nodes: (result: T) => number,
): Promise<T> {
  return charge(budget, reservation, await read(limit), nodes);
}

/**
 * Runs `run` with the nodes reserved for a statement bounded by `nodes` (`undefined`: no
 * bound), once its turn comes; the reservation is given back when `run` settles.
 *
 * @throws GraphQLError `QUERY_TOO_COMPLEX` when the budget is exceeded by then
 */
async function reserved<T>(
  budget: NodeBudget,
  nodes: number | undefined,
  run: (reservation: number) => Promise<T>,
): Promise<T> {
  const reservation = await admission(budget, nodes);
  try {
    if (budget.exceeded) throw overBudget(budget);
    return await run(reservation);
  } finally {
    release(budget, reservation);
  }
}

/** Charges the nodes of `result` within `reservation`, or refuses the request over it. */
function charge<T>(
  budget: NodeBudget,
  reservation: number,
  result: T,
  nodes: (result: T) => number,
): T {
  const count = nodes(result);
  if (count > reservation) throw exceeded(budget);
  // refused meanwhile: the rows are dropped at once, not answered
  if (budget.exceeded) throw overBudget(budget);
  budget.spent += count;
  return result;
}

/** Marks the budget exceeded: no statement of the request reads anything more. */
function exceeded(budget: NodeBudget): GraphQLError {
  budget.exceeded = true;
  return overBudget(budget);
}

/** The `QUERY_TOO_COMPLEX` error of a request over its node budget. */
function overBudget(budget: NodeBudget): GraphQLError {
  return gqlError(
    ErrorCode.QUERY_TOO_COMPLEX,
    `the operation reads more than ${budget.max} nodes of lists and connections; the limit is ${budget.limit}: add first/last to its connections`,
  );
}

/** What the budget has neither spent nor reserved. */
function left(budget: NodeBudget): number {
  return budget.max - budget.spent - budget.reserved;
}

/** Whether a statement bounded by `nodes` may run now, and what it then reserves. */
function reservationFor(budget: NodeBudget, nodes: number | undefined): number | undefined {
  if (budget.exceeded) return 0;
  if (nodes !== undefined && nodes <= left(budget)) return nodes;
  // The statement runs alone, reserving everything left.
  return budget.reserved === 0 ? left(budget) : undefined;
}

/** Waits for the statement's turn; returns the nodes reserved for it. */
function admission(budget: NodeBudget, nodes: number | undefined): Promise<number> {
  if (budget.waiting.length === 0) {
    const reservation = reservationFor(budget, nodes);
    if (reservation !== undefined) {
      budget.reserved += reservation;
      return Promise.resolve(reservation);
    }
  }
  return new Promise((admit) => budget.waiting.push({ bound: nodes, admit }));
}

/** Gives back `reservation` and lets the waiting statements run that now may, in order. */
function release(budget: NodeBudget, reservation: number): void {
  budget.reserved -= reservation;
  while (budget.waiting.length > 0) {
    const reservation = reservationFor(budget, budget.waiting[0].bound);
    if (reservation === undefined) return;
    budget.reserved += reservation;
    budget.waiting.shift()!.admit(reservation);
  }
}

/** What {@linkcode pageBound} and {@linkcode pageNodes} read of a page (a `PagePlan` is one). */
export interface PageShape {
  /** The page's `first`/`last`. */
  readonly args: Pick<PaginationArgs, "first" | "last">;
  /** The page's `LIMIT`: `first`/`last`, + 1 when the next page's existence is asked. */
  readonly query: Pick<PageQuery, "limit">;
}

/**
 * The bound of a statement reading `page` for `parents` parents: `first`/`last` nodes per
 * parent and the extra row per parent `page.query.limit` adds; no bound without `first`/`last`.
 */
export function pageBound(page: PageShape, parents: number): RowBound {
  const size = page.args.first ?? page.args.last;
  if (size == null || page.query.limit === undefined) return { nodes: undefined, extra: 0 };
  return { nodes: size * parents, extra: (page.query.limit - size) * parents };
}

/**
 * The nodes of `page` among rows read for it, given each parent's row count: all of them without
 * `first`/`last`, else at most `first`/`last` per parent (the extra row is no node).
 */
export function pageNodes(page: PageShape, rowsPerParent: Iterable<number>): number {
  const size = page.args.first ?? page.args.last;
  let nodes = 0;
  for (const rows of rowsPerParent) nodes += size == null ? rows : Math.min(rows, size);
  return nodes;
}

/** The smaller of a page's `LIMIT` and the budget's; `undefined` when neither is given. */
export function smallerLimit(
  page: number | undefined,
  budget: number | undefined,
): number | undefined {
  return page === undefined ? budget : budget === undefined ? page : Math.min(page, budget);
}
