/**
 * Where the floor's fixed CPU goes over HTTP: servers of growing parts of the stack
 * (`bench/fixed/variant_server.ts`: bare `Deno.serve`, `Deno.serve` + Yoga with the preset, with
 * and without the EntityManager fork, `serve()` without and with its body timeout and log), each
 * its own process, loaded in turn by wrk with `{ __typename }` for `BENCH_SECONDS` (default 2) in
 * each of `BENCH_ROUNDS` (default 6) rounds, the variants' order shuffled per round (seed printed,
 * `BENCH_SEED` repeats it). Prints each variant's median CPU µs per request (from `/proc`) and
 * its difference to the variant before it, and the load average.
 *
 * `BENCH_QUERY=Q4` (or any query of `bench/peers/queries.ts`): that query instead of the floor,
 * on the peer data set (`bench/peers/data.ts`), for the variants that run GraphQL (not `bare`).
 *
 * `BENCH_PROFILE=<variant>`: after the rounds, a V8 CPU profile of that variant's server under
 * the same load (self time per area and per function).
 *
 * ```sh
 * deno task bench:fixed-path
 * BENCH_VARIANTS=serve BENCH_ROUNDS=1 BENCH_PROFILE=serve deno task bench:fixed-path
 * BENCH_VARIANTS=serve-bare,serve-timeout,serve BENCH_ROUNDS=10 deno task bench:fixed-path
 * ```
 *
 * @module
 */
import { createTestDatabase } from "../tests/support/databases.ts";
import { postLoad } from "./load.ts";
import { cpuMs } from "./peers/proc.ts";
import { freePort, profileDuring } from "./peers/profile.ts";
import { type ServerProcess, startServerProcess } from "./server_process.ts";
import { random } from "../tests/support/random_data.ts";
import { createPeerData } from "./peers/data.ts";
import { OURS, oursVariables, QUERIES } from "./peers/queries.ts";
import { median } from "./median.ts";

const VARIANTS = (Deno.env.get("BENCH_VARIANTS") ??
  "bare,yoga-no-em,yoga,serve-bare,serve-timeout,serve").split(",");
const ROUNDS = Number(Deno.env.get("BENCH_ROUNDS") ?? 6);
const SECONDS = Number(Deno.env.get("BENCH_SECONDS") ?? 2);
const SEED = Number(Deno.env.get("BENCH_SEED") ?? Math.floor(Math.random() * 2 ** 31));
const QUERY = QUERIES.find((query) => query.name === (Deno.env.get("BENCH_QUERY") ?? "floor"));
if (!QUERY) throw new Error(`BENCH_QUERY: no query ${Deno.env.get("BENCH_QUERY")}`);
const PROFILED = Deno.env.get("BENCH_PROFILE");
const inspectPort = freePort();

console.log(
  `load average at start ${Deno.loadavg().map((v) => v.toFixed(2)).join(" ")}; seed ${SEED}`,
);
const db = await createTestDatabase("postgresql");
const servers = new Map<string, ServerProcess>();
try {
  if (QUERY.name !== "floor") await createPeerData(db.url);
  for (const variant of VARIANTS) {
    servers.set(
      variant,
      await startServerProcess(
        new URL("./fixed/variant_server.ts", import.meta.url),
        [variant, db.url],
        variant === PROFILED ? [`--inspect=127.0.0.1:${inspectPort}`] : [],
      ),
    );
  }
  const url = (server: ServerProcess) => `http://127.0.0.1:${server.port}/graphql`;
  const BODY = JSON.stringify({
    query: QUERY.text(OURS),
    ...(QUERY.name === "floor" ? {} : {
      variables: await oursVariables(
        url(servers.get(VARIANTS.find((variant) => !variant.startsWith("bare"))!)!),
      ),
    }),
  });
  for (const server of servers.values()) await postLoad(url(server), BODY, 1, 10);
  const cpu = new Map<string, number[]>(VARIANTS.map((variant) => [variant, []]));
  const next = random(SEED);
  for (let round = 0; round < ROUNDS; round++) {
    const order = [...VARIANTS].sort(() => next() - 0.5);
    const line: string[] = [];
    for (const variant of order) {
      const server = servers.get(variant)!;
      const before = cpuMs(server.pid);
      const load = await postLoad(url(server), BODY, SECONDS, 10);
      const us = (cpuMs(server.pid) - before) * 1000 / load.requests;
      cpu.get(variant)!.push(us);
      line.push(`${variant} ${us.toFixed(0)}`);
    }
    console.log(`round ${round + 1}: ${line.join(", ")} µs/request`);
  }
  let previous: number | undefined;
  for (const variant of VARIANTS) {
    const us = median(cpu.get(variant)!);
    console.log(
      `${variant.padEnd(14)} ${us.toFixed(0).padStart(5)} µs/request${
        previous === undefined ? "" : ` (${us >= previous ? "+" : ""}${(us - previous).toFixed(0)})`
      }`,
    );
    previous = us;
  }
  if (PROFILED) {
    const server = servers.get(PROFILED);
    if (!server) throw new Error(`BENCH_PROFILE: no variant ${PROFILED} in BENCH_VARIANTS`);
    const lines = await profileDuring(inspectPort, () => postLoad(url(server), BODY, SECONDS, 10));
    console.log(`profile of ${PROFILED}:\n${lines.join("\n")}`);
  }
} finally {
  for (const server of servers.values()) await server.stop();
  await db.drop();
  console.log(`load average at end ${Deno.loadavg().map((v) => v.toFixed(2)).join(" ")}`);
}
