/**
 * Field-collection benchmark (issue 3): PostgreSQL seeded with 100 users x 10 posts x 5
 * comments; `users(first:10){ posts(first:10){ comments(first:10) } }` for 10 s at concurrency
 * 10 against (a) the generated server and (b) the naive per-parent server; prints req/s,
 * p50/p99 latency, statements per request and RSS of both, and the ratio (a)/(b).
 *
 * ```sh
 * deno task bench:collection
 * ```
 *
 * `BENCH_DB_DELAY_MS=1` puts a TCP proxy between the servers and PostgreSQL that delays each
 * direction, to see both servers as if the database were a few milliseconds away (the measured
 * round trip is printed; see bench/latency_proxy.ts for its resolution). The load comes from `wrk` when it is installed (`apt-get install wrk`), else from fetch loops in
 * this process (which compete with the servers for the same cores).
 *
 * @module
 */
import { Comment } from "../examples/blog/entities/comment.ts";
import { Post } from "../examples/blog/entities/post.ts";
import { User } from "../examples/blog/entities/user.ts";
import { entities } from "../examples/blog/server.ts";
import { openDatabase } from "../examples/database.ts";
import { createTestDatabase } from "../tests/support/databases.ts";
import { startLatencyProxy } from "./latency_proxy.ts";
import { startServerProcess } from "./server_process.ts";

const SECONDS = Number(Deno.env.get("BENCH_SECONDS") ?? 10);
/** Delay added each way between the servers and PostgreSQL by a TCP proxy; 0 connects directly. */
const DB_DELAY_MS = Number(Deno.env.get("BENCH_DB_DELAY_MS") ?? 0);
const CONCURRENCY = 10;
const QUERY = `{ users(first: 10) { edges { node { name posts(first: 10) { edges { node { title
  comments(first: 10) { edges { node { text } } } } } } } } } }`;

const db = await createTestDatabase("postgresql");
const orm = await openDatabase({ entities, url: db.url });
await orm.schema.create();
const em = orm.em.fork();
for (let u = 0; u < 100; u++) {
  const author = em.create(User, { name: `user${u}`, email: `u${u}@bench.example` });
  for (let p = 0; p < 10; p++) {
    const post = em.create(Post, { title: `post ${u}.${p}`, body: "", author });
    for (let c = 0; c < 5; c++) em.create(Comment, { text: `comment ${c}`, post, author });
  }
}
await em.flush();
await orm.close();

const proxy = DB_DELAY_MS > 0
  ? startLatencyProxy({ hostname: "127.0.0.1", port: 5432 }, DB_DELAY_MS)
  : undefined;
const serverUrl = proxy ? db.url.replace(":5432/", `:${proxy.port}/`) : db.url;

/** Median time of `select 1` from a fresh connection to `url`, in ms. */
async function roundTrip(url: string): Promise<number> {
  const probe = await openDatabase({ entities, url });
  const times: number[] = [];
  for (let i = 0; i < 30; i++) {
    const t0 = performance.now();
    await probe.em.fork().getConnection().execute("select 1");
    times.push(performance.now() - t0);
  }
  await probe.close();
  return times.sort((a, b) => a - b)[15];
}

interface Result {
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  statements: number;
  rss: number;
}

