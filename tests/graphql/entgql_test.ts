/**
 * entgql conformance of connections, on every database: `totalCount` from the
 * loaded rows without pagination, no page statement after a count of 0, `OrderField("ID")`,
 * `MultiOrder()` ties by id ascending, `first: 0`/`last: 0` page info, entgql's `NOT_FOUND` text,
 * and cursors bound to their node type. Statements are counted from MikroORM's query log.
 */
import { assertEquals, assertMatch } from "@std/assert";
import { entities as blogEntities } from "../../examples/blog/entities.ts";
import { seed as seedBlog } from "../../examples/blog/seed.ts";
import { createSchema as blogSchema } from "../../examples/blog/generated/mod.ts";
import { entities as todoEntities } from "../../examples/todo/entities.ts";
import { seed as seedTodo } from "../../examples/todo/seed.ts";
import { createSchema as todoSchema } from "../../examples/todo/generated/mod.ts";
import { dialects, openTestOrm, type TestOrm } from "../support/databases.ts";
import { type Response, startServer, type TestServer } from "../support/server.ts";

type Page = {
  totalCount?: number;
  edges: { cursor: string; node: { id: string; name?: string; text?: string } }[];
  pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; endCursor: string | null };
};

async function counted<T>(
  db: TestOrm,
  server: TestServer,
  query: string,
  variables?: Record<string, unknown>,
): Promise<Response<T> & { statements: number }> {
  db.log.length = 0;
  const response = await server.query<T>(query, variables);
  return { ...response, statements: db.log.length };
}

function idOf(globalId: string): number {
  const text = atob(globalId.replaceAll("-", "+").replaceAll("_", "/"));
  return Number(text.slice(text.indexOf(":") + 1));
}

