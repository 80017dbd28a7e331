/**
 * The unbounded read over 60,000 posts, on SQLite, with the preset's
 * default limits: one connection without `first`/`last` answers all 60,000 rows (within the node
 * budget, `maxCost` 500,000), and 11 aliases of it (660,000 nodes) are `QUERY_TOO_COMPLEX` with
 * the process's resident memory growing by less than 100 MB (each statement reads at most the
 * nodes left + 1; before the node budget this request read every row and grew RSS by 346 MB).
 * SQLite's statements run one after another; on PostgreSQL the 11 statements run at once and each
 * may read the nodes left when it starts (all 60,000 rows: +81 MB measured), so the bound is
 * asserted where the budget is charged statement by statement.
 */
import { assert, assertEquals } from "@std/assert";
import { entities } from "../../examples/blog/entities.ts";
import { seed } from "../../examples/blog/seed.ts";
import { createSchema } from "../../examples/blog/generated/mod.ts";
import { dialects, openTestOrm } from "../support/databases.ts";
import { startServer } from "../support/server.ts";

const POSTS = `posts { edges { node { id title body } } }`;
const MB = 2 ** 20;

for (const dialect of dialects(["sqlite"])) {
  Deno.test({
    name: `unbounded connections over 60,000 rows under the default limits (${dialect})`,
    sanitizeOps: false,
    sanitizeResources: false,
    fn: async () => {
      const db = await openTestOrm(dialect, entities);
      await seed(db.orm.em.fork(), {
        users: 60,
        photosPerUser: 0,
        postsPerUser: 1_000,
        commentsPerPost: 0,
      });
      const server = startServer(db.orm, createSchema());
      try {
        const one = await server.query<{ posts: { edges: unknown[] } }>(`{ ${POSTS} }`);
        assertEquals(one.errors, undefined);
        assertEquals(one.data!.posts.edges.length, 60_000);
        const before = Deno.memoryUsage().rss;
        const eleven = await server.query(
          `{ ${Array.from({ length: 11 }, (_, i) => `a${i}: ${POSTS}`).join(" ")} }`,
        );
        const grown = (Deno.memoryUsage().rss - before) / MB;
        console.log(
          `${dialect}: 11 unbounded aliases over 60,000 rows: RSS +${grown.toFixed(0)} MB`,
        );
        assertEquals(eleven.errors?.[0]?.extensions?.code, "QUERY_TOO_COMPLEX");
        assertEquals(eleven.data ?? null, null);
        assert(grown < 100, `RSS grew by ${grown.toFixed(0)} MB`);
      } finally {
        await server.close();
        await db.close();
      }
    },
  });
}
