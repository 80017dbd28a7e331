/**
 * Where a request's CPU goes over HTTP: `bench/graphql_server.ts` (the package's `serve()`, the
 * README's stack, its default request log unless `BENCH_LOG=off`) in its own process under wrk
 * with 10 connections, per query (`BENCH_QUERIES`, default floor,Q4, run in that order, a name
 * given twice measured twice) the server's CPU µs per
 * request (from `/proc`, median of `BENCH_ROUNDS` runs of `BENCH_SECONDS`, defaults 3 and 3),
 * then a V8 CPU profile of one more run (the inspector, 100 µs sampling) attributed to the same
 * phases as `bench:cpu`'s in-process breakdown (`cpu_phases.ts`) and summarised per function:
 * the two side by side say what HTTP and `serve()` add to what `yoga.fetch` costs in-process.
 *
 * ```sh
 * deno task bench:http-breakdown
 * BENCH_QUERIES=Q4 BENCH_LOG=off deno task bench:http-breakdown
 * BENCH_PROFILE_OUT=/tmp/q4 BENCH_QUERIES=Q4 deno task bench:http-breakdown  # + /tmp/q4-Q4.cpuprofile
 * BENCH_FAST_PATH=off deno task bench:http-breakdown   # serve() with `fastPath: false`
 * ```
 *
 * @module
 */
import { createTestDatabase } from "../tests/support/databases.ts";
import { phaseBreakdown } from "./cpu_phases.ts";
import { postLoad } from "./load.ts";
import { createPeerData } from "./peers/data.ts";
import { cpuMs } from "./peers/proc.ts";
import { captureProfile, freePort, summarise } from "./peers/profile.ts";
import { OURS, oursVariables, QUERIES } from "./peers/queries.ts";
import { startServerProcess } from "./server_process.ts";
import { median } from "./median.ts";

const ONLY = (Deno.env.get("BENCH_QUERIES") ?? "floor,Q4").split(",");
const ROUNDS = Number(Deno.env.get("BENCH_ROUNDS") ?? 3);
const SECONDS = Number(Deno.env.get("BENCH_SECONDS") ?? 3);
const LOG = Deno.env.get("BENCH_LOG") !== "off";

console.log(`load average at start ${Deno.loadavg().map((v) => v.toFixed(2)).join(" ")}`);
const db = await createTestDatabase("postgresql");
const inspectPort = freePort();
const server = await startServerProcess(
  new URL("./graphql_server.ts", import.meta.url),
  ["generated", db.url],
  [`--inspect=127.0.0.1:${inspectPort}`],
  LOG ? { BENCH_LOG: "on" } : {},
);
try {
  await createPeerData(db.url);
  const url = `http://127.0.0.1:${server.port}/graphql`;
  const variables = await oursVariables(url);
  // In the order given, repeats allowed (`Q4,Q1,Q4`: Q4 before and after Q1's allocations).
  for (const name of ONLY) {
    const query = QUERIES.find((query) => query.name === name);
    if (!query) throw new Error(`BENCH_QUERIES: no query ${name}`);
    const body = JSON.stringify({ query: query.text(OURS), variables });
    await postLoad(url, body, 1, 10);
    const perRequest: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const before = cpuMs(server.pid);
      const load = await postLoad(url, body, SECONDS, 10);
      perRequest.push((cpuMs(server.pid) - before) * 1000 / load.requests);
    }
    const us = median(perRequest);
    console.log(
      `\n${query.name}: CPU µs/request over HTTP (serve(), log ${LOG ? "on" : "off"}) median ${
        us.toFixed(0)
      } (runs: ${perRequest.map((v) => v.toFixed(0)).join(" ")})`,
    );
    const profile = await captureProfile(
      inspectPort,
      () => postLoad(url, body, SECONDS, 10),
      100,
    );
    const out = Deno.env.get("BENCH_PROFILE_OUT");
    if (out) await Deno.writeTextFile(`${out}-${query.name}.cpuprofile`, JSON.stringify(profile));
    console.log("by phase (median CPU scaled by the profile's shares):");
    for (const line of phaseBreakdown(profile, us)) console.log(line);
    for (const line of summarise(profile, 30)) console.log(line);
  }
} finally {
  await server.stop();
  await db.drop();
  console.log(`load average at end ${Deno.loadavg().map((v) => v.toFixed(2)).join(" ")}`);
}
