/**
 * No per-parent loading left: edges of nodes that field collection did not
 * load (nodes a user resolver returns, from a query field or a mutation returning several nodes,
 * and everything below an `Unbind()` edge) are loaded batched by response path; unidirectional
 * `m:n` edges and nested connections ordered by an edge count or an edge's field are batched like
 * the others. One statement per edge per level, never one per parent, counted from MikroORM's
 * query log on SQLite and PostgreSQL.
 */
import { assertEquals } from "@std/assert";
import { fromContext, type MikroContext } from "../../mod.ts";
import { User } from "../../examples/blog/entities/user.ts";
import { entities as blogEntities } from "../../examples/blog/entities.ts";
import { seed as seedBlog } from "../../examples/blog/seed.ts";
import { createSchema as blogSchema } from "../../examples/blog/generated/mod.ts";
import { entities as realworldEntities } from "../../examples/realworld/entities.ts";
import { seed as seedRealworld } from "../../examples/realworld/seed.ts";
import { createSchema as realworldSchema } from "../../examples/realworld/generated/mod.ts";
import { entities as todoEntities } from "../../examples/todo/entities.ts";
import { seed as seedTodo } from "../../examples/todo/seed.ts";
import { createSchema as todoSchema } from "../../examples/todo/generated/mod.ts";
import { Photo } from "../../examples/blog/entities/photo.ts";
import { dialects, openTestOrm, type TestOrm } from "../support/databases.ts";
import { type Response, startServer, type TestServer } from "../support/server.ts";

async function counted<T>(
  db: TestOrm,
  server: TestServer,
  query: string,
  variables?: Record<string, unknown>,
): Promise<Response<T> & { statements: number }> {
  db.log.length = 0;
  const response = await server.query<T>(query, variables);
  // a mutation runs in the Transactioner's transaction: its begin and commit read nothing
  const reads = db.log.filter((s) => !/^\s*(begin|start transaction|commit)\b/i.test(s));
  return { ...response, statements: reads.length };
}

type Posts = {
  totalCount: number;
  edges: {
    node: { title: string; author: { name: string }; comments: { edges: unknown[] } };
  }[];
};

const SELECTION = `name posts(first: 2) { totalCount edges { node { title author { name }
  comments(first: 1) { edges { node { text } } } } } }`;

