/**
 * Peer benchmark: the generated blog server against PostGraphile 5 (grafserv, amber + Relay
 * presets, Node 22), a hand-written limit server (`bench/peers/limit_server.ts`: no GraphQL, one
 * prepared statement per request whose JSON PostgreSQL builds) and the naive per-parent server
 * of `bench/`, on one PostgreSQL database of 2,000 users, 20,000 posts, 200,000 comments and
 * 6,000 photos with an index on every foreign key (`bench/peers/data.ts`).
 *
 * ```sh
 * deno task bench:peers                      # 10 s per run, 3 rounds
 * BENCH_SECONDS=5 BENCH_QUERIES=Q4,Q5 BENCH_SERVERS=limit,PostGraphile,mikrogql deno task bench:peers
 * ```
 *
 * The load comes from `wrk` (`apt-get install -y wrk`): without it, from fetch loops in this
 * process, which take a core from the servers on a 2-core machine (`bench/load.ts`).
 *
 * Our server runs three ways, each its own process of `bench/graphql_server.ts` (`serve()`):
 * `mikrogql` as the README runs it (serve's default request log, a JSON line per request on a
 * pipe), `mikrogql log off` (`log: false`), and `mikrogql persisted` (default log, persisted
 * operations only: the request names its document by hash, `serve({ persistedOperations })`);
 * `BENCH_SERVERS=...,mikrogql console.log` adds the log written by `console.log` per line, as serve
 * wrote it before its buffered writer (`server/log_writer.ts`), and `mikrogql timeouts off` adds
 * the default server without its body timeout (`timeouts: false`: no sweep, no mark of the body
 * received, `server/body_timeout.ts`), the timeouts' cost as the README runs them.
 *
 * Installs Node 22 and PostGraphile into `bench/.peers/` (git-ignored) on first use, checks that
 * PostGraphile returns the same ids as ours for Q1 and that the limit server and the persisted
 * server return the same answers as ours for every query, then runs the floor `{ __typename }`
 * and Q1–Q5, round after round; within a round, each query runs on every server in an order
 * drawn from a seeded generator (`BENCH_SEED`, printed), with 10 connections, after a warm-up of
 * `BENCH_WARMUP` seconds (default 5) of the same load per server and query, and each run after
 * `BENCH_RUN_WARMUP` seconds (default 5) of its own load, unmeasured. Every run is
 * printed as it ends; the table gives per query the medians over the rounds of req/s, p50, p99,
 * SQL statements per request, server CPU ms per request, PostgreSQL's CPU ms per request (every
 * `postgres` process) and peak RSS (from `/proc`),
 * and the ratios of req/s to PostGraphile's and to the limit's; the machine's load average is
 * printed at start and end. The naive server runs Q1 only.
 *
 * `bench/growth.ts` runs the same servers on its own queries ({@linkcode runPeers}).
 *
 * @module
 */
import { encodeHex } from "@std/encoding/hex";
import { fromFileUrl } from "@std/path";
import { encodeGlobalId } from "../runtime/plan/global_id.ts";
import { createTestDatabase } from "../tests/support/databases.ts";
import { loadGenerator, postLoad } from "./load.ts";
import { createPeerData, SIZE } from "./peers/data.ts";
import { installPeers } from "./peers/install.ts";
import {
  cursorAfter,
  type Names,
  OURS,
  POSTGRAPHILE,
  QUERIES,
  type Query,
} from "./peers/queries.ts";
import { freePort, profileDuring } from "./peers/profile.ts";
import { cpuMs, postgresCpu, sampleRss } from "./peers/proc.ts";
import { type ServerProcess, startProcess, startServerProcess } from "./server_process.ts";
import { random as seeded } from "../tests/support/random_data.ts";
import { median } from "./median.ts";

const SECONDS = Number(Deno.env.get("BENCH_SECONDS") ?? 10);
/**
 * `BENCH_PROFILE=Q5` (a query's name; `1` is Q1): after the rounds, a CPU profile of our server
 * (log off) under that query's load.
 */
