/**
 * examples/todo is entgql's whole todo example: the generated
 * `createTodo`/`updateTodo`, `createCategory`/`updateCategory`, `createUser`/`updateUser`
 * (`Mutations({ delete: false })`, entgql's `MutationCreate(), MutationUpdate()`), the
 * `createCategory` extension with `createTodos` and `clearTodos`, over HTTP with the
 * Transactioner, on SQLite and PostgreSQL; its `OrderField("ID")` on Category; and entgql's
 * unbounded nested `totalCount` under the default limits.
 */
import { assert, assertEquals } from "@std/assert";
import { Category } from "../../examples/todo/entities/category.ts";
import { entities } from "../../examples/todo/entities.ts";
import { seed } from "../../examples/todo/seed.ts";
import { todoSchema } from "../../examples/todo/schema.ts";
import { dialects, openTestOrm } from "../support/databases.ts";
import { type Response, startServer } from "../support/server.ts";

function ok<T>(response: Response<T>): T {
  assertEquals(response.errors, undefined, JSON.stringify(response.errors));
  return response.data!;
}

type Todo = {
  id: string;
  text: string;
  status: string;
  priority: number;
  parent: { text: string } | null;
  category: { text: string } | null;
  children: { totalCount: number; edges: { node: { text: string } }[] };
};

const TODO = `id text status priority parent { text } category { text }
  children { totalCount edges { node { text } } }`;

