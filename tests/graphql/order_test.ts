/**
 * Ordering over HTTP on the todo example: `MultiOrder()` lists, edge-count orders (`1:m`, owning
 * and inverse `m:n`), unique-edge field orders with nulls, paged forward and backward at several
 * page sizes against the order computed here; dates that differ only in microseconds paged one
 * row at a time; and the bad inputs. On SQLite, PostgreSQL and MariaDB.
 */
import { assert, assertEquals, assertMatch } from "@std/assert";
import { encodeBase64Url } from "@std/encoding/base64url";
import { orderSql, planPage } from "../../runtime/plan/page_plan.ts";
import { createSchema, graph } from "../../examples/todo/generated/mod.ts";
import { seed, TODOS } from "../../examples/todo/seed.ts";
import { entities } from "../../examples/todo/entities.ts";
import type { Dialect } from "../support/databases.ts";
import { dialects, openTestOrm } from "../support/databases.ts";
import { startServer, type TestServer } from "../support/server.ts";
import { prepareReadFilters } from "../../runtime/plan/read_filters.ts";
import { orderTargets } from "../../runtime/plan/order_terms.ts";

type Order = { field: string; direction?: "ASC" | "DESC" };
type Value = string | number | null;

interface Page {
  edges: { cursor: string; node: { id: string } }[];
  pageInfo: {
    hasNextPage: boolean;
    hasPreviousPage: boolean;
    startCursor: string | null;
    endCursor: string | null;
  };
}

const CATEGORY_TEXT: Record<number, string> = { 1: "Work", 2: "Home", 3: "Errands" };

/** Per todo id, the value of each `TodoOrderField`. */
const TODO_VALUES: Record<number, Record<string, Value>> = Object.fromEntries(
  TODOS.map(([id, , status, priority, parent, category]) => [id, {
    CREATED_AT: id,
    STATUS: status,
    PRIORITY: priority,
    CHILDREN_COUNT: TODOS.filter((t) => t[4] === id).length,
    PARENT_STATUS: parent === null ? null : TODOS[parent - 1][2],
    CATEGORY_TEXT: category === null ? null : CATEGORY_TEXT[category],
  }]),
);

/**
 * Row ids in `orders`: nulls smallest, the id last, ascending after a `MultiOrder()` list
 * (`multi`), else in the direction of the single order (entgql).
 */
function expected(
  values: Record<number, Record<string, Value>>,
  orders: Order[],
  multi = true,
): number[] {
  const compare = (x: Value, y: Value) =>
    x === y ? 0 : x === null ? -1 : y === null ? 1 : x < y ? -1 : 1;
  const idSign = !multi && orders.at(-1)?.direction === "DESC" ? -1 : 1;
  return Object.keys(values).map(Number).sort((a, b) => {
    for (const o of orders) {
      const c = compare(values[a][o.field], values[b][o.field]);
      if (c !== 0) return o.direction === "DESC" ? -c : c;
    }
    return (a - b) * idSign;
  });
}

function idOf(globalId: string): number {
  const text = atob(globalId.replaceAll("-", "+").replaceAll("_", "/"));
  return Number(text.slice(text.indexOf(":") + 1));
}

/**
 * Walks the whole connection `field` under `orderBy`, `size` rows a page, forward (`first`,
 * `after`) and backward (`last`, `before`), checking each page's `PageInfo`.
 *
 * @returns the ids in connection order, from both walks
 */
async function walk(
  server: TestServer,
  field: string,
  type: string,
  orderBy: Order[] | Order,
  size: number,
): Promise<{ forward: number[]; backward: number[] }> {
  const multi = Array.isArray(orderBy);
  const query = `query($first: Int, $last: Int, $after: Cursor, $before: Cursor, $o: ${
    multi ? `[${type}Order!]` : `${type}Order`
  }) {
    ${field}(first: $first, last: $last, after: $after, before: $before, orderBy: $o) {
      edges { cursor node { id } }
      pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
    }
  }`;
  const page = async (variables: Record<string, unknown>) => {
    const r = await server.query<Record<string, Page>>(query, { ...variables, o: orderBy });
    assertEquals(r.errors, undefined, JSON.stringify({ orderBy, variables }));
    return r.data![field];
  };
  const forward: number[] = [];
  let after: string | null = null;
  for (let i = 0;; i++) {
    const p: Page = await page({ first: size, after });
    assertEquals(p.pageInfo.hasPreviousPage, i > 0);
    forward.push(...p.edges.map((e) => idOf(e.node.id)));
    if (!p.pageInfo.hasNextPage) break;
    assertEquals(p.edges.length, size);
    after = p.pageInfo.endCursor;
  }
  const backward: number[] = [];
  let before: string | null = null;
  for (let i = 0;; i++) {
    const p: Page = await page({ last: size, before });
    assertEquals(p.pageInfo.hasNextPage, i > 0);
    backward.unshift(...p.edges.map((e) => idOf(e.node.id)));
    if (!p.pageInfo.hasPreviousPage) break;
    assertEquals(p.edges.length, size);
    before = p.pageInfo.startCursor;
  }
  return { forward, backward };
}

