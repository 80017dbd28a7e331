/**
 * Property-style check of nested pagination: over random data and random arguments, each
 * parent's page from the batched `ROW_NUMBER() OVER (PARTITION BY ...)` load (many parents) equals
 * the page a single-parent load (`node(id)`, plain `ORDER BY ... LIMIT`) returns: edges, cursors,
 * pageInfo and totalCount.
 */
import { assertEquals } from "@std/assert";
import { Post } from "../../examples/blog/entities/post.ts";
import { User } from "../../examples/blog/entities/user.ts";
import { entities } from "../../examples/blog/entities.ts";
import { createSchema } from "../../examples/blog/generated/mod.ts";
import { entities as todoEntities } from "../../examples/todo/entities.ts";
import { seed as seedTodo } from "../../examples/todo/seed.ts";
import { createSchema as todoSchema } from "../../examples/todo/generated/mod.ts";
import { dialects, openTestOrm } from "../support/databases.ts";
import { random } from "../support/random_data.ts";
import { startServer } from "../support/server.ts";

const PAGE =
  `edges { cursor node { id title views } } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } totalCount`;

for (const dialect of dialects(["sqlite", "postgresql"])) {
  Deno.test({
    name: `nested pages per parent equal single-parent pages over random data (${dialect})`,
    sanitizeOps: false,
    sanitizeResources: false,
    fn: async () => {
      const rand = random(20261121);
      const pick = <T>(list: T[]) => list[Math.floor(rand() * list.length)];
      const db = await openTestOrm(dialect, entities);
      const em = db.orm.em.fork();
      const users = Array.from(
        { length: 8 },
        (_, i) => em.create(User, { name: `u${i}`, email: `u${i}@x.example` }),
      );
      for (const author of users) {
        const count = Math.floor(rand() * 10);
        for (let i = 0; i < count; i++) {
          em.create(Post, {
            title: pick(["a", "b", "c", "d"]),
            body: "",
            views: Math.floor(rand() * 4),
            author,
          });
        }
      }
      await em.flush();
      const server = startServer(db.orm, createSchema());
      try {
        for (let trial = 0; trial < 40; trial++) {
          const orderBy = pick([null, { field: "TITLE", direction: "ASC" }, {
            field: "VIEWS",
            direction: "DESC",
          }, {
            field: "TITLE",
            direction: "DESC",
          }]);
          const size = 1 + Math.floor(rand() * 4);
          const args: Record<string, unknown> = rand() < 0.5 ? { first: size } : { last: size };
          if (orderBy) args.orderBy = orderBy;
          if (rand() < 0.5) {
            // A cursor from some page under the same order (cursors are positions, valid for any parent).
            const seedPage = await server.query<{ posts: { edges: { cursor: string }[] } }>(
              `query($o: PostOrder) { posts(first: 12, orderBy: $o) { edges { cursor } } }`,
              { o: orderBy },
            );
            const cursors = seedPage.data!.posts.edges.map((e) => e.cursor);
            if (cursors.length) args[rand() < 0.5 ? "after" : "before"] = pick(cursors);
          }
          const batched = await server.query<
            { users: { edges: { node: { id: string; posts: unknown } }[] } }
          >(
            `query($first: Int, $last: Int, $after: Cursor, $before: Cursor, $orderBy: PostOrder) {
              users { edges { node { id posts(first: $first, last: $last, after: $after, before: $before, orderBy: $orderBy) { ${PAGE} } } } }
            }`,
            args,
          );
          assertEquals(batched.errors, undefined);
          for (const { node } of batched.data!.users.edges) {
            const single = await server.query<{ node: { posts: unknown } }>(
              `query($id: ID!, $first: Int, $last: Int, $after: Cursor, $before: Cursor, $orderBy: PostOrder) {
                node(id: $id) { ... on User { posts(first: $first, last: $last, after: $after, before: $before, orderBy: $orderBy) { ${PAGE} } } }
              }`,
              { id: node.id, ...args },
            );
            assertEquals(
              node.posts,
              single.data!.node.posts,
              `trial ${trial} ${JSON.stringify(args)}`,
            );
          }
        }
      } finally {
        await server.close();
        await db.close();
      }
    },
  });
}

for (const dialect of dialects()) {
  Deno.test({
    name:
      `nested pages under edge-count, edge-field and date orders equal single-parent pages (${dialect})`,
    sanitizeOps: false,
    sanitizeResources: false,
    fn: async () => {
      const db = await openTestOrm(dialect, todoEntities);
      await seedTodo(db.orm.em.fork());
      const server = startServer(db.orm, todoSchema());
      const TODOS =
        `edges { cursor node { text } } pageInfo { hasNextPage hasPreviousPage endCursor } totalCount`;
      try {
        for (const field of ["CHILDREN_COUNT", "PARENT_STATUS", "CREATED_AT", "TEXT"]) {
          for (const direction of ["ASC", "DESC"]) {
            const orderBy = [{ field, direction }];
            let after: string | null = null;
            for (let page = 0; page < 3; page++) {
              const args: Record<string, unknown> = { orderBy, first: 1, after };
              const batched = await server.query<
                {
                  categories: {
                    edges: {
                      node: { id: string; todos: { pageInfo: { endCursor: string | null } } };
                    }[];
                  };
                }
              >(
                `query($orderBy: [TodoOrder!], $first: Int, $after: Cursor) {
                  categories { edges { node { id todos(first: $first, after: $after, orderBy: $orderBy) { ${TODOS} } } } }
                }`,
                args,
              );
              assertEquals(batched.errors, undefined, JSON.stringify(batched.errors));
              for (const { node } of batched.data!.categories.edges) {
                const single = await server.query<{ node: { todos: unknown } }>(
                  `query($id: ID!, $orderBy: [TodoOrder!], $first: Int, $after: Cursor) {
                    node(id: $id) { ... on Category { todos(first: $first, after: $after, orderBy: $orderBy) { ${TODOS} } } }
                  }`,
                  { id: node.id, ...args },
                );
                assertEquals(
                  node.todos,
                  single.data!.node.todos,
                  `${field} ${direction} page ${page}`,
                );
              }
              // Continue from the first category's page: cursors are positions valid for every parent.
              after = batched.data!.categories.edges[0].node.todos.pageInfo.endCursor ?? after;
            }
          }
        }
      } finally {
        await server.close();
        await db.close();
      }
    },
  });
}
