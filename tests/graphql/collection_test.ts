/**
 * Field collection: SQL statements per request are constant per nesting level (counted from
 * MikroORM's query log), on SQLite, PostgreSQL and MariaDB; per-parent pages equal what a
 * single-parent load returns; depth and page-size limits reject before any SQL runs.
 */
import { assert, assertEquals } from "@std/assert";
import { entities as blogEntities } from "../../examples/blog/entities.ts";
import { seed as seedBlog } from "../../examples/blog/seed.ts";
import { createSchema as blogSchema, type User } from "../../examples/blog/generated/mod.ts";
import { entities as realworldEntities } from "../../examples/realworld/entities.ts";
import { seed as seedRealworld } from "../../examples/realworld/seed.ts";
import { createSchema as realworldSchema } from "../../examples/realworld/generated/mod.ts";
import type { FieldResolver } from "../../runtime/resolve/resolver_types.ts";
import { dialects, openTestOrm, type TestOrm } from "../support/databases.ts";
import { startServer, type TestServer } from "../support/server.ts";

/** Runs `query` and returns the data and the number of SQL statements it cost. */
async function counted<T>(
  db: TestOrm,
  server: TestServer,
  query: string,
  variables?: Record<string, unknown>,
): Promise<
  { data: T; statements: number; errors?: { message: string; extensions?: { code?: string } }[] }
> {
  db.log.length = 0;
  const response = await server.query<T>(query, variables);
  return { data: response.data as T, statements: db.log.length, errors: response.errors };
}

const NESTED = `query($n: Int) {
  users(first: $n) { edges { node { name
    photos(first: $n) { edges { node { url } } }
    posts(first: $n) { edges { node { title comments(first: $n) { edges { node { text } } } } } }
  } } }
}`;

const NESTED_ALL = `{
  users { edges { node { name
    photos { edges { node { url } } }
    posts { edges { node { title comments { edges { node { text } } } } } }
  } } }
}`;

