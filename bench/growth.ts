/**
 * How the cost of a request grows with its work: CPU milliseconds per request of the blog
 * server in-process (as `bench/cpu.ts` measures it, the production stack of
 * `bench/bench_server.ts`, the peer data set of `bench/peers/data.ts`) for Q1 of the peer
 * benchmark (`users → posts(first: 10) → comments(first: 10)`) at 1, 10, 100 and 1,000 users per
 * page, and for keyset pages (`first: 10, after:`) near the start and deep: after the 10th and
 * the 1,900th user (of 2,000), the 10th and the 19,000th post (of 20,000); comments have no root
 * connection in the blog schema. A keyset page reads its rows by key from the index, so a deep
 * page should cost what an early one does.
 *
 * ```sh
 * deno task bench:growth
 * BENCH_REQUESTS=50 deno task bench:growth
 * ```
 *
 * Prints per case the statements per request, the nodes it returns and the median (min, max)
 * over 5 rounds of process CPU time per request at 10 concurrent requests (fewer requests for the
 * larger pages: `BENCH_REQUESTS` divided by the users per page, at least 5, one at a time over
 * 10,000 nodes), and the machine's load average at start.
 *
 * @module
 */
import process from "node:process";
import { encodeCursor } from "../runtime/plan/cursor.ts";
import { createTestDatabase } from "../tests/support/databases.ts";
import { openBenchServer } from "./bench_server.ts";
import { createPeerData } from "./peers/data.ts";

const REQUESTS = Number(Deno.env.get("BENCH_REQUESTS") ?? 300);
const CONCURRENCY = 10;
const ROUNDS = 5;

/** One case: a query, its variables, the nodes it returns. */
interface Case {
  name: string;
  query: string;
  variables?: Record<string, unknown>;
  nodes: number;
  requests: number;
}

const q1 = (users: number) =>
  `{ users(first: ${users}) { edges { node { id name posts(first: 10) { edges { node { id title comments(first: 10) { edges { node { id text } } } } } } } } } }`;

const keyset = (field: string, type: string, after: number): Case => ({
  name: `${field} after the ${after.toLocaleString("en")}th`,
  query:
    `query ($after: Cursor) { ${field}(first: 10, after: $after) { pageInfo { hasNextPage endCursor } edges { cursor node { id } } } }`,
  variables: { after: encodeCursor({ id: after, values: [], order: "", type }) },
  nodes: 10,
  requests: REQUESTS,
});

const CASES: Case[] = [
  ...[1, 10, 100, 1000].map((users) => ({
    name: `Q1 at ${users} user${users === 1 ? "" : "s"} per page`,
    query: q1(users),
    nodes: users * 111,
    requests: Math.max(5, Math.round(REQUESTS / users)),
  })),
  keyset("users", "User", 10),
  keyset("users", "User", 1_900),
  keyset("posts", "Post", 10),
  keyset("posts", "Post", 19_000),
];

const [load1] = Deno.loadavg();
const db = await createTestDatabase("postgresql");
// Q1 at 1,000 users reads 111,000 nodes: over the default cost limit.
const { orm, yoga, statements } = await openBenchServer(db.url, { maxCost: 200_000 });
try {
  await createPeerData(db.url);
  const post = async (body: string) => {
    const response = await yoga.fetch(
      new Request("http://127.0.0.1/graphql", {
        method: "POST",
        headers: { "content-type": "application/json", "content-length": String(body.length) },
        body,
      }),
    );
    const text = await response.text();
    if (!text.startsWith('{"data":') || text.includes('"errors":')) {
      throw new Error(text.slice(0, 500));
    }
  };
  console.log(`load average at start ${load1.toFixed(2)} (${navigator.hardwareConcurrency} cores)`);
  for (const c of CASES) {
    const body = JSON.stringify({ query: c.query, variables: c.variables ?? {} });
    for (let i = 0; i < 5; i++) await post(body);
    const perRequest: number[] = [];
    let perRequestStatements = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const before = statements();
      const cpu = process.cpuUsage();
      let left = c.requests;
      // Large pages one at a time: ten requests of 111,000 nodes at once would outlast Deadline.
      const concurrency = Math.max(1, Math.min(CONCURRENCY, Math.round(10_000 / c.nodes)));
      await Promise.all(Array.from({ length: concurrency }, async () => {
        while (left-- > 0) await post(body);
      }));
      const used = process.cpuUsage(cpu);
      perRequest.push((used.user + used.system) / 1000 / c.requests);
      perRequestStatements = (statements() - before) / c.requests;
    }
    perRequest.sort((a, b) => a - b);
    console.log(
      `${c.name.padEnd(30)} ${perRequestStatements.toFixed(1)} statements, ${
        c.nodes.toLocaleString("en").padStart(7)
      } nodes, CPU ms/request median ${perRequest[ROUNDS >> 1].toFixed(3)} (min ${
        perRequest[0].toFixed(3)
      }, max ${perRequest[ROUNDS - 1].toFixed(3)})`,
    );
  }
} finally {
  await orm.close();
  await db.drop();
}