const PROFILE_ENV = Deno.env.get("BENCH_PROFILE");
const PROFILED = PROFILE_ENV === "1" ? "Q1" : PROFILE_ENV;
const PROFILE = PROFILED !== undefined && PROFILED !== "";
const ROUNDS = Number(Deno.env.get("BENCH_ROUNDS") ?? 3);
/** `BENCH_QUERIES=Q1,Q5`: run only these (the floor always runs when it is in the set). */
const ONLY = Deno.env.get("BENCH_QUERIES")?.split(",");
/** `BENCH_SERVERS=limit,PostGraphile,mikrogql`: measure only these (all start, for the checks). */
const SERVERS = Deno.env.get("BENCH_SERVERS")?.split(",");
/** Seed of the order of the servers within a round. */
const SEED = Number(Deno.env.get("BENCH_SEED") ?? Math.floor(Math.random() * 2 ** 31));
const CONCURRENCY = 10;
/**
 * `BENCH_WARMUP`: seconds of unmeasured load per measured server and query before the first
 * round (default 5; 0: none).
 */
const WARMUP = Number(Deno.env.get("BENCH_WARMUP") ?? 5);
/**
 * `BENCH_RUN_WARMUP`: seconds of the same load, unmeasured, right before each measured run
 * (default 5; 0: none). Between its runs a server sits idle while the others are measured (some
 * 20 s with four servers and 5 s runs), and an idle V8 process gives memory back (its RSS falls
 * by up to 100 MiB): `BENCH_QUERIES=Q5 BENCH_PAUSE=20 deno task bench:idle` measured ours at
 * 348–666 µs per request in the 4 s after each 20 s pause, 243–249 µs under steady load. With 2 s
 * before each run ours still measured 264–589 µs on Q5 across rounds; with 5 s, 270–387 µs.
 */
const RUN_WARMUP = Number(Deno.env.get("BENCH_RUN_WARMUP") ?? 5);
const PEERS_FOLDER = fromFileUrl(new URL("./.peers/", import.meta.url));

/** A server under test. */
interface Server {
  name: string;
  process: ServerProcess;
  names: Names;
  /** The variables of a query in this server's id and cursor formats. */
  variables: (query: Query) => Record<string, unknown>;
  /** The request body of `query` (its text, or its hash for persisted operations). */
  body(query: Query, variables: Record<string, unknown>): string;
}

/** Figures of one load run. */
interface Run {
  rps: number;
  p50: number;
  p99: number;
  statements: number;
  cpuMs: number;
  /** CPU ms per request of every `postgres` process (the database's share, `postgresCpu`). */
  pgMs: number;
  rss: number;
}

function shuffled<T>(items: T[], random: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

async function post(server: Server, body: string): Promise<Record<string, unknown>> {
  const response = await fetch(`http://127.0.0.1:${server.process.port}/graphql`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body,
  });
  const answer = await response.json();
  if (answer.errors || !answer.data) {
    throw new Error(`${server.name}: ${JSON.stringify(answer.errors ?? answer)}\n${body}`);
  }
  return answer.data;
}

const graphql = (server: Server, query: string, variables: Record<string, unknown> = {}) =>
  post(server, JSON.stringify({ query, variables }));

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

async function stats(server: ServerProcess): Promise<{ statements: number }> {
  return await (await fetch(`http://127.0.0.1:${server.statsPort}/stats`)).json();
}

async function measure(server: Server, query: Query): Promise<Run> {
  const body = server.body(query, server.variables(query));
  if (RUN_WARMUP > 0) {
    await postLoad(
      `http://127.0.0.1:${server.process.port}/graphql`,
      body,
      RUN_WARMUP,
      CONCURRENCY,
    );
  }
  const before = await stats(server.process);
  const [cpuBefore, postgresUsed] = [cpuMs(server.process.pid), postgresCpu()];
  const peakRss = sampleRss(server.process.pid);
  const load = await postLoad(
    `http://127.0.0.1:${server.process.port}/graphql`,
    body,
    SECONDS,
    CONCURRENCY,
  );
  const rss = peakRss();
  const [cpu, pg] = [cpuMs(server.process.pid) - cpuBefore, postgresUsed()];
  const after = await stats(server.process);
  // Counted by the load generator: our server's `/stats` does not count requests (a hook per
  // request would be a plugin, which turns serve()'s fast path off).
  const requests = load.requests;
  return {
    rps: load.rps,
    p50: load.p50,
    p99: load.p99,
    statements: (after.statements - before.statements) / requests,
    cpuMs: cpu / requests,
    pgMs: pg / requests,
    rss,
  };
}

function summary(runs: Run[]): Run {
  const of = (key: keyof Run) => median(runs.map((run) => run[key]));
  return {
    rps: of("rps"),
    p50: of("p50"),
    p99: of("p99"),
    statements: of("statements"),
    cpuMs: of("cpuMs"),
    pgMs: of("pgMs"),
    rss: Math.max(...runs.map((run) => run.rss)),
  };
}

