/**
 * The node budget (`Limits({ maxCost })` at run time, `runtime/read/row_limit.ts`) on every
 * database, over the blog seeded with 5 users, 15 posts, 30 comments and 10 photos: connections
 * and list edges without `first`/`last` answer all their rows within the budget and
 * `QUERY_TOO_COMPLEX` beyond it, each statement reading at most the nodes left + 1 (its SQL
 * `LIMIT`); the outcome does not depend on the order concurrent statements run in; bounded pages
 * whose static cost fits never fail at run time (the row past `first`/`last` is no node); a
 * connection selecting only its `totalCount` is one `count(*)` (grouped when nested), no row read.
 */
import { assert, assertEquals, assertMatch } from "@std/assert";
import { entities } from "../../examples/blog/entities.ts";
import { Photo } from "../../examples/blog/entities/photo.ts";
import { Post, PostStatus } from "../../examples/blog/entities/post.ts";
import { User } from "../../examples/blog/entities/user.ts";
import { seed } from "../../examples/blog/seed.ts";
import { createSchema } from "../../examples/blog/generated/mod.ts";
import { dialects, openTestOrm, type TestOrm } from "../support/databases.ts";
import { type Response, startServer, type TestServer } from "../support/server.ts";

type Page = { totalCount?: number; edges: { node: Record<string, unknown> }[] };

/** The statements `query` runs, and its response. */
async function counted<T = Record<string, unknown>>(
  db: TestOrm,
  server: TestServer,
  query: string,
): Promise<Response<T> & { log: string[] }> {
  db.log.length = 0;
  const response = await server.query<T>(query);
  return { ...response, log: [...db.log] };
}

/** The rows each logged statement returned (MikroORM's `[took N ms, M results]`). */
function rowsRead(log: string[]): number[] {
  return log.map((sql) => Number(sql.match(/(\d+) results?\]/)?.[1] ?? NaN));
}

function assertOverBudget(response: Response, maxCost: number): void {
  assertEquals(
    response.errors?.[0]?.extensions?.code,
    "QUERY_TOO_COMPLEX",
    JSON.stringify(response),
  );
  assertMatch(
    response.errors![0].message,
    new RegExp(`reads more than ${maxCost} nodes .*maxCost = ${maxCost}: add first/last`),
  );
}

