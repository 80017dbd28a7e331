/**
 * Peer benchmark: the generated blog server against PostGraphile 5 (grafserv, amber +
 * Relay presets, Node 22) and the naive per-parent server of `bench/`, on one PostgreSQL
 * database of 2,000 users, 20,000 posts, 200,000 comments and 6,000 photos with an index on
 * every foreign key (`bench/peers/data.ts`).
 *
 * ```sh
 * deno task bench:peers                      # 10 s per run, 3 interleaved rounds
 * BENCH_SECONDS=2 BENCH_ROUNDS=1 deno task bench:peers
 * ```
 *
 * The load comes from `wrk` (`apt-get install -y wrk`): without it, from fetch loops in this
 * process, which take a core from the servers on a 2-core machine (`bench/load.ts`).
 *
 * Installs Node 22 and PostGraphile into `bench/.peers/` (git-ignored) on first use, checks that
 * both servers return the same ids for Q1, then runs the floor `{ __typename }` and Q1–Q5 on
 * each server in turn, round after round, with 10 connections, and prints per query the medians
 * over the rounds of req/s, p50, p99, SQL statements per request, server CPU ms per request and
 * peak RSS during the run (both from `/proc/<pid>`), and the ratio of req/s to PostGraphile's
 * (each run's req/s and CPU per request are printed as it ends: the spread behind the medians);
 * the naive server runs Q1 only.
 *
 * @module
 */
import { fromFileUrl } from "@std/path";
import { encodeGlobalId } from "../runtime/plan/global_id.ts";
import { createTestDatabase } from "../tests/support/databases.ts";
import { loadGenerator, postLoad } from "./load.ts";
import { createPeerData, SIZE } from "./peers/data.ts";
import { installPeers } from "./peers/install.ts";
import {
  cursorAfter1900,
  type Names,
  OURS,
  POSTGRAPHILE,
  QUERIES,
  type Query,
} from "./peers/queries.ts";
import { freePort, profileDuring } from "./peers/profile.ts";
import { cpuMs, sampleRss } from "./peers/proc.ts";
import { type ServerProcess, startProcess, startServerProcess } from "./server_process.ts";

const SECONDS = Number(Deno.env.get("BENCH_SECONDS") ?? 10);
/**
 * `BENCH_PROFILE=Q5` (a query's name; `1` is Q1): after the rounds, a CPU profile of our server
 * under that query's load.
 */
const PROFILE_ENV = Deno.env.get("BENCH_PROFILE");
const PROFILED = PROFILE_ENV === "1" ? "Q1" : PROFILE_ENV;
const PROFILE = PROFILED !== undefined && PROFILED !== "";
const ROUNDS = Number(Deno.env.get("BENCH_ROUNDS") ?? 3);
/** `BENCH_QUERIES=Q1,Q5`: run only these (the floor always runs). */
const ONLY = Deno.env.get("BENCH_QUERIES")?.split(",");
const CONCURRENCY = 10;
const PEERS_FOLDER = fromFileUrl(new URL("./.peers/", import.meta.url));

/** A server under test. */
interface Server {
  name: string;
  process: ServerProcess;
  names: Names;
  /** Variables of Q4 and Q5 in this server's id and cursor formats. */
  variables: Record<string, unknown>;
  /** The global id of `type` row `pk` in this server's format. */
  globalId(type: string, pk: number): string;
  /** `Type:pk` of a global id of this server. */
  decodeId(id: string): string;
}

/** Figures of one load run. */
interface Run {
  rps: number;
  p50: number;
  p99: number;
  statements: number;
  cpuMs: number;
  rss: number;
}

async function graphql(
  server: Server,
  query: string,
  variables: Record<string, unknown> = {},
): Promise<Record<string, unknown>> {
  const response = await fetch(`http://127.0.0.1:${server.process.port}/graphql`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ query, variables }),
  });
  const body = await response.json();
  if (body.errors || !body.data) {
    throw new Error(`${server.name}: ${JSON.stringify(body.errors ?? body)}\n${query}`);
  }
  return body.data;
}

function idsIn(value: unknown, into: unknown[] = []): unknown[] {
  if (Array.isArray(value)) value.forEach((item) => idsIn(item, into));
  else if (value && typeof value === "object") {
    for (const [key, item] of Object.entries(value)) {
      if (key === "id") into.push(item);
      else idsIn(item, into);
    }
  }
  return into;
}

