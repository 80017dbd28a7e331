/**
 * `planPage` without an EntityManager: the plan's shape (cursor kinds, order key, limit, order
 * reversed for `last`), its refusals, `withoutExtraRow`; and the plan end to end on in-memory rows
 * (its `where`, `orderBy` and `limit` evaluated as SQL would, the rows turned into a connection by
 * `toConnection`): paging forward with `first` and `endCursor` until `hasNextPage` is false, and
 * backward with `last` and `startCursor` until `hasPreviousPage` is false, each visits every row
 * once, in the order written out from the rule, for single orders (nullable dates among them) and
 * `MultiOrder()` lists.
 */
import { assertEquals, assertThrows } from "@std/assert";
import { GraphQLError } from "graphql";
import type { NodeType } from "../../../runtime/graph.ts";
import {
  cursorOf,
  type PaginationArgs,
  toConnection,
} from "../../../runtime/plan/relay_connection.ts";
import { keyset, type OrderInput } from "../../../runtime/plan/order_terms.ts";
import { planPage, withoutExtraRow } from "../../../runtime/plan/page_plan.ts";
import { graph as blog } from "../../../examples/blog/generated/node.ts";
import { graph as todo } from "../../../examples/todo/generated/node.ts";
import { matches, type Row, sortRows } from "../../support/memory_rows.ts";
import { categories, posts, ruleOrder, todos } from "./sample_rows.ts";

const Post = blog.types.Post;

Deno.test("planPage: cursor shape, order key, limit and order of a page", () => {
  const first = planPage(Post, { first: 2, orderBy: { field: "PUBLISHED_AT", direction: "DESC" } });
  assertEquals(first.shape, {
    idKinds: ["int"],
    valueKinds: ["time"], // without an EntityManager dates are compared as JavaScript dates
    order: "PUBLISHED_AT",
    type: "Post",
  });
  assertEquals(first.query, {
    where: {},
    orderBy: [{ publishedAt: "desc nulls last" }, { id: "desc" }],
    limit: 3,
  });
  assertEquals(first.order.length, 2);
  assertEquals(first.terms.length, 1);
  const last = planPage(Post, { last: 4 });
  assertEquals(last.query, { where: {}, orderBy: [{ id: "desc" }], limit: 5 });
  assertEquals(planPage(Post, {}).query.limit, undefined);
  const multi = planPage(todo.types.Todo, {
    orderBy: [{ field: "STATUS", direction: "DESC" }, { field: "PRIORITY" }],
  });
  assertEquals(multi.shape.order, "STATUS,PRIORITY");
  assertEquals(multi.shape.valueKinds, ["enum", "int"]);
});

Deno.test("planPage: after and before become the keyset predicates of their cursors", () => {
  const base = planPage(Post, { orderBy: { field: "VIEWS" } });
  const a = cursorOf(base, { id: 3, views: 10 });
  const b = cursorOf(base, { id: 9, views: 20 });
  const page = planPage(Post, { after: a, before: b, first: 5, orderBy: { field: "VIEWS" } });
  assertEquals(page.query.where, {
    $and: [keyset(base.order, [10, 3], true), keyset(base.order, [20, 9], false)],
  });
  assertEquals(
    planPage(Post, { after: a, orderBy: { field: "VIEWS" } }).query.where,
    keyset(base.order, [10, 3], true),
  );
});

Deno.test("planPage: refusals before any SQL", () => {
  const code = (args: PaginationArgs, limits?: { maxPageSize?: number }) =>
    assertThrows(() => planPage(Post, args, limits), GraphQLError).extensions.code;
  assertEquals(code({ first: 1, last: 1 }), "INVALID_PAGINATION");
  assertEquals(code({ first: 11 }, { maxPageSize: 10 }), "INVALID_PAGINATION");
  assertEquals(code({ orderBy: { field: "NOPE" } }), "BAD_USER_INPUT");
  const byTitle = cursorOf(planPage(Post, { orderBy: { field: "TITLE" } }), { id: 1, title: "t" });
  // a cursor of another order, or of another node type
  assertEquals(code({ after: byTitle, orderBy: { field: "VIEWS" } }), "INVALID_CURSOR");
  const user = blog.types.User;
  const userCursor = cursorOf(planPage(user, {}), { id: 1 });
  assertEquals(code({ before: userCursor }), "INVALID_CURSOR");
  assertEquals(code({ after: "garbage" }), "INVALID_CURSOR");
});

Deno.test("withoutExtraRow: exactly first/last rows, but first: 0 keeps its one row", () => {
  const limit = (args: PaginationArgs) => {
    const plan = planPage(Post, args);
    withoutExtraRow(plan);
    return plan.query.limit;
  };
  assertEquals([limit({ first: 5 }), limit({ last: 1 }), limit({ first: 0 }), limit({})], [
    5,
    1,
    1,
    undefined,
  ]);
});

/** One page read from `rows` as the database would read it under `plan`. */
function readPage(type: NodeType, rows: readonly Row[], args: PaginationArgs) {
  const plan = planPage(type, args);
  const found = sortRows(rows.filter((r) => matches(r, plan.query.where)), plan.query.orderBy);
  const page = plan.query.limit === undefined ? found : found.slice(0, plan.query.limit);
  return toConnection(plan, page, () => rows.length);
}

const ORDERS: [NodeType, () => Row[], (OrderInput | OrderInput[] | null)[]][] = [
  [Post, posts, [
    null,
    { field: "TITLE", direction: "DESC" },
    { field: "VIEWS" },
    { field: "PUBLISHED_AT" },
    { field: "PUBLISHED_AT", direction: "DESC" },
  ]],
  [todo.types.Todo, todos, [
    [{ field: "STATUS" }, { field: "PRIORITY", direction: "DESC" }],
    [{ field: "TEXT", direction: "DESC" }, { field: "CREATED_AT" }],
  ]],
  [todo.types.Category, categories, [[{ field: "COUNT", direction: "DESC" }, { field: "TEXT" }]]],
];

Deno.test("paging forward and backward visits every row once, in order, for each page size", () => {
  for (const [type, rows, orders] of ORDERS) {
    for (const orderBy of orders) {
      const all = rows();
      const idDirection = planPage(type, { orderBy }).order.at(-1)!.direction;
      const expected = ruleOrder(type, all, orderBy, idDirection).map((r) => r.id);
      for (const size of [1, 3, 7, 40, 100]) {
        const label = `${type.name} ${JSON.stringify(orderBy)} by ${size}`;
        const forward: unknown[] = [];
        let after: string | null = null;
        for (let guard = 0;; guard++) {
          const page = readPage(type, all, { first: size, after, orderBy });
          forward.push(...page.edges.map((e) => (e.node as Row).id));
          assertEquals(page.pageInfo.hasPreviousPage, after !== null, label);
          if (!page.pageInfo.hasNextPage) break;
          after = page.pageInfo.endCursor;
          if (guard > 100) throw new Error(`${label}: no end`);
        }
        assertEquals(forward, expected, `forward ${label}`);
        const backward: unknown[][] = [];
        let before: string | null = null;
        for (let guard = 0;; guard++) {
          const page = readPage(type, all, { last: size, before, orderBy });
          backward.unshift(page.edges.map((e) => (e.node as Row).id));
          assertEquals(page.pageInfo.hasNextPage, before !== null, label);
          if (!page.pageInfo.hasPreviousPage) break;
          before = page.pageInfo.startCursor;
          if (guard > 100) throw new Error(`${label}: no end`);
        }
        assertEquals(backward.flat(), expected, `backward ${label}`);
      }
    }
  }
});