async function run(kind: "generated" | "naive"): Promise<Result> {
  const server = await startServerProcess(new URL("./graphql_server.ts", import.meta.url), [
    kind,
    serverUrl,
  ]);
  const url = `http://127.0.0.1:${server.port}`;
  const post = async () => {
    const response = await fetch(`${url}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ query: QUERY }),
    });
    const body = await response.json();
    if (body.errors) throw new Error(JSON.stringify(body.errors));
  };
  for (let i = 0; i < 20; i++) await post(); // warm-up
  const before = await (await fetch(`${url}/stats`)).json();
  const load = wrkPath() ? await loadWithWrk(`${url}/graphql`) : await loadInProcess(post);
  const after = await (await fetch(`${url}/stats`)).json();
  await server.stop();
  return {
    ...load,
    statements: (after.statements - before.statements) / (after.requests - before.requests),
    rss: after.rss,
  };
}

type Load = Pick<Result, "requests" | "rps" | "p50" | "p99">;

function wrkPath(): string | undefined {
  try {
    return Deno.statSync("/usr/bin/wrk").isFile ? "/usr/bin/wrk" : undefined;
  } catch {
    return undefined;
  }
}

/** Load from `wrk` (a separate C process: far less CPU than a JS client on the same 2 cores). */
async function loadWithWrk(url: string): Promise<Load> {
  const script = await Deno.makeTempFile({ suffix: ".lua" });
  await Deno.writeTextFile(
    script,
    `wrk.method = "POST"\nwrk.headers["Content-Type"] = "application/json"\nwrk.body = ${
      JSON.stringify(JSON.stringify({ query: QUERY }))
    }\n`,
  );
  const result = await new Deno.Command("/usr/bin/wrk", {
    args: ["-t1", `-c${CONCURRENCY}`, `-d${SECONDS}s`, "--latency", "-s", script, url],
    stdout: "piped",
  }).output();
  await Deno.remove(script);
  const out = new TextDecoder().decode(result.stdout);
  const ms = (label: string) => {
    const [, value, unit] = out.match(new RegExp(`${label}\\s+([\\d.]+)(us|ms|s)`))!;
    return Number(value) * (unit === "us" ? 0.001 : unit === "s" ? 1000 : 1);
  };
  if (/Non-2xx/.test(out)) throw new Error(`wrk saw errors:\n${out}`);
  return {
    requests: Number(out.match(/(\d+) requests in/)![1]),
    rps: Number(out.match(/Requests\/sec:\s+([\d.]+)/)![1]),
    p50: ms("50%"),
    p99: ms("99%"),
  };
}

/** Load from `CONCURRENCY` fetch loops in this process (when `wrk` is not installed). */
async function loadInProcess(post: () => Promise<void>): Promise<Load> {
  const latencies: number[] = [];
  const deadline = performance.now() + SECONDS * 1000;
  const started = performance.now();
  await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
    while (performance.now() < deadline) {
      const t0 = performance.now();
      await post();
      latencies.push(performance.now() - t0);
    }
  }));
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const at = (q: number) =>
    latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))];
  return {
    requests: latencies.length,
    rps: latencies.length / elapsed,
    p50: at(0.5),
    p99: at(0.99),
  };
}

try {
  const generated = await run("generated");
  const naive = await run("naive");
  const row = (name: string, r: Result) =>
    `${name.padEnd(10)} ${r.rps.toFixed(1).padStart(8)} req/s  p50 ${
      r.p50.toFixed(1).padStart(7)
    } ms  p99 ${r.p99.toFixed(1).padStart(7)} ms  ${
      r.statements.toFixed(1).padStart(6)
    } statements/req  RSS ${(r.rss / 2 ** 20).toFixed(0)} MiB  (${r.requests} requests)`;
  console.log(
    `users(first:10){posts(first:10){comments(first:10)}}, ${SECONDS} s at concurrency ${CONCURRENCY}, ` +
      `PostgreSQL, load from ${wrkPath() ? "wrk" : "in-process fetch loops"}`,
  );
  console.log(
    `database round trip (select 1, median): ${(await roundTrip(serverUrl)).toFixed(2)} ms` +
      (proxy ? ` through a proxy adding ${DB_DELAY_MS} ms each way` : " (loopback, direct)"),
  );
  console.log(row("generated", generated));
  console.log(row("naive", naive));
  console.log(`ratio generated/naive: ${(generated.rps / naive.rps).toFixed(2)}x req/s`);
} finally {
  proxy?.close();
  await db.drop();
}
