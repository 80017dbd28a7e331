/**
 * What a pause costs the next burst of load: `bench/graphql_server.ts` (`serve()` with its
 * default request log) in its own process, loaded by wrk with 10 connections in `BENCH_BURSTS`
 * bursts (default 6) of `BENCH_SECONDS` (default 4) of one query (`BENCH_QUERIES`, default Q4;
 * several, comma-separated, taken in turn), with `BENCH_PAUSE` seconds (default 0) of no load
 * between bursts and, when `BENCH_PRELOAD` is set, that many seconds of the same load, unmeasured,
 * before each burst. Prints per burst req/s, the server's CPU µs per request (user and system,
 * from `/proc`), its RSS and the load average.
 *
 * In `bench:peers` a server sits idle while the others are measured; this says what that does to
 * its next run (the reason for `bench:peers`' `BENCH_RUN_WARMUP`).
 *
 * ```sh
 * deno task bench:idle                                   # Q4, no pauses
 * BENCH_PAUSE=20 deno task bench:idle                    # 20 s idle before each burst
 * BENCH_PAUSE=20 BENCH_PRELOAD=2 deno task bench:idle    # and 2 s of load before each
 * BENCH_PAUSE=20 BENCH_SERVER_FLAGS="" deno task bench:idle  # without `SERVER_FLAGS`
 * ```
 *
 * @module
 */
import { createTestDatabase } from "../tests/support/databases.ts";
import { postLoad } from "./load.ts";
import { createPeerData } from "./peers/data.ts";
import { cpuTimes, rssBytes } from "./peers/proc.ts";
import { OURS, oursVariables, QUERIES } from "./peers/queries.ts";
import { startServerProcess } from "./server_process.ts";

const NAMES = (Deno.env.get("BENCH_QUERIES") ?? "Q4").split(",");
const BURSTS = Number(Deno.env.get("BENCH_BURSTS") ?? 6);
const SECONDS = Number(Deno.env.get("BENCH_SECONDS") ?? 4);
const PAUSE = Number(Deno.env.get("BENCH_PAUSE") ?? 0);
const PRELOAD = Number(Deno.env.get("BENCH_PRELOAD") ?? 0);

const queries = NAMES.map((name) => {
  const query = QUERIES.find((query) => query.name === name);
  if (!query) throw new Error(`BENCH_QUERIES: no query ${name}`);
  return query;
});
console.log(
  `load average at start ${Deno.loadavg().map((v) => v.toFixed(2)).join(" ")}; ` +
    `${BURSTS} bursts of ${SECONDS} s, pause ${PAUSE} s, preload ${PRELOAD} s`,
);
const db = await createTestDatabase("postgresql");
const server = await startServerProcess(
  new URL("./graphql_server.ts", import.meta.url),
  ["generated", db.url],
  [],
  { BENCH_LOG: "on" },
);
try {
  await createPeerData(db.url);
  const url = `http://127.0.0.1:${server.port}/graphql`;
  const variables = await oursVariables(url);
  for (let burst = 0; burst < BURSTS; burst++) {
    const query = queries[burst % queries.length];
    const body = JSON.stringify({ query: query.text(OURS), variables });
    if (PAUSE > 0 && burst > 0) await new Promise((done) => setTimeout(done, PAUSE * 1000));
    if (PRELOAD > 0) await postLoad(url, body, PRELOAD, 10);
    const before = cpuTimes(server.pid);
    const load = await postLoad(url, body, SECONDS, 10);
    const after = cpuTimes(server.pid);
    const user = after.user - before.user;
    const system = after.system - before.system;
    const perRequest = (ms: number) => (ms * 1000 / load.requests).toFixed(0);
    console.log(
      `burst ${burst + 1} ${query.name}: ${load.rps.toFixed(0)} req/s, CPU µs/request ${
        perRequest(user + system)
      } (user ${perRequest(user)}, system ${perRequest(system)}), RSS ${
        ((rssBytes(server.pid) ?? 0) / 2 ** 20).toFixed(0)
      } MiB, load ${Deno.loadavg()[0].toFixed(2)}`,
    );
  }
} finally {
  await server.stop();
  await db.drop();
}