for (const dialect of dialects()) {
  Deno.test({
    name: `the node budget bounds what a request reads (${dialect})`,
    sanitizeOps: false,
    sanitizeResources: false,
    fn: async (t) => {
      const db = await openTestOrm(dialect, entities);
      await seed(db.orm.em.fork());
      const servers: TestServer[] = [];
      const serve = (maxCost: number, maxCells?: number) => {
        const server = startServer(db.orm, createSchema(), [], {
          preset: { limits: { maxCost, ...(maxCells ? { maxCells } : {}) } },
        });
        servers.push(server);
        return server;
      };
      const at20 = serve(20);
      try {
        await t.step("an unbounded connection within the budget answers all its rows", async () => {
          const r = await counted<{ posts: Page }>(db, at20, `{ posts { edges { node { id } } } }`);
          assertEquals(r.errors, undefined);
          assertEquals(r.data!.posts.edges.length, 15);
          assertEquals(r.log.length, 1);
          assertMatch(r.log[0], /\blimit\b/i, "the nodes left + 1");
        });

        await t.step(
          "beyond the budget: QUERY_TOO_COMPLEX, at most the budget + 1 rows",
          async () => {
            const r = await counted(
              db,
              at20,
              `{ a: posts { edges { node { id } } } b: posts { edges { node { title } } } }`,
            );
            assertOverBudget(r, 20);
            assertEquals(
              rowsRead(r.log),
              [15, 6],
              "the second statement read the 5 nodes left + 1",
            );
            // nested: 5 users + 15 posts fit in 20, 30 comments do not
            const nested = await counted(
              db,
              at20,
              `{ users { edges { node { posts { edges { node { comments { edges { node { id } } } } } } } } } }`,
            );
            assertOverBudget(nested, 20);
            assertEquals(rowsRead(nested.log), [5, 15, 1], "no node left: one row tells");
            const fits = await counted<{ users: { edges: { node: { posts: Page } }[] } }>(
              db,
              at20,
              `{ users { edges { node { posts { edges { node { id } } } } } } }`,
            );
            assertEquals(fits.errors, undefined);
            assertEquals(fits.data!.users.edges.flatMap((u) => u.node.posts.edges).length, 15);
          },
        );

        await t.step("the outcome does not depend on the order statements run in", async () => {
          // 10 + 15 nodes: over 20 whichever alias runs first, within 25
          const query = `{ a: posts(first: 10) { edges { node { id } } }
            b: posts { edges { node { id } } } c: users(first: 1) { totalCount } }`;
          for (let i = 0; i < 5; i++) assertOverBudget(await at20.query(query), 20);
          const at25 = serve(25);
          for (let i = 0; i < 5; i++) {
            const r = await at25.query<{ a: Page; b: Page }>(query);
            assertEquals(r.errors, undefined);
            assertEquals(r.data!.b.edges.length, 15);
          }
        });

        await t.step("bounded pages within the static cost never fail at run time", async () => {
          // static cost 2 + 2 * 3 = 8 = maxCost; with hasNextPage each page reads one more row
          const at8 = serve(8);
          const r = await at8.query<{ users: { edges: { node: { posts: Page } }[] } }>(
            `{ users(first: 2) { pageInfo { hasNextPage } edges { node {
              posts(first: 3) { pageInfo { hasNextPage } edges { node { id } } } } } } }`,
          );
          assertEquals(r.errors, undefined);
          assertEquals(r.data!.users.edges.map((u) => u.node.posts.edges.length), [3, 3]);
        });

        await t.step("a connection selecting only totalCount is counted, no row read", async () => {
          const root = await counted<{ posts: { totalCount: number } }>(
            db,
            at20,
            `{ posts { totalCount } }`,
          );
          assertEquals(root.data!.posts.totalCount, 15);
          assertEquals(root.log.length, 1);
          assertMatch(root.log[0], /count\(/i);
          // nested unbounded totalCounts: one grouped count per level, whatever the rows
          const nested = await counted<
            { users: { edges: { node: { posts: { totalCount: number }; photos: Page } }[] } }
          >(
            db,
            serve(5),
            `{ users { edges { node { posts { totalCount } photos { totalCount } } } } }`,
          );
          assertEquals(nested.errors, undefined);
          assertEquals(nested.data!.users.edges.map((u) => u.node.posts.totalCount), [
            3,
            3,
            3,
            3,
            3,
          ]);
          assertEquals(nested.log.length, 3, "users, then one grouped count per edge");
          for (const sql of nested.log.slice(1)) assertMatch(sql, /count\(\*\).*group by/is);
        });

        await t.step("an m:n connection within and beyond the budget", async () => {
          // every photo liked by two users: 5 users + 10 photos + 20 likes = 35 nodes
          const em = db.orm.em.fork();
          const users = await em.find(User, {}, { orderBy: { id: "asc" } });
          const photos = await em.find(Photo, {}, { populate: ["likedBy"] });
          photos.forEach((photo, i) => photo.likedBy.add(users[i % 5], users[(i + 1) % 5]));
          await em.flush();
          const query = `{ users { edges { node { photos { edges { node {
            likedBy { edges { node { id } } } } } } } } } }`;
          const fits = await serve(35).query<
            { users: { edges: { node: { photos: { edges: { node: { likedBy: Page } }[] } } }[] } }
          >(query);
          assertEquals(fits.errors, undefined);
          const likes = fits.data!.users.edges.flatMap((u) =>
            u.node.photos.edges.flatMap((p) => p.node.likedBy.edges)
          );
          assertEquals(likes.length, 20);
          assertOverBudget(await serve(34).query(query), 34);
        });

        await t.step("maxCells: nodes times the fields of the widest list item", async () => {
          // { id title body } on an edge's node: 4 fields per edge (node + 3); 40 / 4 = 10 nodes
          const wide = `{ posts { edges { node { id title body } } } }`;
          const r = await counted(db, serve(1_000, 40), wide);
          assertEquals(r.errors?.[0]?.extensions?.code, "QUERY_TOO_COMPLEX");
          assertMatch(
            r.errors![0].message,
            /reads more than 10 nodes .*maxCells = 40 \(4 fields per node\): add first\/last/,
          );
          assertEquals(rowsRead(r.log), [11], "the 10 nodes left + 1");
          // { id }: 2 fields per edge, 20 nodes: all 15 posts, as em.find reads them
          const narrow = await counted<{ posts: Page }>(
            db,
            serve(1_000, 40),
            `{ posts { edges { node { id } } } }`,
          );
          assertEquals(narrow.errors, undefined);
          assertEquals(narrow.data!.posts.edges.length, await db.orm.em.fork().count(Post, {}));
          // bounded by first: refused before any SQL, 15 nodes x 4 fields = 60 values
          const bounded = await counted(
            db,
            serve(1_000, 40),
            `{ posts(first: 15) { edges { node { id title body } } } }`,
          );
          assertEquals(bounded.errors?.[0]?.extensions?.code, "QUERY_TOO_COMPLEX");
          assertMatch(
            bounded.errors![0].message,
            /may return 15 nodes of up to 4 fields each \(60 values\); the limit is maxCells = 40/,
          );
          assertEquals(bounded.log, []);
        });

        await t.step(
          "a large unbounded read over the budget is counted, not read (1,000 nodes first)",
          async () => {
            const em = db.orm.em.fork();
            const author = await em.findOneOrFail(User, { name: "user000" });
            for (let i = 0; i < 1_200; i++) {
              em.create(Post, {
                title: `extra ${i}`,
                body: "",
                status: PostStatus[0],
                views: 0,
                author,
              } as never);
            }
            await em.flush();
            const all = await em.fork().count(Post, {});
            // one connection of all posts: 1,001 nodes, the count, then all of them
            const one = await counted<{ posts: Page }>(
              db,
              serve(2_000),
              `{ posts { edges { node { id } } } }`,
            );
            assertEquals(one.errors, undefined);
            assertEquals(one.data!.posts.edges.length, all);
            assertEquals(rowsRead(one.log), [1_001, 1, all]);
            assertMatch(one.log[1], /count\(\*\)/i);
            // two of them in 2,300 nodes: each reads 1,001 nodes, then its count; the second count
            // (1,215 over the 1,085 not promised to the first) refuses the request, its rows unread
            const two = await counted(
              db,
              serve(2_300),
              `{ a: posts { edges { node { id } } } b: posts { edges { node { id } } } }`,
            );
            assertOverBudget(two, 2_300);
            const rows = rowsRead(two.log);
            assertEquals(rows.filter((n) => n === 1_001).length, 2, rows.join());
            assertEquals(two.log.filter((sql) => /count\(\*\)/i.test(sql)).length, 2);
            assert(rows.filter((n) => n === all).length <= 1, rows.join());
          },
        );
      } finally {
        for (const server of servers) await server.close();
        await db.close();
      }
    },
  });
}
