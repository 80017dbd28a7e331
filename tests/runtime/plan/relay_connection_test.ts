/**
 * The Relay rules of `relay_connection.ts`, against two oracles written from their sources:
 *
 * - the GraphQL Cursor Connections Specification's algorithms (`ApplyCursorsToEdges`,
 *   `EdgesToReturn`, `HasPreviousPage`, `HasNextPage`): the edges returned, and the flags in
 *   every case the algorithm decides (`hasNextPage` with `first`, whatever the cursors;
 *   `hasPreviousPage` with `last`); where it leaves them to the server (`after` without
 *   `last`: a previous page; `before` without `first`: a next one), `true`, the cursor's row
 *   lying beyond the page.
 *
 * Every combination of `after`, `before`, `first`, `last` on a six-row connection is checked, the
 * rows fetched as the page's SQL fetches them (`first + 1` rows, or `last + 1` in reverse). One
 * divergence from the specification's letter, shared with entgql: with `before` at or ahead of
 * `after` the page is empty, where `ApplyCursorsToEdges` would ignore `before`.
 * `validatePagination` refuses what entgql refuses, with `INVALID_PAGINATION`.
 */
import { assert, assertEquals, assertThrows } from "@std/assert";
import { GraphQLError } from "graphql";
import {
  type ConnectionPlan,
  cursorOf,
  type PaginationArgs,
  toConnection,
  validatePagination,
  valueAt,
} from "../../../runtime/plan/relay_connection.ts";
import { decodeCursor } from "../../../runtime/plan/cursor.ts";
import type { OrderTerm } from "../../../runtime/plan/order_terms.ts";
import { graph } from "../../../examples/blog/generated/node.ts";

type Row = { id: number };
const ROWS: Row[] = Array.from({ length: 6 }, (_, i) => ({ id: i + 1 }));

function plan(args: PaginationArgs): ConnectionPlan {
  return {
    terms: [],
    shape: { idKinds: ["int"], valueKinds: [], order: "", type: "Post" },
    args,
    type: graph.types.Post,
    values: new WeakMap(),
  };
}

/** The row a cursor of this connection names. */
function rowOf(cursor: string): number {
  return decodeCursor(cursor, plan({}).shape, "after").id as number;
}

// The specification's algorithms, over edges identified by their rows' index in ROWS.

function applyCursorsToEdges(all: number[], before?: number, after?: number): number[] {
  let edges = all;
  if (after !== undefined && edges.includes(after)) edges = edges.slice(edges.indexOf(after) + 1);
  if (before !== undefined && edges.includes(before)) edges = edges.slice(0, edges.indexOf(before));
  return edges;
}

function edgesToReturn(all: number[], a: Args): number[] {
  let edges = applyCursorsToEdges(all, a.before, a.after);
  if (a.first !== undefined && edges.length > a.first) edges = edges.slice(0, a.first);
  if (a.last !== undefined && edges.length > a.last) edges = edges.slice(edges.length - a.last);
  return edges;
}

/**
 * The specification's HasNextPage: with `first`, whether the edges the cursors leave are more;
 * `undefined` where it is left to the server (`before` without `first`).
 */
function specHasNextPage(all: number[], a: Args): boolean | undefined {
  if (a.first !== undefined) return applyCursorsToEdges(all, a.before, a.after).length > a.first;
  return a.before === undefined ? false : undefined;
}

/**
 * The specification's HasPreviousPage: with `last`, whether the edges the cursors leave are
 * more; `undefined` where it is left to the server (`after` without `last`).
 */
function specHasPreviousPage(all: number[], a: Args): boolean | undefined {
  if (a.last !== undefined) return applyCursorsToEdges(all, a.before, a.after).length > a.last;
  return a.after === undefined ? false : undefined;
}

