/**
 * Order terms without an EntityManager (plain property terms; the SQL terms need one): `orderBy`
 * resolved against the generated order fields, the id tiebreaker in entgql's direction, and the
 * two renderings a page's rows depend on, checked on in-memory rows against an order written
 * from the rule (terms in turn, nulls as the smallest value, then the id): `orderByOf` sorts the
 * rows in that order (reversed for `last`), and `keyset` after (before) a row's values selects
 * exactly the rows after (before) it, ties and nulls included. With a MikroORM instance whose
 * metadata is discovered without a connection, `orderText` renders each kind of term as SQL for
 * PostgreSQL and MariaDB (which has no `NULLS FIRST`/`LAST`).
 */
import { assertEquals, assertThrows } from "@std/assert";
import { MikroORM } from "@mikro-orm/core";
import { MariaDbDriver } from "@mikro-orm/mariadb";
import { PostgreSqlDriver } from "@mikro-orm/postgresql";
import { GraphQLError } from "graphql";
import type { NodeType } from "../../../runtime/graph.ts";
import {
  keyset,
  orderByOf,
  type OrderInput,
  orderTargets,
  type OrderTerm,
  orderTerms,
  orderText,
  pageOrder,
} from "../../../runtime/plan/order_terms.ts";
import { entities as todoEntities } from "../../../examples/todo/entities.ts";
import { graph as blog } from "../../../examples/blog/generated/node.ts";
import { graph as todo } from "../../../examples/todo/generated/node.ts";
import { matches, type Row, sortRows, valueAtPath } from "../../support/memory_rows.ts";
import { categories, posts, ruleOrder, todos } from "./sample_rows.ts";
import { prepareReadFilters } from "../../../runtime/plan/read_filters.ts";

const Post = blog.types.Post;
const Todo = todo.types.Todo;
const Category = todo.types.Category;

Deno.test("orderTerms: the order fields of the type, ASC by default; unknown or repeated fields refused", () => {
  assertEquals(orderTerms(Post, null), []);
  assertEquals(orderTerms(Post, { field: "PUBLISHED_AT", direction: "DESC" }), [
    {
      path: "publishedAt",
      kind: "time",
      direction: "DESC",
      nullable: true,
      count: undefined,
      field: undefined,
    },
  ]);
  assertEquals(orderTerms(Todo, [{ field: "STATUS" }, { field: "TEXT" }]).map((t) => t.direction), [
    "ASC",
    "ASC",
  ]);
  const unknown = assertThrows(() => orderTerms(Post, { field: "BODY" }), GraphQLError);
  assertEquals([unknown.extensions.code, unknown.message], [
    "BAD_USER_INPUT",
    "unknown order field BODY for Post",
  ]);
  const twice = assertThrows(
    () => orderTerms(Todo, [{ field: "TEXT" }, { field: "TEXT", direction: "DESC" }]),
    GraphQLError,
  );
  assertEquals([twice.extensions.code, twice.message], [
    "BAD_USER_INPUT",
    'order field TEXT is repeated in "orderBy"',
  ]);
});

Deno.test("pageOrder: the id tiebreaker (entgql: the single term's direction, ASC after a list)", () => {
  const id = (order: OrderTerm[]) => order.at(-1);
  assertEquals(id(pageOrder(Post, null)), { path: "id", kind: "int", direction: "ASC" });
  assertEquals(id(pageOrder(Post, { field: "VIEWS", direction: "DESC" }))?.direction, "DESC");
  assertEquals(id(pageOrder(Todo, [{ field: "TEXT", direction: "DESC" }]))?.direction, "ASC");
  assertEquals(pageOrder(Post, { field: "TITLE" }).length, 2);
  // Without an EntityManager, plain terms get no SQL and edge terms cannot be planned.
  assertEquals(pageOrder(Post, { field: "PUBLISHED_AT" })[0].sql, undefined);
  const error = assertThrows(() => pageOrder(Todo, [{ field: "CHILDREN_COUNT" }]), Error);
  assertEquals(error.message, "ordering Todo by children needs planPage(..., em)");
});

Deno.test("orderByOf: directions reversed for last pages, nulls the smallest value", () => {
  const order = pageOrder(Post, { field: "PUBLISHED_AT", direction: "DESC" });
  assertEquals(orderByOf(order, false), [{ publishedAt: "desc nulls last" }, { id: "desc" }]);
  assertEquals(orderByOf(order, true), [{ publishedAt: "asc nulls first" }, { id: "asc" }]);
  const nested: OrderTerm[] = [{ path: "author.name", kind: "string", direction: "ASC" }];
  assertEquals(orderByOf(nested, false), [{ author: { name: "asc" } }]);
});