for (const dialect of dialects(["sqlite", "postgresql"])) {
  Deno.test({
    name: `the todo example answers entgql's todo mutations (${dialect})`,
    sanitizeOps: false,
    sanitizeResources: false,
    fn: async (t) => {
      const db = await openTestOrm(dialect, entities);
      await seed(db.orm.em.fork());
      const server = startServer(db.orm, todoSchema());
      try {
        const root = ok(
          await server.query<{ createTodo: Todo }>(
            `mutation { createTodo(input: { status: IN_PROGRESS, text: "root", priority: 2 }) { ${TODO} } }`,
          ),
        ).createTodo;
        assertEquals(root.text, "root");
        assertEquals(root.children.totalCount, 0);

        await t.step("createTodo with a parent; updateTodo sets and clears edges", async () => {
          const child = ok(
            await server.query<{ createTodo: Todo }>(
              `mutation($p: ID!) { createTodo(input: { status: PENDING, text: "child", parentID: $p }) { ${TODO} } }`,
              { p: root.id },
            ),
          ).createTodo;
          assertEquals(child.parent, { text: "root" });
          const moved = ok(
            await server.query<{ updateTodo: Todo }>(
              `mutation($id: ID!) { updateTodo(id: $id, input: { status: COMPLETED, clearParent: true }) { ${TODO} } }`,
              { id: child.id },
            ),
          ).updateTodo;
          assertEquals([moved.status, moved.parent], ["COMPLETED", null]);
          const adopted = ok(
            await server.query<{ updateTodo: Todo }>(
              `mutation($id: ID!, $c: ID!) { updateTodo(id: $id, input: { addChildIDs: [$c] }) { ${TODO} } }`,
              { id: root.id, c: child.id },
            ),
          ).updateTodo;
          assertEquals(adopted.children.edges.map((e) => e.node.text), ["child"]);
          const cleared = ok(
            await server.query<{ updateTodo: Todo }>(
              `mutation($id: ID!) { updateTodo(id: $id, input: { clearChildren: true }) { ${TODO} } }`,
              { id: root.id },
            ),
          ).updateTodo;
          assertEquals(cleared.children.totalCount, 0);
        });

        await t.step("createCategory with createTodos, updateCategory clearTodos", async () => {
          type CategoryNode = {
            id: string;
            text: string;
            todos: {
              totalCount: number;
              edges: { node: { text: string; category: { text: string } } }[];
            };
          };
          const created = ok(
            await server.query<{ createCategory: CategoryNode }>(
              `mutation { createCategory(input: { text: "Garden", status: ENABLED,
                createTodos: [{ status: PENDING, text: "mow" }, { status: IN_PROGRESS, text: "weed" }] }) {
                id text todos { totalCount edges { node { text category { text } } } } } }`,
            ),
          ).createCategory;
          assertEquals(created.todos.totalCount, 2);
          assertEquals(
            created.todos.edges.map((e) => [e.node.text, e.node.category.text]),
            [["mow", "Garden"], ["weed", "Garden"]],
          );
          // A failing todo rolls the category back (one transaction).
          const before = await db.orm.em.fork().count(Category);
          const failed = await server.query(
            `mutation { createCategory(input: { text: "Broken", status: ENABLED,
              createTodos: [{ status: PENDING, text: "ok" }, { status: PENDING, text: "bad", parentID: "bm9wZQ" }] }) { id } }`,
          );
          assertEquals(failed.errors?.[0].extensions?.code, "BAD_USER_INPUT");
          assertEquals(await db.orm.em.fork().count(Category), before);
          const emptied = ok(
            await server.query<{ updateCategory: CategoryNode }>(
              `mutation($id: ID!) { updateCategory(id: $id, input: { clearTodos: true, text: "Yard" }) {
                id text todos { totalCount edges { node { text category { text } } } } } }`,
              { id: created.id },
            ),
          ).updateCategory;
          assertEquals([emptied.text, emptied.todos.totalCount], ["Yard", 0]);
        });

        await t.step(
          "entgql's unbounded nested totalCount answers under the default limits",
          async () => {
            // refused before (QUERY_TOO_COMPLEX, "may return 1001000 nodes") when a connection
            // without first/last cost maxPageSize; the test server installs the preset's Limits
            type Users = { users: { edges: { node: { groups: { totalCount: number } } }[] } };
            const users = ok(
              await server.query<Users>(`{ users { edges { node { groups { totalCount } } } } }`),
            );
            const oracle = await db.orm.em.fork().getConnection().execute(
              'select count(*) as n from "user"',
            );
            assertEquals(users.users.edges.length, Number(oracle[0].n));
          },
        );

        await t.step('OrderField("ID") on Category orders by the key, as entgql\'s', async () => {
          // the database's own order is the oracle
          const byKey = (await db.orm.em.fork().find(Category, {}, { orderBy: { id: "desc" } }))
            .map((c) => c.text);
          assert(byKey.length >= 2);
          type Page = { categories: { edges: { node: { text: string } }[] } };
          const desc = ok(
            await server.query<Page>(
              `{ categories(orderBy: [{ field: ID, direction: DESC }]) { edges { node { text } } } }`,
            ),
          );
          assertEquals(desc.categories.edges.map((e) => e.node.text), byKey);
          // ID after another field breaks its ties
          const byStatus = (await db.orm.em.fork().find(Category, {}, {
            orderBy: { status: "asc", id: "desc" },
          })).map((c) => c.text);
          const mixed = ok(
            await server.query<Page>(
              `{ categories(orderBy: [{ field: STATUS }, { field: ID, direction: DESC }]) {
                edges { node { text } } } }`,
            ),
          );
          assertEquals(mixed.categories.edges.map((e) => e.node.text), byStatus);
        });

        await t.step("createUser and updateUser with groups", async () => {
          type User = { id: string; name: string; admin: boolean; groups: { totalCount: number } };
          const groups = ok(
            await server.query<{ groups: { edges: { node: { id: string } }[] } }>(
              `{ groups { edges { node { id } } } }`,
            ),
          ).groups.edges.map((e) => e.node.id);
          const user = ok(
            await server.query<{ createUser: User }>(
              `mutation($g: [ID!]) { createUser(input: { name: "carol", groupIDs: $g }) { id name admin groups { totalCount } } }`,
              { g: groups.slice(0, 2) },
            ),
          ).createUser;
          assertEquals([user.name, user.admin, user.groups.totalCount], ["carol", false, 2]);
          const updated = ok(
            await server.query<{ updateUser: User }>(
              `mutation($id: ID!, $g: [ID!]) { updateUser(id: $id, input: { admin: true, removeGroupIDs: $g }) { id name admin groups { totalCount } } }`,
              { id: user.id, g: groups.slice(0, 1) },
            ),
          ).updateUser;
          assertEquals([updated.admin, updated.groups.totalCount], [true, 1]);
        });

        await t.step("clearTodos deletes every todo and returns how many", async () => {
          const count = ok(
            await server.query<{ todos: { totalCount: number } }>(
              `{ todos { totalCount } }`,
            ),
          ).todos.totalCount;
          const cleared = ok(await server.query<{ clearTodos: number }>(`mutation { clearTodos }`));
          assertEquals(cleared.clearTodos, count);
          assertEquals(
            ok(await server.query<{ todos: { totalCount: number } }>(`{ todos { totalCount } }`))
              .todos.totalCount,
            0,
          );
        });
      } finally {
        await server.close();
        await db.close();
      }
    },
  });
}
