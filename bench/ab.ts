/**
 * A/B CPU per request of two checkouts' servers, measured side by side: on a machine shared with
 * other work, req/s and even CPU per request move by 2x between runs, but two servers loaded at
 * the same time over many short runs see the same machine, and the ratio of their CPU per
 * request is steadier.
 *
 * ```sh
 * git archive <base commit> | tar -x -C /tmp/base
 * BENCH_BASE=/tmp/base deno task bench:ab
 * BENCH_BASE=/tmp/base BENCH_QUERIES=floor,Q4 BENCH_LOG=off BENCH_RUNS=12 deno task bench:ab
 * BENCH_BASE=/tmp/base BENCH_QUERIES=Q1,Q2 BENCH_ALTERNATE=1 BENCH_RUNS=4 BENCH_SECONDS=5 deno task bench:ab
 * ```
 *
 * Starts `bench/graphql_server.ts` of the base checkout (A) and of this one (B) on one peer data
 * set (`bench/peers/data.ts`), with serve's default request log unless `BENCH_LOG=off` (or
 * `BENCH_LOG_A=off` / `BENCH_LOG_B=off` for one side: the log's cost on one checkout with
 * `BENCH_BASE=.`); per query (`BENCH_QUERIES`, default floor,Q4,Q5), `BENCH_RUNS` (default 10)
 * pairs of `BENCH_SECONDS` (default 2) wrk runs, A and B loaded at the same time (each by its own
 * wrk), so that both see the same machine; prints the median CPU µs per request of each and the
 * median of the pairs' B/A ratios. Two servers of the same checkout give ratios within about
 * ±5–8% of 1 at a load average of 12–15 on 2 cores: smaller differences need more runs.
 *
 * `BENCH_FLAGS_A` / `BENCH_FLAGS_B`: more `deno run` flags for one side's server, space-separated
 * (`BENCH_BASE=. BENCH_FLAGS_B=--v8-flags=--max-semi-space-size=16`: what a V8 flag saves).
 *
 * `BENCH_ALTERNATE=1`: A and B loaded one after the other instead (the order swapped every run,
 * each run after 2 s of unmeasured load), printing per side the median req/s, its server's CPU
 * µs per request and PostgreSQL's (every `postgres` process, `proc.ts`): for a change that moves
 * work between the server and the database, which the simultaneous pairs cannot split.
 *
 * `BENCH_PRELOAD_A=Q1,Q2`: before the measured queries, A alone is loaded with these queries for
 * `BENCH_PRELOAD_SECONDS` (default 5) each, as `bench:peers` loads a server with Q1 and Q2 between
 * its Q4 runs; with `BENCH_BASE=.` the B/A ratio is then what that history costs a query.
 *
 * @module
 */
import { join, resolve, toFileUrl } from "@std/path";
import { encodeGlobalId } from "../runtime/plan/global_id.ts";
import { createTestDatabase } from "../tests/support/databases.ts";
import { postLoad } from "./load.ts";
import { createPeerData, SIZE } from "./peers/data.ts";
import { cpuMs, postgresCpu } from "./peers/proc.ts";
import { cursorAfter, OURS, QUERIES } from "./peers/queries.ts";
import { type ServerProcess, startServerProcess } from "./server_process.ts";
import { median } from "./median.ts";

const BASE = Deno.env.get("BENCH_BASE");
if (!BASE) throw new Error("BENCH_BASE: the base checkout's folder");
const RUNS = Number(Deno.env.get("BENCH_RUNS") ?? 10);
const SECONDS = Number(Deno.env.get("BENCH_SECONDS") ?? 2);
const ONLY = (Deno.env.get("BENCH_QUERIES") ?? "floor,Q4,Q5").split(",");
const ALTERNATE = Deno.env.get("BENCH_ALTERNATE") === "1";
/** The request log of each side: `BENCH_LOG=off` for both, `BENCH_LOG_A`/`BENCH_LOG_B` for one. */
const logOf = (side: string) =>
  (Deno.env.get(`BENCH_LOG_${side}`) ?? Deno.env.get("BENCH_LOG")) !== "off";

const post = async (server: ServerProcess, body: string) => {
  const response = await fetch(`http://127.0.0.1:${server.port}/graphql`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body,
  });
  const answer = await response.json();
  if (answer.errors || !answer.data) throw new Error(JSON.stringify(answer));
  return answer.data;
};

/**
 * `BENCH_ALTERNATE`: `servers` (A, B) loaded one at a time, `RUNS` runs each in alternating order;
 * prints req/s, the server's and PostgreSQL's CPU µs per request, medians and every run.
 */