const loadAverage = () => Deno.loadavg().map((value) => value.toFixed(2)).join(" ");
const sha256 = async (text: string) =>
  encodeHex(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));

/** What {@linkcode runPeers} measures. */
export interface PeersOptions {
  /** The queries, in the order of a round. */
  queries: Query[];
  /** Users in the data set (`createPeerData`). */
  users?: number;
  /** The servers measured unless `BENCH_SERVERS` names others. */
  servers?: string[];
  /** Our servers' `maxCost` (and `maxCells`, 10 times as many), for larger queries. */
  maxCost?: number;
}

/**
 * Starts the servers on a fresh data set, checks their answers, measures every query on every
 * server round after round, and prints the table (see the module documentation).
 *
 * @throws Error when a server answers differently from ours, or with an error
 */
export async function runPeers(options: PeersOptions): Promise<void> {
  const queries = options.queries;
  const users = options.users ?? SIZE.users;
  const servers = SERVERS ?? options.servers;
  console.log(
    `load average at start ${loadAverage()} (${navigator.hardwareConcurrency} cores); seed ${SEED}`,
  );
  const peers = await installPeers(PEERS_FOLDER);
  const db = await createTestDatabase("postgresql");
  const started: ServerProcess[] = [];
  const manifestFile = await Deno.makeTempFile({ suffix: ".json" });
  try {
    await measureAll(
      queries,
      users,
      servers,
      options.maxCost,
      peers,
      db.url,
      started,
      manifestFile,
    );
  } finally {
    for (const server of started) await server.stop();
    await db.drop();
    await Deno.remove(manifestFile);
  }
}

