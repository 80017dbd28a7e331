/**
 * CPU milliseconds per request of the generated blog server, in this process (no HTTP socket,
 * no load generator on the same cores): the figure read-path work moves, steadier
 * than req/s on a busy machine. The task runs it with `NODE_ENV=production`, as the benchmark
 * servers run (`bench/server_process.ts`). Uses the peer benchmark's data set (`bench/peers/data.ts`) and
 * queries, and the benchmark server of `bench/bench_server.ts`: the production stack of the
 * README (`mikrogqlPreset`: Jit, BodyLimit, Csrf, Limits, ClientErrors, Transactioner, ReadRetry,
 * Deadline).
 *
 * ```sh
 * deno task bench:cpu                        # floor, Q1-Q5, 300 requests x 5 rounds each
 * BENCH_QUERIES=Q1 BENCH_REQUESTS=100 deno task bench:cpu
 * BENCH_BREAKDOWN=floor,Q4,Q5 deno task bench:cpu   # the fixed-path breakdown of these queries
 * NODE_ENV=production deno run -A --cpu-prof bench/cpu.ts   # with a V8 CPU profile
 * ```
 *
 * Prints per query the statements per request and the median (min, max) over 5 rounds of
 * process CPU time (user + system) per request at 10 concurrent requests, and the RSS; then, for
 * the floor and Q4 (`BENCH_BREAKDOWN`), the fixed-path breakdown: the CPU µs per request of each
 * phase (parse/validate cache lookup, each plugin, context building, plan lookup, page planning,
 * the SQL statements, the driver, row mapping, execution, serialisation, garbage collection), from
 * a CPU profile of one more round (`cpu_phases.ts`).
 *
 * @module
 */
import process from "node:process";
import { encodeGlobalId } from "../runtime/plan/global_id.ts";
import { createTestDatabase } from "../tests/support/databases.ts";
import { openBenchServer } from "./bench_server.ts";
import { phaseBreakdown, profileInProcess } from "./cpu_phases.ts";
import { createPeerData, SIZE } from "./peers/data.ts";
import { cursorAfter, OURS, QUERIES } from "./peers/queries.ts";

const REQUESTS = Number(Deno.env.get("BENCH_REQUESTS") ?? 300);
const ONLY = Deno.env.get("BENCH_QUERIES")?.split(",");
const BREAKDOWN = (Deno.env.get("BENCH_BREAKDOWN") ?? "floor,Q4").split(",");
const CONCURRENCY = 10;
const ROUNDS = 5;

const db = await createTestDatabase("postgresql");
const { orm, yoga, statements } = await openBenchServer(db.url);
try {
  await createPeerData(db.url);
  const encoder = new TextEncoder();
  // With Content-Length, as an HTTP client sends it and Deno.serve hands it to Yoga.
  const post = async (body: string, parse = true) => {
    const response = await yoga.fetch(
      new Request("http://127.0.0.1/graphql", {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "content-length": String(encoder.encode(body).length),
        },
        body,
      }),
    );
    const text = await response.text();
    // Measured requests check the text only: parsing 100 kB of JSON would be the client's CPU.
    if (!parse) {
      if (!text.startsWith('{"data":') || text.includes('"errors":')) throw new Error(text);
      return undefined;
    }
    const result = JSON.parse(text);
    if (result.errors || !result.data) throw new Error(text);
    return result.data;
  };
  const after = await cursorAfter(
    1_900,
    OURS,
    (query, variables) => post(JSON.stringify({ query, variables })),
  );
  const variables = { after, id: encodeGlobalId("Post", SIZE.posts / 2) };
  const breakdowns: string[] = [];
  for (const query of QUERIES) {
    if (ONLY && !ONLY.includes(query.name)) continue;
    const body = JSON.stringify({
      query: query.text(OURS),
      variables,
    });
    for (let i = 0; i < 30; i++) await post(body);
    const load = async () => {
      let left = REQUESTS;
      await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
        while (left-- > 0) await post(body, false);
      }));
    };
    const perRequest: number[] = [];
    let perRequestStatements = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const before = statements();
      const cpu = process.cpuUsage();
      await load();
      const used = process.cpuUsage(cpu);
      perRequest.push((used.user + used.system) / 1000 / REQUESTS);
      perRequestStatements = (statements() - before) / REQUESTS;
    }
    perRequest.sort((a, b) => a - b);
    if (BREAKDOWN.includes(query.name)) {
      const profile = await profileInProcess(load);
      breakdowns.push(
        `${query.name} fixed-path breakdown, CPU µs/request (median CPU scaled by profile shares):`,
        ...phaseBreakdown(profile, perRequest[ROUNDS >> 1] * 1000),
      );
    }
    console.log(
      `${query.name.padEnd(5)} ${
        perRequestStatements.toFixed(1)
      } statements/request, CPU ms/request ` +
        `median ${perRequest[ROUNDS >> 1].toFixed(3)} (min ${perRequest[0].toFixed(3)}, max ${
          perRequest[ROUNDS - 1].toFixed(3)
        }), RSS ${(Deno.memoryUsage().rss / 2 ** 20).toFixed(0)} MiB`,
    );
  }
  if (breakdowns.length > 0) console.log(`\n${breakdowns.join("\n")}`);
} finally {
  await orm.close();
  await db.drop();
}
