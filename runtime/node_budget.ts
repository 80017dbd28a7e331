/**
 * The node budget of a request: how many nodes of lists and connections its SQL statements may
 * still read. The `Limits` plugin starts one per operation with its `maxCost`
 * ({@linkcode startNodeBudget}) on the GraphQL context; the resolvers find it there
 * ({@linkcode nodeBudget}) and hand it to the request context (`request/request_state.ts`), whose
 * statements draw from it (`read/row_limit.ts`). A request without the plugin gets the default
 * budget, so no request reads without bound.
 *
 * @module
 */

/**
 * The budget of a request without the `Limits` plugin, and `Limits`' default `maxCost`, in
 * nodes: GitHub's limit for the same computation (500,000), so an ordinary Relay app's nested
 * pages (`users(first: 100) { posts(first: 50) { comments(first: 20) } }`, 105,100 nodes) are
 * accepted. Memory is bounded at run time by `maxCells` (the node budget is `maxCells` / the
 * fields of the widest list item when that is fewer; `read/row_limit.ts` refuses a large read on
 * its count, before its rows are read): `deno task bench:budgets` prints the RSS of the worst
 * accepted query.
 */
export const DEFAULT_MAX_NODES = 500_000;

/**
 * A request's node budget. Statements that fit in what is neither spent nor reserved run at
 * once; a statement that may need more runs alone, after the others (`read/row_limit.ts`).
 */
export interface NodeBudget {
  /** The nodes the request may read in all (`Limits({ maxCost })`). */
  readonly max: number;
  /**
   * The limit that set `max`, as its refusal names it: `maxCost = 500000`, or `maxCells` and the
   * fields per node it was divided by.
   */
  readonly limit: string;
  /** Nodes read so far, by statements that finished. */
  spent: number;
  /** Nodes reserved by statements running now, at most their page bound each. */
  reserved: number;
  /**
   * Nodes promised to counted statements reading now (`read/row_limit.ts`): a count over what is
   * neither spent nor promised refuses the request before its rows are read.
   */
  counted: number;
  /** Set once a statement went over the budget: nothing more is read. */
  exceeded: boolean;
  /** Statements waiting for their turn, first come first served (`read/row_limit.ts`). */
  readonly waiting: BudgetWaiter[];
}

/** A statement waiting for its share of a {@linkcode NodeBudget}. */
export interface BudgetWaiter {
  /** Most nodes its page allows; `undefined` when its page has no bound. */
  readonly bound: number | undefined;
  /** Lets it run, with the nodes reserved for it (`0` once the budget is exceeded). */
  readonly admit: (reservation: number) => void;
}

/** Where the budget is kept on a GraphQL context. */
const BUDGET = Symbol.for("mikrogql.nodeBudget");

type BudgetHolder = { [BUDGET]?: NodeBudget };

function newBudget(max: number, limit: string): NodeBudget {
  return { max, limit, spent: 0, reserved: 0, counted: 0, exceeded: false, waiting: [] };
}

/**
 * Starts a budget of `max` nodes on the GraphQL context `ctx` for the operation about to run
 * (called by the `Limits` plugin before execution); `limit` names the limit that set it.
 */
export function startNodeBudget(ctx: object, max: number, limit: string): void {
  (ctx as BudgetHolder)[BUDGET] = newBudget(max, limit);
}

/**
 * The budget of the request whose GraphQL context is `ctx`: the one `Limits` started, else a
 * budget of {@linkcode DEFAULT_MAX_NODES} kept on `ctx` for the request's other resolvers.
 */
export function nodeBudget(ctx: object): NodeBudget {
  return (ctx as BudgetHolder)[BUDGET] ??= newBudget(
    DEFAULT_MAX_NODES,
    `maxCost = ${DEFAULT_MAX_NODES}`,
  );
}