async function assertOrder(
  server: TestServer,
  field: string,
  type: string,
  orderBy: Order[] | Order,
  want: number[],
): Promise<void> {
  for (const size of [1, 2, 3]) {
    const { forward, backward } = await walk(server, field, type, orderBy, size);
    assertEquals(forward, want, `forward, ${size} a page: ${JSON.stringify(orderBy)}`);
    assertEquals(backward, want, `backward, ${size} a page: ${JSON.stringify(orderBy)}`);
  }
}

/** A timestamp literal `micros` microseconds after 2026-02-01 00:00:00 UTC, for raw SQL. */
function microsAfter(dialect: Dialect, micros: number): string | number {
  const base = Date.UTC(2026, 1, 1);
  if (dialect === "sqlite") return base; // SQLite stores epoch milliseconds: all in one
  const text = `2026-02-01 00:00:00.${String(micros).padStart(6, "0")}`;
  return dialect === "postgresql" ? `${text}+00` : text;
}

for (const dialect of dialects()) {
  Deno.test({
    name: `ordering on ${dialect}: multi-order, edge counts, edge fields, microseconds`,
    sanitizeOps: false,
    sanitizeResources: false,
    fn: async (t) => {
      const db = await openTestOrm(dialect, entities);
      await seed(db.orm.em.fork());
      const server = startServer(db.orm, createSchema());
      try {
        await t.step("MultiOrder: lists of orders, each in its direction", async () => {
          for (
            const orders of [
              [],
              [{ field: "STATUS" }],
              [{ field: "STATUS" }, { field: "PRIORITY", direction: "DESC" }],
              [{ field: "STATUS", direction: "DESC" }, { field: "CREATED_AT" }],
              [{ field: "PRIORITY" }, { field: "STATUS", direction: "DESC" }],
            ] as Order[][]
          ) {
            await assertOrder(server, "todos", "Todo", orders, expected(TODO_VALUES, orders));
          }
        });

        await t.step("edge count on 1:m, alone and with other orders", async () => {
          for (
            const orders of [
              [{ field: "CHILDREN_COUNT" }],
              [{ field: "CHILDREN_COUNT", direction: "DESC" }],
              [{ field: "CHILDREN_COUNT", direction: "DESC" }, { field: "CREATED_AT" }],
              [{ field: "STATUS" }, { field: "CHILDREN_COUNT", direction: "DESC" }],
            ] as Order[][]
          ) {
            await assertOrder(server, "todos", "Todo", orders, expected(TODO_VALUES, orders));
          }
        });

        await t.step("unique-edge fields, nulls first ascending and last descending", async () => {
          for (
            const orders of [
              [{ field: "PARENT_STATUS" }],
              [{ field: "PARENT_STATUS", direction: "DESC" }],
              [{ field: "CATEGORY_TEXT" }, { field: "PRIORITY" }],
              [{ field: "PARENT_STATUS" }, { field: "CATEGORY_TEXT", direction: "DESC" }],
              [{ field: "CATEGORY_TEXT", direction: "DESC" }, { field: "CHILDREN_COUNT" }],
            ] as Order[][]
          ) {
            await assertOrder(server, "todos", "Todo", orders, expected(TODO_VALUES, orders));
          }
        });

        await t.step("edge counts on m:n (owning and inverse side), 64-bit nullable", async () => {
          const categories = {
            1: { TODOS_COUNT: 2, COUNT: 10 },
            2: { TODOS_COUNT: 1, COUNT: 12884901888 },
            3: { TODOS_COUNT: 2, COUNT: null },
          };
          for (const o of ["ASC", "DESC"] as const) {
            for (const f of ["TODOS_COUNT", "COUNT"]) {
              const orders = [{ field: f, direction: o }];
              await assertOrder(
                server,
                "categories",
                "Category",
                orders,
                expected(categories, orders),
              );
            }
            const users = {
              1: { GROUPS_COUNT: 2 },
              2: { GROUPS_COUNT: 1 },
              3: { GROUPS_COUNT: 0 },
            };
            const groups = { 1: { USERS_COUNT: 1 }, 2: { USERS_COUNT: 2 }, 3: { USERS_COUNT: 0 } };
            const byGroups = { field: "GROUPS_COUNT", direction: o };
            await assertOrder(
              server,
              "users",
              "User",
              byGroups,
              expected(users, [byGroups], false),
            );
            const byUsers = { field: "USERS_COUNT", direction: o };
            await assertOrder(
              server,
              "groups",
              "Group",
              byUsers,
              expected(groups, [byUsers], false),
            );
          }
        });

        await t.step("orderSql (window functions) orders as the page query does", async () => {
          const em = db.orm.em.fork();
          const type = graph.types.Todo;
          for (
            const orderBy of [
              [{ field: "PARENT_STATUS", direction: "DESC" }, { field: "CHILDREN_COUNT" }],
              [{ field: "CATEGORY_TEXT" }, { field: "CREATED_AT", direction: "DESC" }],
              [{ field: "STATUS" }],
            ] as Order[][]
          ) {
            for (const args of [{ first: 10, orderBy }, { last: 10, orderBy }]) {
              await prepareReadFilters(em, orderTargets(em, type, args.orderBy));
              const plan = planPage(type, args, {}, em);
              const rows: { id: number }[] = await em.getConnection().execute(
                `select t.id from todo t order by ${orderSql(em, plan, "t")}`,
              );
              const found = await em.find(type.entity, {}, {
                orderBy: plan.query.orderBy as never,
              }) as { id: number }[];
              assertEquals(rows.map((r) => Number(r.id)), found.map((r) => r.id));
            }
          }
        });

        await t.step("bad input", async () => {
          const q = `query($o: [TodoOrder!], $after: Cursor) {
            todos(first: 2, orderBy: $o, after: $after) { pageInfo { endCursor } } }`;
          const repeated = await server.query(q, {
            o: [{ field: "STATUS" }, { field: "STATUS", direction: "DESC" }],
          });
          assertEquals(repeated.errors?.[0].extensions?.code, "BAD_USER_INPUT");
          // refused by Limits before execution (the resolvers check it too, without the plugin)
          assertMatch(repeated.errors![0].message, /order field STATUS is given twice/);
          const first = await server.query<{ todos: Page }>(q, { o: [{ field: "STATUS" }] });
          const other = await server.query(q, {
            o: [{ field: "STATUS" }, { field: "PRIORITY" }],
            after: first.data!.todos.pageInfo.endCursor,
          });
          assertEquals(other.errors?.[0].extensions?.code, "INVALID_CURSOR");
          assertMatch(other.errors![0].message, /another order/);
          const forged = encodeBase64Url(
            new TextEncoder().encode(JSON.stringify([1, [{ drop: 1 }], "CHILDREN_COUNT"])),
          );
          const bad = await server.query(q, { o: [{ field: "CHILDREN_COUNT" }], after: forged });
          assertEquals(bad.errors?.[0].extensions?.code, "INVALID_CURSOR");
          const unknown = await server.query(
            `{ todos(orderBy: [{ field: NOPE }]) { totalCount } }`,
          );
          assertEquals(unknown.errors?.[0].extensions?.code, "GRAPHQL_VALIDATION_FAILED");
          assertMatch(unknown.errors![0].message, /NOPE/);
        });
      } finally {
        await server.close();
        await db.close();
      }
    },
  });

  Deno.test({
    name: `ordering on ${dialect}: a page boundary inside one millisecond`,
    sanitizeOps: false,
    sanitizeResources: false,
    fn: async () => {
      const db = await openTestOrm(dialect, entities);
      // Six todos created within one millisecond; their microseconds are not in id order.
      const micros = [5, 3, 6, 1, 4, 2];
      const connection = db.orm.em.getConnection();
      for (const [i, us] of micros.entries()) {
        await connection.execute(
          `insert into todo (id, created_at, status, priority, text) values (?, ?, ?, ?, ?)`,
          [i + 1, microsAfter(dialect, us), "PENDING", 0, `todo ${i + 1}`],
        );
      }
      const server = startServer(db.orm, createSchema());
      try {
        const byMicros = micros.map((us, i) => [us, i + 1])
          .sort((a, b) => dialect === "sqlite" ? a[1] - b[1] : a[0] - b[0]).map(([, id]) => id);
        await assertOrder(server, "todos", "Todo", [{ field: "CREATED_AT" }], byMicros);
        await assertOrder(
          server,
          "todos",
          "Todo",
          [{ field: "CREATED_AT", direction: "DESC" }],
          // SQLite: one millisecond, so the ties keep the ascending ids of a MultiOrder() list.
          dialect === "sqlite" ? byMicros : byMicros.toReversed(),
        );
        await assertOrder(
          server,
          "todos",
          "Todo",
          [{ field: "STATUS" }, { field: "CREATED_AT" }],
          byMicros,
        );
        if (dialect !== "sqlite") {
          const r = await server.query<{ todos: Page }>(
            `{ todos(first: 1, orderBy: [{ field: CREATED_AT }]) { pageInfo { endCursor } } }`,
          );
          const cursor = atob(r.data!.todos.pageInfo.endCursor!.replaceAll("_", "/"));
          assert(cursor.includes(".000001"), `the cursor keeps microseconds: ${cursor}`);
        }
      } finally {
        await server.close();
        await db.close();
      }
    },
  });
}