for (const dialect of dialects(["sqlite", "postgresql"])) {
  Deno.test({
    name: `edges of nodes from user resolvers are batched per level (${dialect})`,
    sanitizeOps: false,
    sanitizeResources: false,
    fn: async (t) => {
      const db = await openTestOrm(dialect, blogEntities);
      await seedBlog(db.orm.em.fork(), {
        users: 6,
        photosPerUser: 1,
        postsPerUser: 3,
        commentsPerPost: 2,
      });
      // fromContext: in a mutation, the Transactioner's transaction (SQLite's one connection)
      const top = (_: unknown, args: { n: number }, ctx: MikroContext) =>
        fromContext(ctx).find(User, {}, { limit: args.n, orderBy: { id: "asc" } });
      const server = startServer(
        db.orm,
        blogSchema({
          typeDefs: [
            "extend type Query { topUsers(n: Int!): [User!]! }",
            "extend type Mutation { touchUsers(n: Int!): [User!]! }",
          ],
          resolvers: { Query: { topUsers: top }, Mutation: { touchUsers: top } } as never,
        }),
      );
      try {
        await t.step(
          "a query field of your own: the same statements for 2 and 6 users",
          async () => {
            for (const n of [2, 6]) {
              const r = await counted<{ topUsers: { name: string; posts: Posts }[] }>(
                db,
                server,
                `query($n: Int!) { topUsers(n: $n) { ${SELECTION} } }`,
                { n },
              );
              assertEquals(r.errors, undefined);
              assertEquals(r.data!.topUsers.length, n);
              for (const user of r.data!.topUsers) {
                assertEquals(user.posts.totalCount, 3);
                assertEquals(user.posts.edges.length, 2);
                for (const { node } of user.posts.edges) {
                  assertEquals(node.author.name, user.name);
                  assertEquals(node.comments.edges.length, 1);
                }
              }
              // users, the posts' page counting each user's posts, their authors, their comments
              assertEquals(r.statements, 4, `${n} users:\n${db.log.join("\n")}`);
            }
          },
        );

        await t.step("a unidirectional m:n edge (Photo.likedBy) under many parents", async () => {
          const em = db.orm.em.fork();
          const users = await em.find(User, {}, { orderBy: { id: "asc" } });
          const photos = await em.find(Photo, {}, {
            populate: ["likedBy"] as never,
            orderBy: { id: "asc" },
          });
          photos.forEach((photo, i) => photo.likedBy.add(users.slice(0, i % 4)));
          await em.flush();
          for (const n of [2, 6]) {
            const r = await counted<
              {
                users: {
                  edges: {
                    node: {
                      photos: {
                        edges: {
                          node: {
                            likedBy: { totalCount: number; edges: { node: { name: string } }[] };
                          };
                        }[];
                      };
                    };
                  }[];
                };
              }
            >(
              db,
              server,
              `query($n: Int) { users(first: $n) { edges { node { photos { edges { node {
                likedBy(first: 2) { totalCount edges { node { name } } } } } } } } } }`,
              { n },
            );
            assertEquals(r.errors, undefined);
            const likes = r.data!.users.edges.map((e) =>
              e.node.photos.edges.map((
                p,
              ) => [p.node.likedBy.totalCount, p.node.likedBy.edges.length])
            ).flat();
            assertEquals(likes, [[0, 0], [1, 1], [2, 2], [3, 2], [0, 0], [1, 1]].slice(0, n));
            // users, photos, the likes' pages counting each photo's likes
            assertEquals(r.statements, 3, `${n} users:\n${db.log.join("\n")}`);
          }
        });

        await t.step("a mutation returning several nodes", async () => {
          const r = await counted<{ touchUsers: { name: string; posts: Posts }[] }>(
            db,
            server,
            `mutation { touchUsers(n: 4) { ${SELECTION} } }`,
          );
          assertEquals(r.errors, undefined);
          assertEquals(r.data!.touchUsers.map((u) => u.posts.edges.length), [2, 2, 2, 2]);
          // the users, the posts' page counting them, their authors, their comments
          assertEquals(r.statements, 4);
        });
      } finally {
        await server.close();
        await db.close();
      }
    },
  });

  Deno.test({
    name: `nested connections ordered by edge counts and edge fields, batched (${dialect})`,
    sanitizeOps: false,
    sanitizeResources: false,
    fn: async () => {
      const db = await openTestOrm(dialect, todoEntities);
      await seedTodo(db.orm.em.fork());
      const server = startServer(db.orm, todoSchema());
      try {
        for (const field of ["CHILDREN_COUNT", "PARENT_STATUS", "CATEGORY_TEXT"]) {
          const r = await counted<
            { categories: { edges: { node: { todos: { edges: { cursor: string }[] } } }[] } }
          >(
            db,
            server,
            `{ categories { edges { node { todos(first: 1, orderBy: [{ field: ${field}, direction: DESC }]) {
              edges { cursor node { text } } } } } } }`,
          );
          assertEquals(r.errors, undefined);
          assertEquals(
            r.data!.categories.edges.map((e) => e.node.todos.edges.length),
            [1, 1, 1],
          );
          // categories, the todos' pages (ordered in SQL), the pages' cursor values
          assertEquals(r.statements, 3, `${field}:\n${db.log.join("\n")}`);
        }
      } finally {
        await server.close();
        await db.close();
      }
    },
  });

  Deno.test({
    name: `edges below an Unbind() edge are batched per level (${dialect})`,
    sanitizeOps: false,
    sanitizeResources: false,
    fn: async () => {
      const db = await openTestOrm(dialect, realworldEntities);
      await seedRealworld(db.orm.em.fork());
      const server = startServer(db.orm, realworldSchema());
      try {
        for (const n of [3, 12]) {
          const r = await counted<
            {
              articles: {
                edges: {
                  node: {
                    title: string;
                    comments: {
                      edges: {
                        node: { article: { title: string }; author: { username: string } };
                      }[];
                    };
                  };
                }[];
              };
            }
          >(
            db,
            server,
            `query($n: Int) { articles(first: $n) { edges { node { title
              comments { edges { node { article { title } author { username } } } } } } } }`,
            { n },
          );
          assertEquals(r.errors, undefined);
          assertEquals(r.data!.articles.edges.length, n);
          for (const { node } of r.data!.articles.edges) {
            assertEquals(node.comments.edges.length, 2);
            for (const c of node.comments.edges) assertEquals(c.node.article.title, node.title);
          }
          // articles, their comments (Unbind, batched), the comments' articles and authors
          assertEquals(r.statements, 4, `${n} articles:\n${db.log.join("\n")}`);
        }
      } finally {
        await server.close();
        await db.close();
      }
    },
  });
}