async function stats(server: ServerProcess): Promise<{ requests: number; statements: number }> {
  return await (await fetch(`http://127.0.0.1:${server.port}/stats`)).json();
}

async function measure(server: Server, query: Query): Promise<Run> {
  const body = JSON.stringify({ query: query.text(server.names), variables: server.variables });
  const before = await stats(server.process);
  const cpuBefore = cpuMs(server.process.pid);
  const peakRss = sampleRss(server.process.pid);
  const load = await postLoad(
    `http://127.0.0.1:${server.process.port}/graphql`,
    body,
    SECONDS,
    CONCURRENCY,
  );
  const rss = peakRss();
  const cpu = cpuMs(server.process.pid) - cpuBefore;
  const after = await stats(server.process);
  const requests = after.requests - before.requests;
  return {
    rps: load.rps,
    p50: load.p50,
    p99: load.p99,
    statements: (after.statements - before.statements) / requests,
    cpuMs: cpu / requests,
    rss,
  };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

function summary(runs: Run[]): Run {
  const of = (key: keyof Run) => median(runs.map((run) => run[key]));
  return {
    rps: of("rps"),
    p50: of("p50"),
    p99: of("p99"),
    statements: of("statements"),
    cpuMs: of("cpuMs"),
    rss: Math.max(...runs.map((run) => run.rss)),
  };
}

const peers = await installPeers(PEERS_FOLDER);
const db = await createTestDatabase("postgresql");
const started: ServerProcess[] = [];
try {
  const t0 = performance.now();
  await createPeerData(db.url);
  console.log(
    `data: ${SIZE.users} users, ${SIZE.posts} posts, ${SIZE.comments} comments, ${SIZE.photos} photos ` +
      `(generate_series, ${((performance.now() - t0) / 1000).toFixed(1)} s)`,
  );
  const serverScript = new URL("./graphql_server.ts", import.meta.url);
  const inspectPort = freePort();
  const start = async (process: Promise<ServerProcess>) => {
    const started_ = await process;
    started.push(started_);
    return started_;
  };
  const ours: Server = {
    name: "mikrogql",
    process: await start(
      startServerProcess(
        serverScript,
        ["generated", db.url],
        PROFILE ? [`--inspect=127.0.0.1:${inspectPort}`] : [],
      ),
    ),
    names: OURS,
    variables: {},
    globalId: (type, pk) => encodeGlobalId(type, pk),
    decodeId: (id) => atob(id.replaceAll("-", "+").replaceAll("_", "/")),
  };
  const postgraphile: Server = {
    name: "PostGraphile",
    process: await start(
      startProcess(
        peers.node,
        [
          fromFileUrl(new URL("./peers/postgraphile_server.cjs", import.meta.url)),
          PEERS_FOLDER,
          db.url,
        ],
        { env: { NODE_ENV: "production" } },
      ),
    ),
    names: POSTGRAPHILE,
    variables: {},
    globalId: (type, pk) => btoa(JSON.stringify([type, pk])),
    decodeId: (id) => (JSON.parse(atob(id)) as [string, number]).join(":"),
  };
  const naive: Server = {
    name: "naive",
    process: await start(startServerProcess(serverScript, ["naive", db.url])),
    names: OURS,
    variables: {},
    globalId: (_type, pk) => String(pk),
    decodeId: (id) => id,
  };
  const peersUnderTest = [ours, postgraphile];
  for (const server of peersUnderTest) {
    server.variables = {
      after: await cursorAfter1900(
        server.names,
        (query, variables) => graphql(server, query, variables),
      ),
      id: server.globalId("Post", SIZE.posts / 2),
    };
  }

  // Both answer Q1 with the same rows.
  const q1 = QUERIES.find((q) => q.name === "Q1")!;
  const idsOf = async (server: Server) =>
    idsIn(await graphql(server, q1.text(server.names))).map((id) => server.decodeId(String(id)));
  const [ourIds, theirIds] = [await idsOf(ours), await idsOf(postgraphile)];
  if (ourIds.length !== 1110 || JSON.stringify(ourIds) !== JSON.stringify(theirIds)) {
    throw new Error(
      `Q1 answers differ: mikrogql ${ourIds.length} ids, PostGraphile ${theirIds.length} ids`,
    );
  }
  const naiveIds = idsIn(await graphql(naive, q1.text(naive.names)));
  if (naiveIds.length !== 1110) throw new Error(`naive Q1: ${naiveIds.length} ids, not 1,110`);
  console.log(`Q1: both return the same ${ourIds.length} ids (users, posts, comments), in order`);

  // Warm-up: every query answers without errors, 20 times.
  for (const server of peersUnderTest) {
    for (const query of QUERIES) {
      for (let i = 0; i < 20; i++) {
        await graphql(server, query.text(server.names), server.variables);
      }
    }
  }
  for (let i = 0; i < 20; i++) await graphql(naive, q1.text(naive.names));

  const runs = new Map<string, Run[]>();
  const record = (key: string, run: Run) => runs.set(key, [...runs.get(key) ?? [], run]);
  for (let round = 1; round <= ROUNDS; round++) {
    for (const query of QUERIES) {
      if (ONLY && query.name !== "floor" && !ONLY.includes(query.name)) continue;
      const line = [`round ${round} ${query.name}:`];
      for (const server of peersUnderTest) {
        const run = await measure(server, query);
        record(`${query.name} ${server.name}`, run);
        line.push(
          `${server.name} ${run.rps.toFixed(0)} req/s ${(run.cpuMs * 1000).toFixed(0)} µs CPU/req`,
        );
      }
      if (query === q1) record(`${query.name} naive`, await measure(naive, query));
      console.log(line.join(" "));
    }
  }

  console.log(
    `\nPostgreSQL 15, ${SECONDS} s per run at concurrency ${CONCURRENCY}, load from ${loadGenerator()}, ` +
      `medians of ${ROUNDS} interleaved round(s); PostGraphile ${peers.postgraphile} on Node 22 ` +
      `(amber + Relay presets); CPU and RSS of each server process from /proc\n`,
  );
  const header = [
    "query",
    "server",
    "req/s",
    "p50 ms",
    "p99 ms",
    "stmts/req",
    "CPU ms/req",
    "peak RSS MiB",
    "ratio",
  ];
  const rows: string[][] = [];
  for (const query of QUERIES) {
    if (!runs.has(`${query.name} PostGraphile`)) continue;
    const theirs = summary(runs.get(`${query.name} PostGraphile`)!);
    for (const name of [ours.name, postgraphile.name, ...(query === q1 ? ["naive"] : [])]) {
      const run = summary(runs.get(`${query.name} ${name}`)!);
      rows.push([
        query.name,
        name,
        run.rps.toFixed(1),
        run.p50.toFixed(2),
        run.p99.toFixed(2),
        run.statements.toFixed(1),
        run.cpuMs.toFixed(2),
        (run.rss / 2 ** 20).toFixed(0),
        name === postgraphile.name ? "1.00" : (run.rps / theirs.rps).toFixed(2),
      ]);
    }
  }
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  const line = (cells: string[]) =>
    cells.map((cell, i) => i < 2 ? cell.padEnd(widths[i]) : cell.padStart(widths[i])).join("  ");
  console.log(line(header));
  for (const row of rows) console.log(line(row));
  console.log("");
  for (const query of QUERIES) console.log(`${query.name}: ${query.label}`);
  console.log("ratio: req/s to PostGraphile's");
  if (runs.has("Q1 naive")) {
    const q1Ours = summary(runs.get("Q1 mikrogql")!);
    const q1Naive = summary(runs.get("Q1 naive")!);
    console.log(`Q1 mikrogql/naive: ${(q1Ours.rps / q1Naive.rps).toFixed(1)}x req/s`);
  }
  if (PROFILE) {
    const profiled = QUERIES.find((query) => query.name === PROFILED);
    if (!profiled) throw new Error(`BENCH_PROFILE: no query named ${PROFILED}`);
    const lines = await profileDuring(inspectPort, () =>
      postLoad(
        `http://127.0.0.1:${ours.process.port}/graphql`,
        JSON.stringify({ query: profiled.text(ours.names), variables: ours.variables }),
        SECONDS,
        CONCURRENCY,
      ));
    console.log(`\n${profiled.name} on mikrogql, ${SECONDS} s:`);
    for (const line of lines) console.log(line);
  }
} finally {
  for (const server of started) await server.stop();
  await db.drop();
}