async function alternate(name: string, servers: ServerProcess[], body: string): Promise<void> {
  const runs = servers.map(() => ({
    rps: [] as number[],
    cpu: [] as number[],
    pg: [] as number[],
  }));
  for (let run = 0; run < RUNS; run++) {
    for (const side of run % 2 ? [1, 0] : [0, 1]) {
      const url = `http://127.0.0.1:${servers[side].port}/graphql`;
      await postLoad(url, body, 2, 10);
      const [cpuBefore, postgresUsed] = [cpuMs(servers[side].pid), postgresCpu()];
      const load = await postLoad(url, body, SECONDS, 10);
      runs[side].rps.push(load.requests / SECONDS);
      runs[side].cpu.push((cpuMs(servers[side].pid) - cpuBefore) * 1000 / load.requests);
      runs[side].pg.push(postgresUsed() * 1000 / load.requests);
    }
  }
  const figures = (values: number[]) =>
    `${median(values).toFixed(0)} (${values.map((v) => v.toFixed(0)).join(" ")})`;
  runs.forEach((side, i) =>
    console.log(
      `${name.padEnd(5)} ${"AB"[i]}: req/s ${figures(side.rps)}; server CPU µs/request ${
        figures(side.cpu)
      }; PostgreSQL CPU µs/request ${figures(side.pg)}`,
    )
  );
}

console.log(`load average at start ${Deno.loadavg().map((v) => v.toFixed(2)).join(" ")}`);
const db = await createTestDatabase("postgresql");
const servers: ServerProcess[] = [];
try {
  await createPeerData(db.url);
  const env = (side: string): Record<string, string> => logOf(side) ? { BENCH_LOG: "on" } : {};
  const script = (root: string) => toFileUrl(join(resolve(root), "bench/graphql_server.ts"));
  const flags = (side: string) => Deno.env.get(`BENCH_FLAGS_${side}`)?.split(" ") ?? [];
  const a = await startServerProcess(script(BASE), ["generated", db.url], flags("A"), env("A"));
  servers.push(a);
  const b = await startServerProcess(
    new URL("./graphql_server.ts", import.meta.url),
    ["generated", db.url],
    flags("B"),
    env("B"),
  );
  servers.push(b);
  const variables = {
    after: await cursorAfter(
      1_900,
      OURS,
      (query, variables) => post(b, JSON.stringify({ query, variables })),
    ),
    id: encodeGlobalId("Post", SIZE.posts / 2),
  };
  const preload = Deno.env.get("BENCH_PRELOAD_A")?.split(",") ?? [];
  for (const name of preload) {
    const query = QUERIES.find((query) => query.name === name);
    if (!query) throw new Error(`BENCH_PRELOAD_A: no query ${name}`);
    const body = JSON.stringify({ query: query.text(OURS), variables });
    const seconds = Number(Deno.env.get("BENCH_PRELOAD_SECONDS") ?? 5);
    await postLoad(`http://127.0.0.1:${a.port}/graphql`, body, seconds, 10);
  }
  for (const query of QUERIES) {
    if (!ONLY.includes(query.name)) continue;
    const body = JSON.stringify({ query: query.text(OURS), variables });
    const answers = [JSON.stringify(await post(a, body)), JSON.stringify(await post(b, body))];
    if (answers[0] !== answers[1]) throw new Error(`${query.name}: A and B answer differently`);
    for (const server of [a, b]) for (let i = 0; i < 200; i++) await post(server, body);
    if (ALTERNATE) {
      await alternate(query.name, [a, b], body);
      continue;
    }
    const cpu: [number[], number[]] = [[], []];
    const ratios: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      // A and B under load at the same time: whatever else the machine runs weighs on both.
      const pair = await Promise.all([a, b].map(async (server) => {
        const cpuBefore = cpuMs(server.pid);
        const load = await postLoad(`http://127.0.0.1:${server.port}/graphql`, body, SECONDS, 10);
        const used = cpuMs(server.pid) - cpuBefore;
        return used * 1000 / load.requests;
      }));
      cpu[0].push(pair[0]);
      cpu[1].push(pair[1]);
      ratios.push(pair[1] / pair[0]);
    }
    console.log(
      `${query.name.padEnd(5)} CPU µs/request A ${median(cpu[0]).toFixed(0)} B ${
        median(cpu[1]).toFixed(0)
      }; B/A median ${median(ratios).toFixed(3)} (pairs: ${
        ratios.map((r) => r.toFixed(2)).join(" ")
      })`,
    );
  }
} finally {
  for (const server of servers) await server.stop();
  await db.drop();
  console.log(`load average at end ${Deno.loadavg().map((v) => v.toFixed(2)).join(" ")}`);
}