for (const dialect of dialects()) {
  Deno.test({
    name: `field collection on the blog (${dialect}): 4 statements for any number of users`,
    sanitizeOps: false,
    sanitizeResources: false,
    fn: async (t) => {
      const db = await openTestOrm(dialect, blogEntities);
      await seedBlog(db.orm.em.fork(), {
        users: 12,
        photosPerUser: 3,
        postsPerUser: 4,
        commentsPerPost: 3,
      });
      const server = startServer(db.orm, blogSchema());
      try {
        await t.step(
          "users { photos, posts { comments } } = 4 statements at 1, 5 and 12 users",
          async () => {
            for (const n of [1, 5, 12]) {
              const r = await counted<
                { users: { edges: { node: { posts: { edges: unknown[] } } }[] } }
              >(
                db,
                server,
                NESTED,
                { n },
              );
              assertEquals(r.errors, undefined);
              assertEquals(r.data.users.edges.length, n);
              assertEquals(r.statements, 4, `n=${n}`);
            }
            const all = await counted<
              {
                users: {
                  edges: {
                    node: { posts: { edges: { node: { comments: { edges: unknown[] } } }[] } };
                  }[];
                };
              }
            >(
              db,
              server,
              NESTED_ALL,
            );
            assertEquals(all.statements, 4);
            assertEquals(all.data.users.edges.length, 12);
            for (const user of all.data.users.edges) {
              assertEquals(user.node.posts.edges.length, 4);
              for (const post of user.node.posts.edges) {
                assertEquals(post.node.comments.edges.length, 3);
              }
            }
          },
        );

        await t.step("a selected nested totalCount adds one grouped count per level", async () => {
          const r = await counted<
            { users: { edges: { node: { posts: { totalCount: number; edges: unknown[] } } }[] } }
          >(
            db,
            server,
            `{ users(first: 5) { edges { node { posts(first: 2) { totalCount edges { node { comments(first: 1) { totalCount } } } } } } } }`,
          );
          // users, posts' page counting each user's posts in the same statement (a window),
          // comments' count: a connection selecting only its totalCount reads no rows (entgql: no
          // edges collected, only the count)
          assertEquals(r.statements, 3);
          for (const user of r.data.users.edges) {
            assertEquals(user.node.posts.totalCount, 4);
            assertEquals(user.node.posts.edges.length, 2);
          }
          const unpaginated = await counted(
            db,
            server,
            `{ users(first: 3) { edges { node { posts { totalCount } } } } }`,
          );
          assertEquals(unpaginated.statements, 2);
        });

        await t.step("a paginated totalCount is counted in its page's statement", async () => {
          type Page = {
            users: { totalCount: number; edges: { cursor: string; node: { name: string } }[] };
          };
          const page = (first: number, after: string | null, where = {}) =>
            counted<Page>(
              db,
              server,
              `query($first: Int, $after: Cursor, $where: UserWhereInput) { users(first: $first, after: $after, where: $where) { totalCount edges { cursor node { name } } } }`,
              { first, after, where },
            );
          const start = await page(11, null);
          assertEquals(start.statements, 1);
          assertEquals(start.data.users.totalCount, 12);
          // With a cursor the page holds none of the rows before it: counted first, as before.
          const next = await page(5, start.data.users.edges[10].cursor);
          assertEquals(next.statements, 2);
          assertEquals(next.data.users.totalCount, 12);
          assertEquals(next.data.users.edges.length, 1);
          const filtered = await page(1, null, { nameIn: [start.data.users.edges[3].node.name] });
          assertEquals(filtered.statements, 1);
          assertEquals(filtered.data.users.totalCount, 1);
          // No row: none is counted.
          const none = await page(1, null, { nameIn: ["nobody"] });
          assertEquals(none.statements, 1);
          assertEquals(none.data.users.totalCount, 0);
          assertEquals(none.data.users.edges, []);
        });

        await t.step("aliases with different arguments are separate loads", async () => {
          const r = await counted<{ users: { edges: { node: { a: Conn; b: Conn } }[] } }>(
            db,
            server,
            `{ users(first: 3) { edges { node {
              a: posts(first: 1, orderBy: { field: TITLE }) { edges { node { title } } pageInfo { hasNextPage } }
              b: posts(last: 2, orderBy: { field: TITLE }) { edges { node { title } } pageInfo { hasPreviousPage } }
            } } } }`,
          );
          assertEquals(r.errors, undefined);
          assertEquals(r.statements, 3);
          for (const { node } of r.data.users.edges) {
            assertEquals(
              node.a.edges.map((e) => e.node.title.slice(0, 6)),
              ["Post 0"],
            );
            assertEquals(node.b.edges.map((e) => e.node.title.slice(0, 6)), ["Post 2", "Post 3"]);
            assertEquals(node.a.pageInfo.hasNextPage, true);
            assertEquals(node.b.pageInfo.hasPreviousPage, true);
          }
        });

        await t.step("named fragments, inline fragments and @skip/@include", async () => {
          const r = await counted<
            {
              posts: {
                edges: {
                  node: {
                    title: string;
                    author: { name: string };
                    comments: { totalCount: number };
                  };
                }[];
              };
            }
          >(
            db,
            server,
            `fragment P on Post { title ... on Node { id } ...A }
             fragment A on Post { author { name } comments @include(if: true) { totalCount } photos: author @skip(if: true) { id } }
             { posts(first: 6) { edges { node { ...P } } } }`,
          );
          assertEquals(r.errors, undefined);
          assertEquals(r.statements, 3);
          assertEquals(r.data.posts.edges.length, 6);
          for (const { node } of r.data.posts.edges) {
            assert(node.title.endsWith(node.author.name));
            assertEquals(node.comments.totalCount, 3);
          }
        });

        await t.step("node(id) and nodes(ids) with nested edges", async () => {
          const ids = await server.query<
            {
              users: {
                edges: { node: { id: string; posts: { edges: { node: { id: string } }[] } } }[];
              };
            }
          >(
            `{ users(first: 2) { edges { node { id posts(first: 1) { edges { node { id } } } } } } }`,
          );
          const [u1, u2] = ids.data!.users.edges.map((e) => e.node);
          const one = await counted<
            {
              node: {
                name: string;
                posts: { edges: { node: { comments: { edges: unknown[] } } }[] };
              };
            }
          >(
            db,
            server,
            `query($id: ID!) { node(id: $id) { ... on User { name posts(first: 2) { edges { node { comments(first: 1) { edges { node { text } } } } } } } } }`,
            { id: u1.id },
          );
          // The node and its posts page in one statement (read/joined_page.ts), then the
          // comments of both posts.
          assertEquals(one.statements, 2);
          assertEquals(one.data.node.posts.edges.length, 2);
          assertEquals(one.data.node.posts.edges[0].node.comments.edges.length, 1);
          const many = await counted<
            {
              nodes:
                ({ posts?: { totalCount: number }; comments?: { totalCount: number } } | null)[];
            }
          >(
            db,
            server,
            `query($ids: [ID!]!) { nodes(ids: $ids) { id ... on User { posts { totalCount } } ... on Post { comments { totalCount } } } }`,
            { ids: [u1.id, u2.id, u1.posts.edges[0].node.id] },
          );
          assertEquals(many.statements, 4);
          assertEquals(
            many.data.nodes.map((n) => n?.posts?.totalCount ?? n?.comments?.totalCount),
            [4, 4, 3],
          );
        });

        await t.step(
          "node(id) and one edge's page in one statement, answering as the edge read alone",
          async () => {
            const ids = await server.query<
              {
                users: {
                  edges: { node: { id: string; posts: { edges: { node: { id: string } }[] } } }[];
                };
              }
            >(`{ users(first: 1) { edges { node { id posts(first: 1) { edges { node { id } } } } } } }`);
            const user = ids.data!.users.edges[0].node;
            const post = user.posts.edges[0].node.id;
            // The same edge with totalCount is counted first, so it is read on its own, after the
            // node: the reference answer.
            const pages = [
              [post, "Post", "comments(first: 2)"],
              [post, "Post", "comments(last: 2)"],
              [post, "Post", "comments(first: 5)"],
              [user.id, "User", "posts(first: 3)"],
              [user.id, "User", `posts(first: 2, where: { title: "no such title" })`],
            ];
            for (const [id, type, edge] of pages) {
              const page = (count: string) =>
                `query($id: ID!) { node(id: $id) { id ... on ${type} { ${edge} { ${count} pageInfo { hasNextPage hasPreviousPage startCursor endCursor } edges { cursor node { id } } } } } }`;
              const joined = await counted<{ node: Record<string, Record<string, unknown>> }>(
                db,
                server,
                page(""),
                { id },
              );
              const alone = await server.query<{ node: Record<string, Record<string, unknown>> }>(
                page("totalCount"),
                { id },
              );
              assertEquals(joined.errors, undefined, edge);
              assertEquals(joined.statements, 1, edge);
              const field = edge.slice(0, edge.indexOf("("));
              const { totalCount: _, ...expected } = alone.data!.node[field];
              assertEquals(joined.data.node[field], expected, edge);
            }
            const after = await server.query<
              { node: { comments: { edges: { cursor: string }[] } } }
            >(
              `query($id: ID!) { node(id: $id) { ... on Post { comments(first: 1) { edges { cursor } } } } }`,
              { id: post },
            );
            const next = await counted<{ node: { comments: { edges: unknown[] } } }>(
              db,
              server,
              `query($id: ID!, $after: Cursor) { node(id: $id) { ... on Post { comments(first: 5, after: $after) { edges { node { text } } } } } }`,
              { id: post, after: after.data!.node.comments.edges[0].cursor },
            );
            assertEquals(next.statements, 1);
            assertEquals(next.data.node.comments.edges.length, 2);
            // No row with the key: NOT_FOUND, as without the page.
            const missing = await counted<{ node: unknown }>(
              db,
              server,
              `query($id: ID!) { node(id: $id) { ... on Post { comments(first: 2) { edges { node { id } } } } } }`,
              { id: btoa("Post:999999").replaceAll("=", "") },
            );
            assertEquals(missing.data?.node ?? null, null);
            assertEquals(missing.errors?.[0].extensions?.code, "NOT_FOUND");
            assertEquals(missing.statements, 1);
          },
        );

        await t.step(
          "where on nested connections: batched, filtered pages and counts",
          async () => {
            const where = { or: [{ titleHasPrefix: "Post 1" }, { titleContainsFold: "POST 3" }] };
            const r = await counted<
              {
                users: {
                  edges: { node: { name: string; posts: Conn & { totalCount: number } } }[];
                };
              }
            >(
              db,
              server,
              `query($w: PostWhereInput) { users(first: 4) { edges { node { name
              posts(first: 1, where: $w, orderBy: { field: TITLE, direction: DESC }) { totalCount edges { node { title } } }
            } } } }`,
              { w: where },
            );
            assertEquals(r.errors, undefined);
            // users, then the posts' pages with their counts (a window over the filtered rows)
            assertEquals(r.statements, 2);
            for (const { node } of r.data.users.edges) {
              assertEquals(node.posts.totalCount, 2);
              assertEquals(node.posts.edges.map((e) => e.node.title), [`Post 3 by ${node.name}`]);
            }
            const bad = await counted(
              db,
              server,
              `{ users(first: 2) { edges { node { posts(where: { not: {} }) { totalCount } } } } }`,
            );
            assertEquals(bad.errors?.[0].extensions?.code, "BAD_USER_INPUT");
          },
        );

        await t.step("a mutation's returned node goes through field collection", async () => {
          const ids = await server.query<{ users: { edges: { node: { id: string } }[] } }>(
            `{ users(first: 1) { edges { node { id } } } }`,
          );
          const author = ids.data!.users.edges[0].node.id;
          const create = (selection: string) =>
            counted<
              { createPost: { author?: { posts: { totalCount: number; edges: unknown[] } } } }
            >(
              db,
              server,
              `mutation($a: ID!) { createPost(input: { title: "new", body: "b", authorID: $a }) { ${selection} } }`,
              { a: author },
            );
          const flat = await create("id");
          assertEquals(flat.errors, undefined);
          const nested = await create(
            "id author { name posts(first: 2) { totalCount edges { node { comments(first: 1) { edges { node { text } } } } } } }",
          );
          assertEquals(nested.errors, undefined);
          assertEquals(nested.data.createPost.author!.posts.totalCount, 6);
          assertEquals(nested.data.createPost.author!.posts.edges.length, 2);
          // author, posts page with its count, comments: one statement per edge per level.
          assertEquals(nested.statements - flat.statements, 3);
        });

        await t.step("too deep or too large pages are rejected before any SQL runs", async () => {
          let deep = "id";
          for (let i = 0; i < 12; i++) {
            deep = `posts(first: 1) { edges { node { author { ${deep} } } } }`;
          }
          const tooDeep = await counted(
            db,
            server,
            `{ users(first: 1) { edges { node { ${deep} } } } }`,
          );
          assertEquals(tooDeep.errors?.[0].extensions?.code, "QUERY_TOO_DEEP");
          assertEquals(tooDeep.statements, 0);
          const tooLarge = await counted(
            db,
            server,
            `{ users(first: 1) { edges { node { posts(first: 1001) { totalCount } } } } }`,
          );
          assertEquals(tooLarge.errors?.[0].extensions?.code, "INVALID_PAGINATION");
          assertEquals(tooLarge.statements, 0);
        });
      } finally {
        await server.close();
        await db.close();
      }
    },
  });

  Deno.test({
    name:
      `field collection on RealWorld m:n (${dialect}): constant statements for 1, 10 and 100 articles`,
    sanitizeOps: false,
    sanitizeResources: false,
    fn: async () => {
      const db = await openTestOrm(dialect, realworldEntities);
      await seedRealworld(db.orm.em.fork(), { users: 8, tags: 6, articles: 100 });
      const server = startServer(db.orm, realworldSchema());
      try {
        const statements: number[] = [];
        for (const n of [1, 10, 100]) {
          const r = await counted<
            {
              articles: {
                edges: {
                  node: {
                    tagList: unknown[];
                    favoritedBy: { totalCount: number; edges: unknown[] };
                  };
                }[];
              };
            }
          >(
            db,
            server,
            `query($n: Int) { articles(first: $n) { edges { node { title tagList { name } favoritedBy(first: 2) { totalCount edges { node { username } } } } } } }`,
            { n },
          );
          assertEquals(r.errors, undefined);
          assertEquals(r.data.articles.edges.length, n);
          for (const { node } of r.data.articles.edges) {
            assertEquals(node.tagList.length, 2);
            assert(node.favoritedBy.edges.length === Math.min(2, node.favoritedBy.totalCount));
          }
          statements.push(r.statements);
        }
        // articles, tags, favoritedBy's pages with their counts (a window per article)
        assertEquals(statements, [3, 3, 3]);
      } finally {
        await server.close();
        await db.close();
      }
    },
  });
}