/** Our flags from the cursors given and the extra row fetched (`relay_connection.ts`). */
function expectedFlags(
  fetched: number,
  a: Args,
): { hasNextPage: boolean; hasPreviousPage: boolean } {
  return {
    hasNextPage: a.first !== undefined ? fetched > a.first : a.before !== undefined,
    hasPreviousPage: a.last !== undefined ? fetched > a.last : a.after !== undefined,
  };
}

/** Arguments by row index: `after`/`before` name rows of ROWS. */
interface Args {
  after?: number;
  before?: number;
  first?: number;
  last?: number;
}

/** The rows the page's SQL fetches: the rows between the cursors, `n + 1` of them, reversed for `last`. */
function fetch(a: Args): Row[] {
  let rows = ROWS.filter((_, i) =>
    (a.after === undefined || i > a.after) && (a.before === undefined || i < a.before)
  );
  if (a.last !== undefined) rows = rows.toReversed();
  const size = a.first ?? a.last;
  return size === undefined ? rows : rows.slice(0, size + 1);
}

/** `a` as the connection's arguments: the cursors of the rows it names. */
function paginationArgs(a: Args): PaginationArgs {
  const cursor = (i: number | undefined) =>
    i === undefined ? undefined : cursorOf(plan({}), ROWS[i]);
  return { first: a.first, last: a.last, after: cursor(a.after), before: cursor(a.before) };
}

function combinations(): Args[] {
  const cursors = [undefined, ...ROWS.keys()];
  const sizes = [
    undefined,
    ...Array.from({ length: 8 }, (_, n) => ({ first: n })),
    ...Array.from(
      { length: 8 },
      (_, n) => ({ last: n }),
    ),
  ];
  return cursors.flatMap((after) =>
    cursors.flatMap((before) => sizes.map((size) => ({ after, before, ...size })))
  );
}

Deno.test("toConnection: the edges of the specification's EdgesToReturn, every argument combination", () => {
  const all = [...ROWS.keys()];
  let checked = 0;
  for (const a of combinations()) {
    const args = paginationArgs(a);
    const connection = toConnection(plan(args), fetch(a), () => 0);
    const label = JSON.stringify(a);
    // `before` at or ahead of `after`: the specification's ApplyCursorsToEdges no longer finds
    // the before edge among those left and ignores it; both cursors' predicates (ours, entgql's
    // CursorsPredicate) leave no row.
    const inverted = a.after !== undefined && a.before !== undefined && a.before <= a.after;
    const expected = inverted ? [] : edgesToReturn(all, a).map((i) => ROWS[i].id);
    assertEquals(connection.edges.map((e) => e.node.id), expected, label);
    assertEquals(connection.edges.map((e) => rowOf(e.cursor)), expected, label);
    const { startCursor, endCursor } = connection.pageInfo;
    assertEquals(startCursor && rowOf(startCursor), expected.length ? expected[0] : null, label);
    assertEquals(endCursor && rowOf(endCursor), expected.length ? expected.at(-1) : null, label);
    checked++;
  }
  assertEquals(checked, 7 * 7 * 17);
});

Deno.test("toConnection: hasNextPage/hasPreviousPage as the specification's algorithm", () => {
  const all = [...ROWS.keys()];
  let musts = 0;
  for (const a of combinations()) {
    const args = paginationArgs(a);
    const rows = fetch(a);
    const { hasNextPage, hasPreviousPage } = toConnection(plan(args), rows, () => 0).pageInfo;
    const label = JSON.stringify(a);
    assertEquals({ hasNextPage, hasPreviousPage }, expectedFlags(rows.length, a), label);
    // `before` at or ahead of `after`: no row (see above), no page either way
    const inverted = a.after !== undefined && a.before !== undefined && a.before <= a.after;
    if (inverted) continue;
    const next = specHasNextPage(all, a), previous = specHasPreviousPage(all, a);
    if (next !== undefined) assertEquals(hasNextPage, next, `hasNextPage ${label}`);
    if (previous !== undefined) assertEquals(hasPreviousPage, previous, `hasPreviousPage ${label}`);
    if (next !== undefined || previous !== undefined) musts++;
    // Where the specification leaves it open, a true flag is never wrong: the cursor's own row
    // lies beyond the page.
    if (hasPreviousPage && previous === undefined) assert(a.after !== undefined, label);
    if (hasNextPage && next === undefined) assert(a.before !== undefined, label);
  }
  assert(musts > 100);
  // The module documentation's example: `first: 0` with rows after the cursor.
  const zero = toConnection(plan({ first: 0 }), [ROWS[0]], () => 0);
  assertEquals([zero.edges, zero.pageInfo.hasNextPage], [[], true]);
  assertEquals([zero.pageInfo.startCursor, zero.pageInfo.endCursor], [null, null]);
});