const ORDERS: [NodeType, () => Row[], (OrderInput | OrderInput[] | null)[]][] = [
  [Post, posts, [
    null,
    { field: "TITLE" },
    { field: "TITLE", direction: "DESC" },
    { field: "VIEWS", direction: "DESC" },
    { field: "PUBLISHED_AT" },
    { field: "PUBLISHED_AT", direction: "DESC" },
  ]],
  [Todo, todos, [
    [],
    [{ field: "STATUS" }, { field: "PRIORITY", direction: "DESC" }],
    [{ field: "TEXT", direction: "DESC" }, { field: "CREATED_AT" }, { field: "STATUS" }],
    [{ field: "PRIORITY" }, { field: "ID", direction: "DESC" }],
  ]],
  [Category, categories, [
    [{ field: "COUNT" }],
    [{ field: "COUNT", direction: "DESC" }, { field: "TEXT" }],
    [{ field: "STATUS", direction: "DESC" }, { field: "COUNT", direction: "DESC" }],
  ]],
];

Deno.test("orderByOf sorts rows in the rule's order, and reversed for last pages", () => {
  for (const [type, rows, orders] of ORDERS) {
    for (const orderBy of orders) {
      const order = pageOrder(type, orderBy);
      const expected = ruleOrder(type, rows(), orderBy, order.at(-1)!.direction);
      const ids = (list: Row[]) => list.map((r) => r.id);
      const label = `${type.name} ${JSON.stringify(orderBy)}`;
      assertEquals(ids(sortRows(rows(), orderByOf(order, false))), ids(expected), label);
      assertEquals(
        ids(sortRows(rows(), orderByOf(order, true))),
        ids(expected).toReversed(),
        label,
      );
    }
  }
});

Deno.test("keyset selects exactly the rows after (before) each row, ties and nulls included", () => {
  for (const [type, rows, orders] of ORDERS) {
    for (const orderBy of orders) {
      const order = pageOrder(type, orderBy);
      const sorted = ruleOrder(type, rows(), orderBy, order.at(-1)!.direction);
      for (const [i, cursorRow] of sorted.entries()) {
        const values = order.map((t) => valueAtPath(cursorRow, t.path));
        const label = `${type.name} ${JSON.stringify(orderBy)} at row ${cursorRow.id}`;
        const after = sorted.filter((row) => matches(row, keyset(order, values, true)));
        assertEquals(after.map((r) => r.id), sorted.slice(i + 1).map((r) => r.id), label);
        const before = sorted.filter((row) => matches(row, keyset(order, values, false)));
        assertEquals(before.map((r) => r.id), sorted.slice(0, i).map((r) => r.id), label);
      }
    }
  }
});

Deno.test("orderText: SQL of every term kind, PostgreSQL and MariaDB (metadata discovered, no connection)", async () => {
  const order: OrderInput[] = [
    { field: "CHILDREN_COUNT", direction: "DESC" }, // a count subquery
    { field: "PARENT_STATUS" }, // a unique edge's field: nullable
    { field: "CREATED_AT" }, // a date: the column
    { field: "STATUS" }, // an enum: its text on MariaDB
  ];
  const expected = {
    postgresql: [
      `(select count(*) from "todo" as "__o" where "__o"."parent_id" = t."id") desc`,
      `(select "__o"."status" from "todo" as "__o" where "__o"."id" = t."parent_id") asc nulls first`,
      `t."created_at" asc`,
      `t."status" asc`,
      `t."id" asc`,
    ],
    // `x is not null` ascending puts nulls (false) first, `x is null` puts them last.
    mariadb: [
      "(select count(*) from `todo` as `__o` where `__o`.`parent_id` = t.`id`) desc",
      "(select `__o`.`status` from `todo` as `__o` where `__o`.`id` = t.`parent_id`) is not null",
      "(select `__o`.`status` from `todo` as `__o` where `__o`.`id` = t.`parent_id`) asc",
      "t.`created_at` asc",
      "cast(t.`status` as char) asc",
      "t.`id` asc",
    ],
  };
  const orms: [keyof typeof expected, MikroORM][] = [
    [
      "postgresql",
      new MikroORM({ driver: PostgreSqlDriver, dbName: "unused", entities: todoEntities }),
    ],
    ["mariadb", new MikroORM({ driver: MariaDbDriver, dbName: "unused", entities: todoEntities })],
  ];
  for (const [name, orm] of orms) {
    try {
      const em = orm.em.fork();
      await prepareReadFilters(em, orderTargets(em, Todo, order));
      const terms = pageOrder(Todo, order, em);
      assertEquals(orderText(em, Todo, terms, "t", false), expected[name].join(", "), name);
      // reversed for last pages: every direction and nulls placement turned around
      const reversed = expected[name].map((t) =>
        t.replace(/ asc$/, " ASC").replace(/ desc$/, " asc").replace(/ ASC$/, " desc")
          .replace(" asc nulls first", " desc nulls last").replace(" is not null", " is null")
      );
      assertEquals(orderText(em, Todo, terms, "t", true), reversed.join(", "), name);
    } finally {
      await orm.close();
    }
  }
});