interface Conn {
  edges: { node: { title: string } }[];
  pageInfo: { hasNextPage?: boolean; hasPreviousPage?: boolean };
}

for (const dialect of dialects(["sqlite", "postgresql"])) {
  Deno.test({
    name: `user resolvers, CollectedFor and Unbind (${dialect})`,
    sanitizeOps: false,
    sanitizeResources: false,
    fn: async (t) => {
      const blog = await openTestOrm(dialect, blogEntities);
      await seedBlog(blog.orm.em.fork(), {
        users: 4,
        photosPerUser: 0,
        postsPerUser: 1,
        commentsPerPost: 0,
      });
      const server = startServer(
        blog.orm,
        blogSchema<{
          User: { displayName: FieldResolver<string, User>; shout: FieldResolver<string, User> };
        }>({
          typeDefs: `extend type User { displayName: String! shout: String! }`,
          resolvers: {
            User: {
              displayName: (u) => `@${u.name}`,
              shout: (u) => u.email.toUpperCase(),
            },
          },
        }),
      );
      try {
        await t.step("a CollectedFor field selects only its properties", async () => {
          const r = await counted<{ users: { edges: { node: { displayName: string } }[] } }>(
            blog,
            server,
            `{ users(first: 2) { edges { node { displayName } } } }`,
          );
          assertEquals(r.data.users.edges.map((e) => e.node.displayName), ["@user000", "@user001"]);
          assertEquals(r.statements, 1);
          assert(!/email|\.\*/.test(blog.log[0]), blog.log[0]);
        });
        await t.step("an unknown user resolver field selects every column", async () => {
          const r = await counted<{ users: { edges: { node: { shout: string } }[] } }>(
            blog,
            server,
            `{ users(first: 1) { edges { node { shout } } } }`,
          );
          assertEquals(r.data.users.edges[0].node.shout, "USER0@EXAMPLE.COM");
          assert(/\.\*/.test(blog.log[0]), blog.log[0]);
        });
      } finally {
        await server.close();
        await blog.close();
      }

      const rw = await openTestOrm(dialect, realworldEntities);
      await seedRealworld(rw.orm.em.fork(), { users: 4, tags: 3, articles: 5 });
      const rwServer = startServer(rw.orm, realworldSchema());
      try {
        await t.step(
          "an Unbind() edge is loaded by its resolver, batched: one page counting its rows",
          async () => {
            const r = await counted<
              {
                articles: {
                  edges: { node: { comments: { totalCount: number; edges: unknown[] } } }[];
                };
              }
            >(
              rw,
              rwServer,
              `{ articles(first: 5) { edges { node { comments(first: 1) { totalCount edges { node { body } } } } } } }`,
            );
            assertEquals(r.errors, undefined);
            assertEquals(
              r.data.articles.edges.map((
                e,
              ) => [e.node.comments.totalCount, e.node.comments.edges.length]),
              [
                [2, 1],
                [2, 1],
                [2, 1],
                [2, 1],
                [2, 1],
              ],
            );
            // articles, then one page of every article's comments, counted in it (a window)
            assertEquals(r.statements, 1 + 1);
          },
        );
      } finally {
        await rwServer.close();
        await rw.close();
      }
    },
  });
}