Deno.test("toConnection: totalCount is the thunk given, not called by the page", () => {
  let calls = 0;
  const count = () => ++calls;
  const connection = toConnection(plan({ first: 2 }), ROWS.slice(0, 3), count);
  assertEquals(calls, 0);
  assertEquals(connection.totalCount(), 1);
});

Deno.test("validatePagination: entgql's refusals, with INVALID_PAGINATION naming the argument", () => {
  const refusal = (args: PaginationArgs, max?: number) => {
    const error = assertThrows(
      () => validatePagination(args, max === undefined ? undefined : { maxPageSize: max }),
      GraphQLError,
    );
    assertEquals(error.extensions.code, "INVALID_PAGINATION");
    return error.message;
  };
  assertEquals(refusal({ first: 1, last: 1 }), `"first" and "last" cannot be given together`);
  assertEquals(refusal({ first: 0, last: 0 }), `"first" and "last" cannot be given together`);
  assertEquals(refusal({ first: -1 }), `"first" must be a non-negative integer, got -1`);
  assertEquals(refusal({ last: -5 }), `"last" must be a non-negative integer, got -5`);
  assertEquals(refusal({ first: 1001 }), `"first" must be at most 1000, got 1001`); // the default
  assertEquals(refusal({ last: 11 }, 10), `"last" must be at most 10, got 11`);
  for (
    const args of [
      {},
      { first: 0 },
      { last: 1000 },
      { first: null, last: 3 },
      { first: 10, after: "x", before: "y" },
    ]
  ) {
    validatePagination(args);
  }
  validatePagination({ first: 10 }, { maxPageSize: 10 });
});

Deno.test("cursorOf: the row's id and order values; SQL terms need their values read first", () => {
  const title: OrderTerm = { path: "title", kind: "string", direction: "ASC" };
  const byTitle: ConnectionPlan = {
    ...plan({}),
    terms: [title],
    shape: { idKinds: ["int"], valueKinds: ["string"], order: "TITLE", type: "Post" },
  };
  const cursor = cursorOf(byTitle, { id: 3, title: "Hello" });
  assertEquals(decodeCursor(cursor, byTitle.shape, "after"), {
    id: 3,
    values: ["Hello"],
    order: "TITLE",
    type: "Post",
  });
  const sqlTerm = { ...title, sql: {} as NonNullable<OrderTerm["sql"]> };
  const bySql: ConnectionPlan = { ...byTitle, terms: [sqlTerm] };
  const error = assertThrows(() => cursorOf(bySql, { id: 3 }), Error);
  assertEquals(
    error.message,
    "cursor values of SQL order terms were not read: call fillOrderValues()",
  );
  const row = { id: 4 };
  bySql.values.set(row, ["from the database"]);
  assertEquals(decodeCursor(cursorOf(bySql, row), byTitle.shape, "after").values, [
    "from the database",
  ]);
  // valueAt follows property paths through records
  assertEquals(valueAt({ author: { name: "Ada" } }, "author.name"), "Ada");
  assertEquals(valueAt({ author: null }, "author.name"), undefined);
});