async function measureAll(
  queries: Query[],
  users: number,
  servers: string[] | undefined,
  maxCost: number | undefined,
  peers: { node: string; postgraphile: string },
  url: string,
  started: ServerProcess[],
  manifestFile: string,
): Promise<void> {
  const t0 = performance.now();
  await createPeerData(url, users);
  console.log(
    `data: ${users} users, ${SIZE.posts} posts, ${SIZE.comments} comments, ${SIZE.photos} photos ` +
      `(generate_series, ${((performance.now() - t0) / 1000).toFixed(1)} s)`,
  );
  // The persisted server's manifest: our six documents by their SHA-256 (Relay compiler's
  // `persistConfig.file` format, graphql-codegen client preset's too).
  const hashes = new Map<string, string>();
  for (const query of queries) hashes.set(query.name, await sha256(query.text(OURS)));
  await Deno.writeTextFile(
    manifestFile,
    JSON.stringify(Object.fromEntries(queries.map((q) => [hashes.get(q.name), q.text(OURS)]))),
  );
  const serverScript = new URL("./graphql_server.ts", import.meta.url);
  const inspectPort = freePort();
  const start = async (process: Promise<ServerProcess>) => {
    const started_ = await process;
    started.push(started_);
    return started_;
  };
  const asText = (names: Names) => (query: Query, variables: Record<string, unknown>) =>
    JSON.stringify({ query: query.text(names), variables });
  const noVariables = () => ({});
  const ourArgs = ["generated", url, ...(maxCost ? [String(maxCost), String(maxCost * 10)] : [])];
  const ourServer = async (name: string, env: Record<string, string>, flags: string[] = []) => ({
    name,
    process: await start(startServerProcess(serverScript, ourArgs, flags, env)),
    names: OURS,
    variables: noVariables,
    body: asText(OURS),
  });
  const ours: Server = await ourServer("mikrogql", { BENCH_LOG: "on" });
  const oursLogOff: Server = await ourServer(
    "mikrogql log off",
    {},
    PROFILE ? [`--inspect=127.0.0.1:${inspectPort}`] : [],
  );
  const persisted: Server = {
    ...await ourServer("mikrogql persisted", { BENCH_LOG: "on", BENCH_PERSISTED: manifestFile }),
    body: (query, variables) => JSON.stringify({ documentId: hashes.get(query.name), variables }),
  };
  const limit: Server = {
    name: "limit",
    process: await start(startServerProcess(
      new URL("./peers/limit_server.ts", import.meta.url),
      [url],
    )),
    names: OURS,
    variables: noVariables,
    body: asText(OURS),
  };
  const postgraphile: Server = {
    name: "PostGraphile",
    process: await start(
      startProcess(
        peers.node,
        [
          fromFileUrl(new URL("./peers/postgraphile_server.cjs", import.meta.url)),
          PEERS_FOLDER,
          url,
        ],
        { env: { NODE_ENV: "production" } },
      ),
    ),
    names: POSTGRAPHILE,
    variables: noVariables,
    body: asText(POSTGRAPHILE),
  };
  const naive: Server = {
    name: "naive",
    process: await start(startServerProcess(serverScript, ["naive", url])),
    names: OURS,
    variables: noVariables,
    body: asText(OURS),
  };
  const consoleLog: Server = await ourServer("mikrogql console.log", { BENCH_LOG: "console" });
  const timeoutsOff: Server = await ourServer("mikrogql timeouts off", {
    BENCH_LOG: "on",
    BENCH_TIMEOUTS: "off",
  });
  const all = [limit, postgraphile, ours, oursLogOff, persisted, consoleLog, timeoutsOff];
  // `mikrogql console.log` (the log as serve wrote it before its buffered writer) and `mikrogql
  // timeouts off` (no connection relay: the relay's cost) only when named.
  const measured = all.filter((server) =>
    servers ? servers.includes(server.name) : server !== consoleLog && server !== timeoutsOff
  );
  // Variables in each server's cursor and id formats (ours serve the limit's and persisted's):
  // a keyset page's cursor after its row, read once per row.
  for (const server of [oursLogOff, postgraphile]) {
    const cursors = new Map<number, string>();
    for (const row of new Set(queries.flatMap((q) => q.after ?? []))) {
      cursors.set(
        row,
        await cursorAfter(
          row,
          server.names,
          (query, variables) => graphql(server, query, variables),
        ),
      );
    }
    const id = server === postgraphile
      ? btoa(JSON.stringify(["Post", SIZE.posts / 2]))
      : encodeGlobalId("Post", SIZE.posts / 2);
    server.variables = (query) => ({
      ...(query.after === undefined ? {} : { after: cursors.get(query.after) }),
      id,
    });
  }
  for (const server of [ours, persisted, limit, consoleLog, timeoutsOff]) {
    server.variables = oursLogOff.variables;
  }

  // PostGraphile answers each Q1 shape with the same rows as ours.
  for (const tree of queries.filter((q) => q.first !== undefined)) {
    const ourIds = idsIn(await graphql(oursLogOff, tree.text(OURS)))
      .map((id) => atob(String(id).replaceAll("-", "+").replaceAll("_", "/")));
    const theirIds = idsIn(await graphql(postgraphile, tree.text(POSTGRAPHILE)))
      .map((id) => (JSON.parse(atob(String(id))) as [string, number]).join(":"));
    if (ourIds.length === 0 || JSON.stringify(ourIds) !== JSON.stringify(theirIds)) {
      throw new Error(
        `${tree.name} answers differ: mikrogql ${ourIds.length} ids, PostGraphile ${theirIds.length} ids`,
      );
    }
    console.log(
      `${tree.name}: PostGraphile returns the same ${ourIds.length} ids as ours, in order`,
    );
  }
  const q1 = queries.find((q) => q.name === "Q1");
  if (q1) {
    const naiveIds = idsIn(await graphql(naive, q1.text(naive.names)));
    if (naiveIds.length !== 1110) throw new Error(`naive Q1: ${naiveIds.length} ids, not 1,110`);
  }
  // The limit, the persisted server and the logging one answer every query exactly as ours.
  for (const query of queries) {
    const expected = JSON.stringify(
      await post(oursLogOff, oursLogOff.body(query, oursLogOff.variables(query))),
    );
    for (const server of [ours, persisted, limit, consoleLog, timeoutsOff]) {
      const answer = JSON.stringify(
        await post(server, server.body(query, server.variables(query))),
      );
      if (answer !== expected) {
        throw new Error(`${query.name}: ${server.name} answers\n${answer}\nours\n${expected}`);
      }
    }
  }
  console.log("limit, persisted and logging servers: the same answers as ours for every query");

  // Warm-up: every query answers without errors, 20 times; then each measured server runs each
  // query under the rounds' load for WARMUP seconds, unmeasured: a server's CPU per request keeps
  // falling for some 10-15 s of load after start (Q5 on ours: 320 µs in the first 4 s, 215 µs
  // from the 12th s on), so short rounds without it measured a server still warming up.
  for (const server of all) {
    for (const query of queries) {
      const body = server.body(query, server.variables(query));
      for (let i = 0; i < 20; i++) await post(server, body);
    }
  }
  // The queries of the rounds (the floor always runs when it is in the set).
  const measuredQueries = queries.filter((query) =>
    !ONLY || query.name === "floor" || ONLY.includes(query.name)
  );
  for (const server of WARMUP > 0 ? measured : []) {
    for (const query of measuredQueries) {
      await postLoad(
        `http://127.0.0.1:${server.process.port}/graphql`,
        server.body(query, server.variables(query)),
        WARMUP,
        CONCURRENCY,
      );
    }
  }
  if (q1) { for (let i = 0; i < 20; i++) await graphql(naive, q1.text(naive.names)); }

  const runs = new Map<string, Run[]>();
  const record = (key: string, run: Run) => runs.set(key, [...runs.get(key) ?? [], run]);
  const random = seeded(SEED);
  for (let round = 1; round <= ROUNDS; round++) {
    for (const query of measuredQueries) {
      const line = [`round ${round} ${query.name}:`];
      for (const server of shuffled(measured, random)) {
        const run = await measure(server, query);
        record(`${query.name} ${server.name}`, run);
        const [cpuUs, pgUs] = [run.cpuMs, run.pgMs].map((ms) => (ms * 1000).toFixed(0));
        line.push(
          `${server.name} ${run.rps.toFixed(0)} req/s ${cpuUs} µs CPU/req (PostgreSQL ${pgUs});`,
        );
      }
      if (query === q1 && !servers) record(`${query.name} naive`, await measure(naive, query));
      console.log(line.join(" "));
    }
  }

  console.log(
    `\nPostgreSQL 15, ${SECONDS} s per run at concurrency ${CONCURRENCY}, load from ${loadGenerator()}, ` +
      `after ${WARMUP} s of warm-up per server and query and ${RUN_WARMUP} s before each run, ` +
      `medians of ${ROUNDS} round(s), servers ` +
      `in a seeded random order per query (seed ${SEED}); ` +
      `PostGraphile ${peers.postgraphile} on Node 22 (amber + Relay presets); CPU and RSS of each ` +
      `server process and PostgreSQL's (every postgres process) from /proc; load average at end ${loadAverage()}\n`,
  );
  const header = [
    "query",
    "server",
    "req/s",
    "p50 ms",
    "p99 ms",
    "stmts/req",
    "CPU ms/req",
    "PG ms/req",
    "peak RSS MiB",
    "/PostGraphile",
    "/limit",
  ];
  const rows: string[][] = [];
  for (const query of queries) {
    const of = (server: Server | string) => {
      const key = `${query.name} ${typeof server === "string" ? server : server.name}`;
      return runs.has(key) ? summary(runs.get(key)!) : undefined;
    };
    const theirs = of(postgraphile);
    const limits = of(limit);
    for (const name of [...measured.map((s) => s.name), ...(query === q1 ? ["naive"] : [])]) {
      const run = of(name);
      if (!run) continue;
      rows.push([
        query.name,
        name,
        run.rps.toFixed(1),
        run.p50.toFixed(2),
        run.p99.toFixed(2),
        run.statements.toFixed(1),
        run.cpuMs.toFixed(3),
        run.pgMs.toFixed(3),
        (run.rss / 2 ** 20).toFixed(0),
        theirs ? (run.rps / theirs.rps).toFixed(2) : "-",
        limits ? (run.rps / limits.rps).toFixed(2) : "-",
      ]);
    }
  }
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  const line = (cells: string[]) =>
    cells.map((cell, i) => i < 2 ? cell.padEnd(widths[i]) : cell.padStart(widths[i])).join("  ");
  console.log(line(header));
  for (const row of rows) console.log(line(row));
  console.log("");
  for (const query of queries) console.log(`${query.name}: ${query.label}`);
  console.log("/PostGraphile, /limit: req/s to PostGraphile's, to the limit server's");
  if (runs.has("Q1 naive")) {
    const q1Ours = summary(runs.get("Q1 mikrogql")!);
    const q1Naive = summary(runs.get("Q1 naive")!);
    console.log(`Q1 mikrogql/naive: ${(q1Ours.rps / q1Naive.rps).toFixed(1)}x req/s`);
  }
  if (PROFILE) {
    const profiled = queries.find((query) => query.name === PROFILED);
    if (!profiled) throw new Error(`BENCH_PROFILE: no query named ${PROFILED}`);
    const lines = await profileDuring(inspectPort, () =>
      postLoad(
        `http://127.0.0.1:${oursLogOff.process.port}/graphql`,
        oursLogOff.body(profiled, oursLogOff.variables(profiled)),
        SECONDS,
        CONCURRENCY,
      ));
    console.log(`\n${profiled.name} on mikrogql (log off), ${SECONDS} s:`);
    for (const line of lines) console.log(line);
  }
}

if (import.meta.main) await runPeers({ queries: QUERIES });
