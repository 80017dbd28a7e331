/**
 * Server CPU per request for the request shapes of the budgets issue (issue 35), measured from
 * the server process (`/proc/<pid>/stat`: user + system time, 10 ms ticks, so a cheap request is
 * sent several times and its share printed), on the blog example served by `serve()` on
 * PostgreSQL (100 users x 10 posts x 5 comments):
 *
 * ```sh
 * deno task bench:budgets
 * BENCH_ONLY=nodes deno task bench:budgets   # the shapes whose name holds "nodes"
 * ```
 *
 * Prints, per shape: its body size, the HTTP status and first error code, the server CPU per
 * request (ms), the response bytes, and the server's RSS after it (MB). The shapes:
 * - `titleIn x 41`: `posts(where: { or: [{ titleIn: [997 strings] } x 41] })` (40,877 list items);
 * - `nodes x 30`: 30 aliases of `nodes(ids: $ids)` with 1,000 ids of rows that do not exist;
 * - `and 1,500 deep`: a `where` nested 1,500 levels through `and`;
 * - `JSON 10,000 deep`: a `JSON` variable nested 10,000 arrays deep;
 * - `overlap 255 x 49`: 255 fields of one response name with differing arguments in 49
 *   fragments (the overlap validation's worst case within the limits before it);
 * - `users 100 > posts 50 > comments 20`: an ordinary Relay query of 105,100 nodes;
 * - `{ __typename }`: the floor.
 *
 * @module
 */
import { createTestDatabase } from "../tests/support/databases.ts";
import { seedBlog } from "./blog_seed.ts";
import { startServerProcess } from "./server_process.ts";

const ONLY = Deno.env.get("BENCH_ONLY");
const VERBOSE = !!Deno.env.get("BENCH_VERBOSE");
const TICK_MS = 10; // sysconf(_SC_CLK_TCK) = 100 on Linux

/** The process's user + system CPU time, ms. */
async function cpuMs(pid: number): Promise<number> {
  const stat = await Deno.readTextFile(`/proc/${pid}/stat`);
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
}

/** The process's resident set size, MB. */
async function rssMb(pid: number): Promise<number> {
  const status = await Deno.readTextFile(`/proc/${pid}/status`);
  return Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024;
}

interface Shape {
  name: string;
  /** The body of the `i`th request (a shape whose cost is a cache miss differs each time). */
  body: (i: number) => Promise<string> | string;
  /** How many times to send it (a cheap request's CPU is below the 10 ms tick). */
  times: number;
}

const db = await createTestDatabase("postgresql");
await seedBlog(db.url);
const server = await startServerProcess(new URL("./graphql_server.ts", import.meta.url), [
  "generated",
  db.url,
]);
const url = `http://127.0.0.1:${server.port}/graphql`;

async function post(body: string): Promise<{ status: number; text: string }> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/graphql-response+json" },
    body,
  });
  return { status: response.status, text: await response.text() };
}

const json = (query: string, variables?: unknown) => JSON.stringify({ query, variables });

const shapes: Shape[] = [
  { name: "{ __typename }", times: 500, body: () => json("{ __typename }") },
  {
    name: "titleIn x 41",
    times: 2,
    // a new list length each time: a statement cache miss, as in the issue
    body: (n) =>
      json(`query ($w: PostWhereInput) { posts(first: 5, where: $w) { totalCount } }`, {
        w: {
          or: Array.from({ length: 41 }, (_, i) => ({
            titleIn: Array.from({ length: 997 - n }, (_, j) => `title ${i}.${j}`),
          })),
        },
      }),
  },
  {
    name: "nodes x 30",
    times: 1,
    body: () => {
      const ids = Array.from({ length: 1_000 }, (_, i) => btoa(`Post:${1_000_000 + i}`));
      const aliases = Array.from({ length: 30 }, (_, i) => `n${i}: nodes(ids: $ids) { id }`);
      return json(`query ($ids: [ID!]!) { ${aliases.join(" ")} }`, { ids });
    },
  },
  {
    name: "and 1,500 deep",
    times: 1,
    body: () => {
      let where: Record<string, unknown> = { title: "x" };
      for (let i = 0; i < 1_500; i++) where = { and: [where] };
      return json(`query ($w: PostWhereInput) { posts(first: 5, where: $w) { totalCount } }`, {
        w: where,
      });
    },
  },
  {
    name: "JSON 10,000 deep",
    times: 1,
    body: () =>
      `{"query":"mutation ($m: JSON) { createPost(input: { title: \\"t\\", body: \\"b\\", authorID: \\"VXNlcjox\\", meta: $m }) { id } }","variables":{"m":${
        "[".repeat(10_000)
      }${"]".repeat(10_000)}}}`,
  },
  {
    name: "overlap 255 x 49",
    times: 3,
    // a new document each time (a comment): no cached validation answers it
    body: (n) => {
      // 49 fragments on Query, each selecting `posts` under one response name with its own
      // arguments 5 times (maxFieldRepeats counts one selection set), 5 more at the root and 5
      // in an inline fragment
      const field = (n: number) => `p: posts(first: ${1 + (n % 50)}) { totalCount }`;
      const five = (from: number) => Array.from({ length: 5 }, (_, i) => field(from + i)).join(" ");
      const fragments = Array.from(
        { length: 49 },
        (_, f) => `fragment F${f} on Query { ${five(f * 5)} }`,
      );
      const spreads = `${five(245)} ... on Query { ${five(250)} } ${
        Array.from({ length: 49 }, (_, f) => `...F${f}`).join(" ")
      }`;
      return json(`# ${n}\n{ ${spreads} }\n${fragments.join("\n")}`);
    },
  },
  {
    name: "users 100 > posts 50 > comments 20",
    times: 3,
    body: () =>
      json(
        `{ users(first: 100) { edges { node { name posts(first: 50) { edges { node { title comments(first: 20) { edges { node { text } } } } } } } } } }`,
      ),
  },
];

console.log(
  "shape | body KB | status | first code | errors | server CPU ms/request | response KB | RSS MB",
);
try {
  for (const shape of shapes) {
    if (ONLY && !shape.name.includes(ONLY)) continue;
    // warm-up (a first request of a kind runs cold code), then measured
    let last = await post(await shape.body(0));
    let body = "";
    const before = await cpuMs(server.pid);
    for (let i = 1; i <= shape.times; i++) last = await post(body = await shape.body(i));
    const cpu = (await cpuMs(server.pid) - before) / shape.times;
    let code = "-";
    let errors = 0;
    try {
      const parsed = JSON.parse(last.text) as { errors?: { extensions?: { code?: string } }[] };
      errors = parsed.errors?.length ?? 0;
      code = parsed.errors?.[0]?.extensions?.code ?? "-";
      if (VERBOSE) console.log(parsed.errors?.[0]);
    } catch {
      code = "(not JSON)";
    }
    console.log(
      `${shape.name} | ${
        (body.length / 1024).toFixed(1)
      } | ${last.status} | ${code} | ${errors} | ${cpu.toFixed(1)} | ${
        (last.text.length / 1024).toFixed(1)
      } | ${(await rssMb(server.pid)).toFixed(0)}`,
    );
  }
} finally {
  await server.stop();
  await db.drop();
}
