/**
 * The server's memory for the worst queries the default limits accept (`maxCost` 500,000 nodes,
 * `maxCells` 1,000,000 field values): the blog example on PostgreSQL with 1,000 users of 1,000
 * posts each (1,000,000 posts, inserted with `generate_series`), served by `serve()` in its own
 * process under `NODE_ENV=production`, one fresh process per query.
 *
 * ```sh
 * deno task bench:worst-query
 * ```
 *
 * Prints, per query: the HTTP status and first error code, the nodes in the answer, the
 * response size (MB), the server's CPU (ms) and its peak RSS over its RSS before the query
 * (`VmHWM` minus `VmRSS`, MB).
 *
 * @module
 */
import { entities } from "../examples/blog/entities.ts";
import { openOrm } from "../server/open_orm.ts";
import { createTestDatabase } from "../tests/support/databases.ts";
import { startServerProcess } from "./server_process.ts";

const USERS = 1_000;
const POSTS_PER_USER = 1_000;

/** `/proc/<pid>` figures: CPU ms, RSS and peak RSS in MB. */
async function figures(pid: number): Promise<{ cpu: number; rss: number; peak: number }> {
  const stat = await Deno.readTextFile(`/proc/${pid}/stat`);
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const status = await Deno.readTextFile(`/proc/${pid}/status`);
  const kb = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)![1]) / 1024;
  return {
    cpu: (Number(fields[11]) + Number(fields[12])) * 10,
    rss: kb("VmRSS"),
    peak: kb("VmHWM"),
  };
}

const QUERIES: [string, string][] = [
  [
    "users 100 > posts 50 > comments 20 (105,100 nodes)",
    `{ users(first: 100) { edges { node { name posts(first: 50) { edges { node { title comments(first: 20) { edges { node { text } } } } } } } } } }`,
  ],
  [
    "users 500 > posts 499 { id } (250,000 nodes x 4 fields: maxCells)",
    `{ users(first: 500) { edges { node { id posts(first: 499) { edges { node { id } } } } } } }`,
  ],
  [
    "users 142 > posts 999 { id title body views } (142,000 nodes x 7 fields)",
    `{ users(first: 142) { edges { node { id posts(first: 999) { edges { node { id title body views } } } } } } }`,
  ],
  [
    "users 1,000 > posts 499 { id } (500,000 nodes: over maxCells)",
    `{ users(first: 1000) { edges { node { id posts(first: 499) { edges { node { id } } } } } } }`,
  ],
  [
    "users 1,000 > posts 1,000 { id } (1,001,000 nodes: over maxCost)",
    `{ users(first: 1000) { edges { node { id posts(first: 1000) { edges { node { id } } } } } } }`,
  ],
];

const db = await createTestDatabase("postgresql");
try {
  const orm = await openOrm({ entities, url: db.url });
  try {
    await orm.schema.create();
    const connection = orm.em.getConnection();
    await connection.execute(
      `insert into "user" (id, name, email, created_at) select i, 'user ' || i, 'u' || i || '@bench.example', now() from generate_series(1, ${USERS}) i`,
    );
    await connection.execute(
      `insert into post (id, title, body, status, views, author_id) select i, 'post ' || i, repeat('body text ', 10), 'published', i % 100, 1 + (i - 1) / ${POSTS_PER_USER} from generate_series(1, ${
        USERS * POSTS_PER_USER
      }) i`,
    );
    await connection.execute(`analyze`);
  } finally {
    await orm.close();
  }
  console.log(
    "query | status | code | nodes | response MB | server CPU ms | peak RSS over start MB",
  );
  for (const [name, query] of QUERIES) {
    const server = await startServerProcess(new URL("./graphql_server.ts", import.meta.url), [
      "generated",
      db.url,
    ]);
    try {
      const url = `http://127.0.0.1:${server.port}/graphql`;
      // warm-up: a small query of the same shape loads the code paths
      await (await fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ query: `{ users(first: 1) { edges { node { id } } } }` }),
      })).text();
      const before = await figures(server.pid);
      const response = await fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ query }),
      });
      const text = await response.text();
      const after = await figures(server.pid);
      const json = JSON.parse(text) as {
        errors?: { message: string; extensions?: { code?: string } }[];
      };
      if (json.errors) console.log(`  ${json.errors[0].message}`);
      const nodes = (text.match(/"node":/g) ?? []).length;
      console.log(
        `${name} | ${response.status} | ${json.errors?.[0]?.extensions?.code ?? "-"} | ${nodes} | ${
          (text.length / 1024 / 1024).toFixed(1)
        } | ${after.cpu - before.cpu} | ${(after.peak - before.rss).toFixed(0)}`,
      );
    } finally {
      await server.stop();
    }
  }
} finally {
  await db.drop();
}
