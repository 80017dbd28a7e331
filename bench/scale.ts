/**
 * Scale-out benchmark: 1, 2 and 4 blog example server processes
 * (`examples/blog/server.ts`, each on its own port) over the PostgreSQL primary (5432) and its
 * streaming replica (5433, set up by `.ci/replica.sh`), reads on the replica. The nested query of
 * `bench:collection` (`users(first:10){ posts(first:10){ comments(first:10) } }` on 100 users x 10
 * posts x 5 comments) is posted for `BENCH_SECONDS` (default 10) per process count by one load
 * generator per server process, `BENCH_CONNECTIONS` (default 16) connections in all, split evenly;
 * prints req/s, p50/p99 per count, the machine's cores (servers, PostgreSQL and the load
 * generators share them) and its load average at start (other work on the machine).
 *
 * ```sh
 * deno run -A bench/scale.ts
 * ```
 *
 * @module
 */
import { entities } from "../examples/blog/entities.ts";
import { openOrm } from "../server/open_orm.ts";
import { createTestDatabase } from "../tests/support/databases.ts";
import { NESTED_QUERY as QUERY, seedBlog } from "./blog_seed.ts";
import { type Load, loadGenerator, postLoad } from "./load.ts";
import { type ServerProcess, startProcess } from "./server_process.ts";

const SECONDS = Number(Deno.env.get("BENCH_SECONDS") ?? 10);
const CONNECTIONS = Number(Deno.env.get("BENCH_CONNECTIONS") ?? 16);
const COUNTS = [1, 2, 4];
const REPLICA_PORT = 5433;

/** Starts `examples/blog/server.ts` on a free port; resolves when it prints its URL. */
function startExample(primary: string, replica: string): Promise<ServerProcess> {
  return startProcess(
    Deno.execPath(),
    ["run", "-A", new URL("../examples/blog/server.ts", import.meta.url).pathname],
    {
      env: {
        DATABASE_URL: primary,
        DATABASE_REPLICA_URLS: replica,
        DATABASE_POOL_MAX: "5",
        PORT: "0",
      },
      ready: /GraphiQL at http:\/\/127\.0\.0\.1:(\d+)\//,
    },
  );
}

/** The GraphQL endpoint of `server`. */
function graphqlUrl(server: ServerProcess): string {
  return `http://127.0.0.1:${server.port}/graphql`;
}

async function post(url: string): Promise<void> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ query: QUERY }),
  });
  const body = await response.json();
  if (body.errors) throw new Error(JSON.stringify(body.errors));
}

/** Waits until the replica has replayed everything the primary has written so far. */
async function replicaCaughtUp(primary: string, replica: string): Promise<void> {
  const [p, r] = await Promise.all(
    [primary, replica].map((url) => openOrm({ entities, url })),
  );
  try {
    const [{ lsn }] = await p.em.getConnection().execute("select pg_current_wal_lsn() as lsn");
    for (let i = 0; i < 400; i++) {
      const [{ done }] = await r.em.getConnection().execute(
        `select pg_last_wal_replay_lsn() >= '${lsn}'::pg_lsn as done`,
      );
      if (done) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`the replica on ${REPLICA_PORT} did not replay ${lsn} in 20 s`);
  } finally {
    await Promise.all([p.close(), r.close()]);
  }
}

const loadAverage = Deno.loadavg()[0];
const db = await createTestDatabase("postgresql");
const replicaUrl = (() => {
  const url = new URL(db.url);
  url.port = String(REPLICA_PORT);
  return url.href;
})();
try {
  await seedBlog(db.url);
  await replicaCaughtUp(db.url, replicaUrl);

  const rows: { count: number; load: Load }[] = [];
  for (const count of COUNTS) {
    const servers = await Promise.all(
      Array.from({ length: count }, () => startExample(db.url, replicaUrl)),
    );
    try {
      for (const server of servers) for (let i = 0; i < 20; i++) await post(graphqlUrl(server));
      const share = Math.max(1, Math.floor(CONNECTIONS / count));
      const loads = await Promise.all(
        servers.map((s) =>
          postLoad(graphqlUrl(s), JSON.stringify({ query: QUERY }), SECONDS, share)
        ),
      );
      rows.push({
        count,
        load: {
          requests: loads.reduce((n, l) => n + l.requests, 0),
          rps: loads.reduce((n, l) => n + l.rps, 0),
          p50: Math.max(...loads.map((l) => l.p50)),
          p99: Math.max(...loads.map((l) => l.p99)),
        },
      });
    } finally {
      await Promise.all(servers.map((s) => s.stop()));
    }
  }
  console.log(
    `users(first:10){posts(first:10){comments(first:10)}}, ${SECONDS} s per row, ` +
      `${CONNECTIONS} connections in all, PostgreSQL primary :5432 + streaming replica ` +
      `:${REPLICA_PORT} (reads on the replica), load from ${loadGenerator()} (one per server), ` +
      `${navigator.hardwareConcurrency} cores shared by servers, PostgreSQL and load ` +
      `(1-minute load average ${loadAverage.toFixed(1)} at start)`,
  );
  const base = rows[0].load.rps;
  for (const { count, load } of rows) {
    console.log(
      `${String(count).padStart(2)} process${count === 1 ? "  " : "es"} ${
        load.rps.toFixed(1).padStart(8)
      } req/s (${(load.rps / base).toFixed(2)}x)  p50 ${load.p50.toFixed(1).padStart(7)} ms  ` +
        `p99 ${load.p99.toFixed(1).padStart(7)} ms (worst server)  (${load.requests} requests)`,
    );
  }
} finally {
  await db.drop();
}