for (const dialect of dialects()) {
  Deno.test({
    name: `entgql connection semantics on the blog (${dialect})`,
    sanitizeOps: false,
    sanitizeResources: false,
    fn: async (t) => {
      const db = await openTestOrm(dialect, blogEntities);
      await seedBlog(db.orm.em.fork(), {
        users: 5,
        photosPerUser: 1,
        postsPerUser: 3,
        commentsPerPost: 1,
      });
      const server = startServer(db.orm, blogSchema());
      try {
        await t.step("totalCount without pagination: no count(*) statement", async () => {
          const r = await counted<
            { users: { totalCount: number; edges: { node: { posts: Page } }[] } }
          >(
            db,
            server,
            `{ users { totalCount edges { node { posts { totalCount } } } } }`,
          );
          assertEquals(r.errors, undefined);
          assertEquals(r.data!.users.totalCount, 5);
          assertEquals(r.data!.users.edges.map((e) => e.node.posts.totalCount), [3, 3, 3, 3, 3]);
          assertEquals(r.statements, 2, "users, then all their posts (entgql: 2)");
          const paginated = await counted<{ users: Page }>(
            db,
            server,
            `{ users(first: 2) { totalCount edges { node { id } } } }`,
          );
          assertEquals(paginated.data!.users.totalCount, 5);
          assertEquals(paginated.statements, 1, "the page, counting in its statement");
        });

        await t.step(
          "a totalCount of 0 costs no statement of its own, at the root and nested",
          async () => {
            const root = await counted<{ users: Page }>(
              db,
              server,
              `{ users(first: 2, where: { name: "nobody" }) { totalCount edges { node { id } } pageInfo { hasNextPage endCursor } } }`,
            );
            assertEquals(root.errors, undefined);
            assertEquals(root.data!.users, {
              totalCount: 0,
              edges: [],
              pageInfo: { hasNextPage: false, endCursor: null },
            } as never);
            assertEquals(root.statements, 1);
            const nested = await counted<{ users: { edges: { node: { posts: Page } }[] } }>(
              db,
              server,
              `{ users(first: 3) { edges { node { posts(first: 2, where: { title: "none" }) { totalCount edges { node { title } } } } } } }`,
            );
            assertEquals(nested.errors, undefined);
            for (const { node } of nested.data!.users.edges) {
              assertEquals(node.posts, { totalCount: 0, edges: [] } as never);
            }
            assertEquals(nested.statements, 2, "the users, one page counting its parents' rows");
            // Parents counting 0 have no rows in the page; the others still get theirs.
            const mixed = await counted<{ users: { edges: { node: { posts: Page } }[] } }>(
              db,
              server,
              `{ users(first: 3) { edges { node { posts(first: 2, where: { titleHasSuffix: "user001" }) { totalCount edges { node { title } } } } } } }`,
            );
            assertEquals(
              mixed.data!.users.edges.map((
                e,
              ) => [e.node.posts.totalCount, e.node.posts.edges.length]),
              [[0, 0], [3, 2], [0, 0]],
            );
            assertEquals(mixed.statements, 2);
          },
        );

        await t.step("first: 0 and last: 0 report the rows beyond them", async () => {
          const r = await counted<{ a: Page; b: Page }>(
            db,
            server,
            `{ a: users(first: 0) { edges { cursor } pageInfo { hasNextPage hasPreviousPage endCursor } }
               b: users(last: 0) { edges { cursor } pageInfo { hasNextPage hasPreviousPage endCursor } } }`,
          );
          assertEquals(r.errors, undefined);
          assertEquals(r.data!.a.edges, []);
          assertEquals(r.data!.a.pageInfo, {
            hasNextPage: true,
            hasPreviousPage: false,
            endCursor: null,
          });
          assertEquals(r.data!.b.pageInfo, {
            hasNextPage: false,
            hasPreviousPage: true,
            endCursor: null,
          });
          const all = await server.query<{ users: Page }>(`{ users { edges { cursor } } }`);
          const last = all.data!.users.edges.at(-1)!.cursor;
          const end = await server.query<{ users: Page }>(
            `query($c: Cursor) { users(first: 0, after: $c) { pageInfo { hasNextPage hasPreviousPage } } }`,
            { c: last },
          );
          assertEquals(end.data!.users.pageInfo, {
            hasNextPage: false,
            hasPreviousPage: true,
          } as never);
          const nested = await server.query<{ users: { edges: { node: { posts: Page } }[] } }>(
            `{ users(first: 2) { edges { node { posts(first: 0) { pageInfo { hasNextPage } } } } } }`,
          );
          assertEquals(
            nested.data!.users.edges.map((e) => e.node.posts.pageInfo.hasNextPage),
            [true, true],
          );
        });

        await t.step("NOT_FOUND reads entgql's text", async () => {
          const r = await server.query(`{ node(id: "bm9wZQ") { id } }`);
          assertEquals(r.errors?.[0].extensions?.code, "NOT_FOUND");
          assertEquals(
            r.errors?.[0].message,
            "Could not resolve to a node with the global id of 'bm9wZQ'",
          );
        });

        await t.step("a cursor of another node type is INVALID_CURSOR", async () => {
          const users = await server.query<{ users: Page }>(
            `{ users(first: 2) { edges { cursor } } }`,
          );
          const userCursor = users.data!.users.edges[0].cursor;
          const root = await server.query(
            `query($c: Cursor) { posts(first: 2, after: $c) { edges { node { id } } } }`,
            { c: userCursor },
          );
          assertEquals(root.errors?.[0].extensions?.code, "INVALID_CURSOR");
          assertMatch(root.errors![0].message, /another node type \(User\)/);
          const nested = await server.query(
            `query($c: Cursor) { users(first: 2) { edges { node { posts(first: 1, before: $c) { edges { node { id } } } } } } }`,
            { c: userCursor },
          );
          assertEquals(nested.errors?.[0].extensions?.code, "INVALID_CURSOR");
        });
      } finally {
        await server.close();
        await db.close();
      }
    },
  });

  Deno.test({
    name: `entgql ordering on the todo example: OrderField("ID"), MultiOrder ties (${dialect})`,
    sanitizeOps: false,
    sanitizeResources: false,
    fn: async (t) => {
      const db = await openTestOrm(dialect, todoEntities);
      await seedTodo(db.orm.em.fork());
      const server = startServer(db.orm, todoSchema());
      try {
        await t.step('OrderField("ID") on the key: descending ids, paginated', async () => {
          const ids: number[] = [];
          let after: string | null = null;
          for (;;) {
            const r: Response<{ todos: Page }> = await server.query<{ todos: Page }>(
              `query($after: Cursor) { todos(first: 3, after: $after, orderBy: [{ field: ID, direction: DESC }]) { edges { node { id } } pageInfo { hasNextPage endCursor } } }`,
              { after },
            );
            assertEquals(r.errors, undefined);
            ids.push(...r.data!.todos.edges.map((e) => idOf(e.node.id)));
            if (!r.data!.todos.pageInfo.hasNextPage) break;
            after = r.data!.todos.pageInfo.endCursor;
          }
          assertEquals(ids, [7, 6, 5, 4, 3, 2, 1]);
          const last = await server.query<{ todos: Page }>(
            `{ todos(last: 2, orderBy: [{ field: ID, direction: DESC }]) { edges { node { id } } } }`,
          );
          assertEquals(last.data!.todos.edges.map((e) => idOf(e.node.id)), [2, 1]);
        });

        await t.step("MultiOrder: ties by id ascending whatever the direction", async () => {
          // Categories: 1 ENABLED, 2 DISABLED, 3 ENABLED.
          for (
            const [orderBy, want] of [
              [`[{ field: STATUS, direction: DESC }]`, [1, 3, 2]],
              [`[{ field: STATUS, direction: ASC }]`, [2, 1, 3]],
            ] as const
          ) {
            const forward = await server.query<{ categories: Page }>(
              `{ categories(orderBy: ${orderBy}) { edges { node { id } } } }`,
            );
            assertEquals(forward.data!.categories.edges.map((e) => idOf(e.node.id)), [...want]);
            const backward = await server.query<{ categories: Page }>(
              `{ categories(last: 2, orderBy: ${orderBy}) { edges { node { id } } } }`,
            );
            assertEquals(
              backward.data!.categories.edges.map((e) => idOf(e.node.id)),
              want.slice(1),
            );
          }
          // Nested (window function): todos of each category by STATUS DESC.
          const nested = await server.query<
            { categories: { edges: { node: { todos: Page } }[] } }
          >(
            `{ categories { edges { node { todos(orderBy: [{ field: STATUS, direction: DESC }]) { edges { node { id } } } } } } }`,
          );
          // Todos: 2 COMPLETED and 3 PENDING in category 1; 6 PENDING in 2; 1, 5 in 3.
          assertEquals(
            nested.data!.categories.edges.map((e) =>
              e.node.todos.edges.map((t) => idOf(t.node.id))
            ),
            [[3, 2], [6], [1, 5]],
          );
        });
      } finally {
        await server.close();
        await db.close();
      }
    },
  });
}
