/**
 * Field-collection benchmark: PostgreSQL seeded with 100 users x 10 posts x 5
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
import { entities } from "../examples/blog/entities.ts";
import { openOrm } from "../server/open_orm.ts";
import { createTestDatabase } from "../tests/support/databases.ts";
import { NESTED_QUERY as QUERY, seedBlog } from "./blog_seed.ts";
import { startLatencyProxy } from "./latency_proxy.ts";
import { type Load, loadGenerator, postLoad } from "./load.ts";
import { startServerProcess } from "./server_process.ts";

const SECONDS = Number(Deno.env.get("BENCH_SECONDS") ?? 10);
/** Delay added each way between the servers and PostgreSQL by a TCP proxy; 0 connects directly. */
const DB_DELAY_MS = Number(Deno.env.get("BENCH_DB_DELAY_MS") ?? 0);
const CONCURRENCY = 10;

const db = await createTestDatabase("postgresql");
await seedBlog(db.url);

const proxy = DB_DELAY_MS > 0
  ? startLatencyProxy({ hostname: "127.0.0.1", port: 5432 }, DB_DELAY_MS)
  : undefined;
const serverUrl = proxy ? db.url.replace(":5432/", `:${proxy.port}/`) : db.url;

/** Median time of `select 1` from a fresh connection to `url`, in ms. */
async function roundTrip(url: string): Promise<number> {
  const probe = await openOrm({ entities, url });
  const times: number[] = [];
  for (let i = 0; i < 30; i++) {
    const t0 = performance.now();
    await probe.em.fork().getConnection().execute("select 1");
    times.push(performance.now() - t0);
  }
  await probe.close();
  return times.sort((a, b) => a - b)[15];
}

interface Result extends Load {
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
  const stats = `http://127.0.0.1:${server.statsPort}/stats`;
  const before = await (await fetch(stats)).json();
  const load = await postLoad(
    `${url}/graphql`,
    JSON.stringify({ query: QUERY }),
    SECONDS,
    CONCURRENCY,
  );
  const after = await (await fetch(stats)).json();
  await server.stop();
  return {
    ...load,
    statements: (after.statements - before.statements) / load.requests,
    rss: after.rss,
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
      `PostgreSQL, load from ${loadGenerator()}`,
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
