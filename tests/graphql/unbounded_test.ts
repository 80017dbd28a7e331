/**
 * The unbounded read over 60,000 posts, on the blog's own server process
 * (`examples/blog/server.ts`, `NODE_ENV=production`, the preset's default limits), its resident
 * memory read from `/proc` (`tests/support/example_process.ts`): 11 aliases of
 * `posts { edges { node { id title body } } }` (660,000 nodes) are `QUERY_TOO_COMPLEX` with the
 * server's peak RSS growing by less than 250 MB (each alias reads 1,001 nodes, then counts its
 * rows; the count over what the others left refuses the request, and the rows read are dropped
 * when they arrive. With `maxCost` 100,000: +35 to +37 MB measured; with the default 500,000,
 * whose run-time budget is `maxCells` / the 5 fields of a node, about 200,000 nodes: +145 MB;
 * before the node budget this request read every row and grew RSS by 346 MB), and one such
 * connection without `first`/`last` answers all 60,000 rows (entgql: no `first`/`last` means all
 * rows, within the budget).
 */
import { assert, assertEquals, assertMatch } from "@std/assert";
import { openOrm } from "@mikrogql/ext/server";
import { entities } from "../../examples/blog/entities.ts";
import { seed } from "../../examples/blog/seed.ts";
import { createTestDatabase, dialects } from "../support/databases.ts";
import { figuresOf, startExample } from "../support/example_process.ts";

const POSTS = `posts { edges { node { id title body } } }`;
const MB = 2 ** 20;

async function post(url: string, query: string) {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ query }),
  });
  return await response.json() as {
    data?: { posts?: { edges: unknown[] } } | null;
    errors?: { message: string; extensions?: { code?: string } }[];
  };
}

for (const dialect of dialects(["sqlite", "postgresql"])) {
  Deno.test({
    name: `unbounded connections over 60,000 rows under the default limits (${dialect})`,
    sanitizeOps: false,
    sanitizeResources: false,
    fn: async () => {
      const file = dialect === "sqlite" ? await Deno.makeTempFile({ suffix: ".sqlite3" }) : "";
      const db = dialect === "sqlite"
        ? { url: `sqlite:${file}`, drop: () => Deno.remove(file) }
        : await createTestDatabase(dialect);
      try {
        const orm = await openOrm({ entities, url: db.url });
        try {
          await orm.schema.create();
          await seed(orm.em.fork(), {
            users: 60,
            photosPerUser: 0,
            postsPerUser: 1_000,
            commentsPerPost: 0,
          });
        } finally {
          await orm.close();
        }
        const server = await startExample("blog", db.url);
        try {
          // warm up: compile, plan and the driver's first statement
          assertEquals(
            (await post(server.url, `{ posts(first: 1) { totalCount } }`)).errors,
            undefined,
          );
          const before = await figuresOf(server.pid);
          const eleven = await post(
            server.url,
            `{ ${Array.from({ length: 11 }, (_, i) => `a${i}: ${POSTS}`).join(" ")} }`,
          );
          const after = await figuresOf(server.pid);
          const peak = (after.peak - before.rss) / MB;
          console.log(
            `${dialect}: 11 unbounded aliases over 60,000 rows: refused in ${
              after.cpuMs - before.cpuMs
            } ms of CPU, peak RSS +${peak.toFixed(0)} MB`,
          );
          assertEquals(eleven.errors?.[0]?.extensions?.code, "QUERY_TOO_COMPLEX");
          assertMatch(eleven.errors![0].message, /reads more than \d+ .*add first\/last/);
          assertEquals(eleven.data ?? null, null);
          assert(peak < 250, `the server's peak RSS grew by ${peak.toFixed(0)} MB`);

          const one = await post(server.url, `{ ${POSTS} }`);
          const answered = await figuresOf(server.pid);
          console.log(
            `${dialect}: one unbounded connection: ${one.data?.posts?.edges.length} rows in ${
              answered.cpuMs - after.cpuMs
            } ms of CPU, peak RSS +${((answered.peak - before.rss) / MB).toFixed(0)} MB`,
          );
          assertEquals(one.errors, undefined);
          assertEquals(one.data!.posts!.edges.length, 60_000);
        } finally {
          await server.stop();
        }
      } finally {
        await db.drop();
      }
    },
  });
}
