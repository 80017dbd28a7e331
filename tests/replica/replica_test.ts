/**
 * The blog example over a real PostgreSQL primary (127.0.0.1:5432) and its streaming hot standby
 * (127.0.0.1:5433), and through PgBouncer in transaction mode (127.0.0.1:6432), all set up by
 * `.ci/replica.sh`: reads are served by the replica (MikroORM's statement log per connection, and
 * `pg_stat_activity` on each server), mutations and their payloads by the primary, read-your-writes
 * holds while the replica's replay is paused, and with the replica stopped reads fall back to the
 * primary (or fail with `DATABASE_UNAVAILABLE`) and return to the replica when it is back.
 *
 * Only this file's own database is inspected; the replica is paused and stopped only for a moment
 * and always resumed / started again. `MIKROGQL_SKIP_DATABASES=replica` (or `postgresql`) skips
 * the suite deliberately; outside CI (`CI` unset) it also skips, printing why, when the replica or
 * PgBouncer is not running.
 */
import type { MikroORM } from "@mikro-orm/core";
import { assert, assertEquals, assertMatch, assertThrows } from "@std/assert";
import { delay } from "@std/async/delay";
import { TextLineStream } from "@std/streams/text-line-stream";
import { createYoga } from "graphql-yoga";
import {
  Deadline,
  encodeGlobalId,
  type MikroContext,
  READ_PRIMARY_UNTIL,
  ReadRetry,
  replicaFailover,
  Transactioner,
} from "../../mod.ts";
import { createSchema } from "../../examples/blog/generated/mod.ts";
import { entities } from "../../examples/blog/entities.ts";
import { seed } from "../../examples/blog/seed.ts";
import { openOrm } from "../../server/open_orm.ts";
import { createTestDatabase, dialects, type TestDatabase } from "../support/databases.ts";

const PRIMARY = 5432;
const REPLICA = 5433;
const BOUNCER = 6432;
const CLUSTER = ["15", "replica"];

/** Runs `sql` with psql on `port` (its own backend, outside every pool under test). */
async function psql(port: number, db: string, sql: string): Promise<string> {
  const out = await new Deno.Command("psql", {
    args: ["-h", "127.0.0.1", "-p", String(port), "-U", "postgres", "-d", db, "-Atqc", sql],
  }).output();
  if (!out.success) {
    throw new Error(`psql on ${port}: ${new TextDecoder().decode(out.stderr).trim()}`);
  }
  return new TextDecoder().decode(out.stdout).trim();
}

async function cluster(action: "start" | "stop"): Promise<void> {
  const out = await new Deno.Command("pg_ctlcluster", {
    args: [
      "--skip-systemctl-redirect",
      ...CLUSTER,
      action,
      ...(action === "stop" ? ["-m", "fast"] : []),
    ],
  }).output();
  if (!out.success) {
    throw new Error(`pg_ctlcluster ${action}: ${new TextDecoder().decode(out.stderr).trim()}`);
  }
}

/** Polls `check` every 50 ms until it holds; fails naming `what` after `ms`. */
async function until(what: string, check: () => Promise<boolean>, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check().catch(() => false))) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await delay(50);
  }
}

/** Waits until the replica has replayed everything the primary has written so far. */
async function caughtUp(db: string): Promise<void> {
  const lsn = await psql(PRIMARY, db, "select pg_current_wal_lsn()");
  await until(
    `the replica to replay ${lsn}`,
    async () =>
      await psql(REPLICA, db, `select pg_last_wal_replay_lsn() >= '${lsn}'::pg_lsn`) === "t",
  );
}

function withPort(url: string, port: number): string {
  const u = new URL(url);
  u.port = String(port);
  return u.href;
}

/** One logged statement: its SQL and the connection type MikroORM ran it on. */
interface Statement {
  sql: string;
  via: "read" | "write";
}

interface Served {
  orm: MikroORM;
  log: Statement[];
  /** Posts `query` with optional headers; returns the parsed body and the response headers. */
  post(
    query: string,
    headers?: Record<string, string>,
  ): Promise<{ body: Body; headers: Headers }>;
  close(): Promise<void>;
}

interface Body {
  data?: Record<string, unknown> | null;
  errors?: { message: string; extensions?: { code?: string } }[];
}

/**
 * The blog schema on Yoga with the Transactioner (read-your-writes for 30 s) over an ORM whose
 * primary is `primaryUrl` and whose one replica is `replicaUrl`; the request's `x-read-from`
 * header, when given, becomes `ctx.readFrom`.
 */
async function serve(
  primaryUrl: string,
  replicaUrl: string,
  options: { schema?: Parameters<typeof createSchema>[0]; whenDown?: "primary" | "error" } = {},
): Promise<Served> {
  const log: Statement[] = [];
  const orm = await openOrm({
    entities,
    url: primaryUrl,
    onQuery: (line) => {
      const via = / \(via (read|write) connection '[^']*'\)$/.exec(line);
      log.push({ sql: line, via: (via?.[1] ?? "write") as Statement["via"] });
    },
    extra: { replicas: [{ name: "replica", clientUrl: replicaUrl }], pool: { max: 4 } },
  });
  replicaFailover(orm, { whenDown: options.whenDown ?? "primary", retryAfterMs: 300 });
  const yoga = createYoga({
    schema: createSchema(options.schema),
    context: ({ request }): MikroContext => ({
      em: orm.em.fork(),
      ...(request.headers.has("x-read-from")
        ? { readFrom: request.headers.get("x-read-from") as "primary" }
        : {}),
    }),
    plugins: [
      Transactioner({ txOpener: orm, readYourWrites: { seconds: 30 } }),
      ReadRetry(),
      Deadline(),
    ],
    logging: false,
  });
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, yoga.fetch);
  const url = `http://127.0.0.1:${server.addr.port}/graphql`;
  return {
    orm,
    log,
    post: async (query, headers = {}) => {
      const response = await fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
        body: JSON.stringify({ query }),
      });
      return { body: await response.json(), headers: response.headers };
    },
    close: async () => {
      await server.shutdown();
      await orm.close();
    },
  };
}

/** `examples/blog/server.ts` in its own process over `primary` and the replica `replica`. */
async function startExample(
  primary: string,
  replica: string,
): Promise<Pick<Served, "post"> & { stop(): Promise<void> }> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", new URL("../../examples/blog/server.ts", import.meta.url).pathname],
    env: { DATABASE_URL: primary, DATABASE_REPLICA_URLS: replica, PORT: "0" },
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const lines = child.stdout.pipeThrough(new TextDecoderStream()).pipeThrough(new TextLineStream())
    .getReader();
  let url: string | undefined;
  for (let line = await lines.read(); !line.done && !url; line = await lines.read()) {
    url = /GraphiQL at (http:\/\/\S+)/.exec(line.value)?.[1];
  }
  // Keep reading stdout so the server never writes into a closed pipe.
  (async () => {
    while (!(await lines.read()).done) { /* discard */ }
  })();
  if (!url) {
    child.kill();
    await child.status;
    throw new Error("examples/blog/server.ts exited before printing its URL");
  }
  return {
    post: async (query, headers = {}) => {
      const response = await fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
        body: JSON.stringify({ query }),
      });
      return { body: await response.json(), headers: response.headers };
    },
    stop: async () => {
      child.kill();
      await child.status;
    },
  };
}

/** Touches every read path: root page and count, nested pages (window SQL), grouped counts. */
const READS = `{
  users(first: 3, orderBy: { field: NAME, direction: ASC }) {
    totalCount
    edges { node { id name
      posts(first: 2) { totalCount edges { node { title
        author { name }
        comments(first: 1) { totalCount edges { node { text } } } } } }
      photos { edges { node { url } } }
    } }
  }
}`;

function dataOf(response: { body: Body }): Record<string, unknown> {
  assertEquals(response.body.errors, undefined);
  return response.body.data!;
}

function namesOf(data: Record<string, unknown>): string[] {
  const users = data.users as { edges: { node: { name: string } }[] };
  return users.edges.map((e) => e.node.name);
}

/** The database of this file, seeded on the primary and replayed by the replica. */
async function seeded(): Promise<TestDatabase> {
  const missing = await missingServer();
  if (missing) throw new Error(`${missing}: run \`bash .ci/replica.sh\``);
  const db = await createTestDatabase("postgresql");
  const orm = await openOrm({ entities, url: db.url });
  try {
    await orm.schema.create();
    await seed(orm.em.fork());
  } finally {
    await orm.close();
  }
  return db;
}

/**
 * Why the suite cannot run here (the replica or PgBouncer not accepting connections), or
 * `undefined` when both are up. `pg_isready` (PostgreSQL's client tools) is what asks.
 */
async function missingServer(): Promise<string | undefined> {
  for (const [port, what] of [[REPLICA, "the replica"], [BOUNCER, "PgBouncer"]] as const) {
    const ready = await new Deno.Command("pg_isready", {
      args: ["-h", "127.0.0.1", "-p", String(port), "-q"],
    }).output().catch((error) => error as Error);
    if (ready instanceof Error) return `pg_isready cannot run (${ready.message})`;
    if (!ready.success) return `${what} is not running on 127.0.0.1:${port}`;
  }
}

const skipReplica = (Deno.env.get("MIKROGQL_SKIP_DATABASES") ?? "").split(",").includes("replica");
if (skipReplica) console.warn("skipping replica: listed in MIKROGQL_SKIP_DATABASES");
let enabled = !skipReplica && dialects(["postgresql"]).length > 0;
// Outside CI a machine without the replica skips the suite, saying why; CI sets it up
// (.ci/run runs .ci/replica.sh), so there a missing replica fails the suite instead.
const missing = enabled && !Deno.env.get("CI") ? await missingServer() : undefined;
if (missing) {
  console.warn(`skipping replica: ${missing}; \`sudo bash .ci/replica.sh\` sets it up`);
  enabled = false;
}

Deno.test({
  name: "replica: reads on the replica, writes and payloads on the primary, read-your-writes",
  ignore: !enabled,
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async (t) => {
    const db = await seeded();
    const name = new URL(db.url).pathname.slice(1);
    await caughtUp(name);
    const served = await serve(db.url, withPort(db.url, REPLICA));
    try {
      await t.step("every read of a query runs on the replica", async () => {
        served.log.length = 0;
        const data = dataOf(await served.post(READS));
        assertEquals(namesOf(data), ["user000", "user001", "user002"]);
        const id = encodeGlobalId("User", 1);
        dataOf(await served.post(`{ node(id: "${id}") { id } nodes(ids: ["${id}"]) { id } }`));
        assert(served.log.length >= 6, served.log.map((s) => s.sql).join("\n"));
        assertEquals(served.log.filter((s) => s.via !== "read"), []);
        assert(served.log.some((s) => /row_number\(\) over/.test(s.sql)), "window SQL ran");
        // The nested pages count their parents' rows in their own statements (a window).
        assert(
          served.log.some((s) => /count\(\*\) over \(partition by/i.test(s.sql)),
          "a page's window count ran",
        );
      });

      await t.step(
        "pg_stat_activity: the replica server ran the query, the primary did not",
        async () => {
          const marker = `marker-${crypto.randomUUID()}`;
          const data = dataOf(
            await served.post(
              `{ users(where: { nameHasPrefix: "${marker}", nameHasSuffix: "${marker}" }) { edges { node { id } } } }`,
            ),
          );
          assertEquals(namesOf(data), []);
          const ran = (port: number) =>
            psql(
              port,
              name,
              // Values are bound parameters, never in the text: the statement is told by its shape.
              `select count(*) from pg_stat_activity where datname = '${name}' and query like '%"name" like % and %"name" like %' and pid <> pg_backend_pid()`,
            );
          assertEquals(await ran(REPLICA), "1");
          assertEquals(await ran(PRIMARY), "0");
        },
      );

      await t.step(
        "the example server with DATABASE_REPLICA_URLS reads on the replica, stamps mutations",
        async () => {
          const example = await startExample(db.url, withPort(db.url, REPLICA));
          try {
            const marker = `example-${crypto.randomUUID()}`;
            const read = await example.post(
              `{ users(where: { nameHasPrefix: "${marker}", emailHasSuffix: "${marker}" }) { edges { node { id } } } }`,
            );
            assertEquals(namesOf(dataOf(read)), []);
            const ran = (port: number) =>
              psql(
                port,
                name,
                `select count(*) from pg_stat_activity where datname = '${name}' and query like '%"name" like % and %"email" like %' and pid <> pg_backend_pid()`,
              );
            assertEquals([await ran(REPLICA), await ran(PRIMARY)], ["1", "0"]);
            const write = await example.post(
              `mutation { createUser(input: { name: "zz", email: "zz@example.com" }) { name } }`,
            );
            assertEquals(dataOf(write).createUser, { name: "zz" });
            assertMatch(write.headers.get("set-cookie") ?? "", /Max-Age=5;/);
          } finally {
            await example.stop();
          }
        },
      );

      await t.step(
        "a mutation and its payload run on the primary, in its transaction",
        async () => {
          served.log.length = 0;
          const { body, headers } = await served.post(
            `mutation { createUser(input: { name: "ann", email: "ann@example.com" }) {
            id name posts(first: 1) { totalCount } photos { totalCount } } }`,
          );
          assertEquals(body.errors, undefined);
          assertEquals((body.data!.createUser as { name: string }).name, "ann");
          assertEquals(served.log.filter((s) => s.via !== "write"), []);
          assert(served.log.some((s) => /^begin/.test(s.sql)), "a transaction was opened");
          assertMatch(served.log.at(-1)!.sql, /^commit/);
          assert(served.log.some((s) => /^select/.test(s.sql)), "the payload was read");
          assertMatch(headers.get(READ_PRIMARY_UNTIL) ?? "", /^\d+$/);
          assertMatch(
            headers.get("set-cookie") ?? "",
            new RegExp(`^${READ_PRIMARY_UNTIL}=\\d+; Max-Age=30;`),
          );
        },
      );

      await t.step("read-your-writes while the replica's replay is paused", async () => {
        await caughtUp(name);
        await psql(REPLICA, "postgres", "select pg_wal_replay_pause()");
        try {
          await until(
            "replay to pause",
            async () =>
              await psql(REPLICA, "postgres", "select pg_get_wal_replay_pause_state()") ===
                "paused",
          );
          const { body, headers } = await served.post(
            `mutation { createUser(input: { name: "bob", email: "bob@example.com" }) { name } }`,
          );
          assertEquals(body.errors, undefined);
          const cookie = headers.get("set-cookie")!.split(";")[0];
          const bob = `{ users(where: { name: "bob" }) { edges { node { name } } } }`;
          // The replica lags: a client without the stamp does not see bob yet ...
          assertEquals(namesOf(dataOf(await served.post(bob))), []);
          // ... the writer does, with its cookie or the header.
          served.log.length = 0;
          assertEquals(namesOf(dataOf(await served.post(bob, { cookie }))), ["bob"]);
          assertEquals(served.log.filter((s) => s.via !== "write"), []);
          const stamp = headers.get(READ_PRIMARY_UNTIL)!;
          assertEquals(namesOf(dataOf(await served.post(bob, { [READ_PRIMARY_UNTIL]: stamp }))), [
            "bob",
          ]);
          // A stamp beyond the configured window, or expired, is ignored.
          const late = String(Date.now() + 3_600_000);
          assertEquals(namesOf(dataOf(await served.post(bob, { [READ_PRIMARY_UNTIL]: late }))), []);
          const past = String(Date.now() - 1);
          assertEquals(namesOf(dataOf(await served.post(bob, { [READ_PRIMARY_UNTIL]: past }))), []);
          // readFrom per request (context) and per schema.
          assertEquals(namesOf(dataOf(await served.post(bob, { "x-read-from": "primary" }))), [
            "bob",
          ]);
          const pinned = await serve(db.url, withPort(db.url, REPLICA), {
            schema: { readFrom: "primary" },
          });
          try {
            assertEquals(namesOf(dataOf(await pinned.post(bob))), ["bob"]);
            assertEquals(namesOf(dataOf(await pinned.post(bob, { "x-read-from": "replica" }))), []);
          } finally {
            await pinned.close();
          }
        } finally {
          await psql(REPLICA, "postgres", "select pg_wal_replay_resume()");
        }
        await caughtUp(name);
        const bob = `{ users(where: { name: "bob" }) { edges { node { name } } } }`;
        assertEquals(namesOf(dataOf(await served.post(bob))), ["bob"]);
      });

      await t.step(
        "replica stopped: reads from the primary or DATABASE_UNAVAILABLE; back when it is",
        async () => {
          const strict = await serve(db.url, withPort(db.url, REPLICA), { whenDown: "error" });
          try {
            dataOf(await strict.post(READS)); // its pool holds replica connections now
            await cluster("stop");
            try {
              served.log.length = 0;
              assertEquals(namesOf(dataOf(await served.post(READS))), ["ann", "bob", "user000"]);
              assert(served.log.some((s) => s.via === "write"), "the primary answered");
              const down = await strict.post(READS);
              assertEquals(down.body.errors?.[0]?.extensions?.code, "DATABASE_UNAVAILABLE");
              assertMatch(down.body.errors![0].message, /^the database is unavailable/);
            } finally {
              await cluster("start");
            }
            await until(
              "the replica to accept connections",
              async () => await psql(REPLICA, "postgres", "select pg_is_in_recovery()") === "t",
            );
            await caughtUp(name);
            await delay(350); // retryAfterMs
            for (const server of [served, strict]) {
              server.log.length = 0;
              assertEquals(namesOf(dataOf(await server.post(READS))), ["ann", "bob", "user000"]);
              assertEquals(server.log.filter((s) => s.via !== "read"), []);
            }
          } finally {
            await strict.close();
          }
        },
      );
    } finally {
      await served.close();
      // PgBouncer keeps its server connections to the database open: end them with the drop.
      await psql(PRIMARY, "postgres", `drop database "${name}" with (force)`);
    }
  },
});

Deno.test({
  name: "replica: the blog example through PgBouncer in transaction mode",
  ignore: !enabled,
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const db = await seeded();
    const name = new URL(db.url).pathname.slice(1);
    await caughtUp(name);
    const served = await serve(withPort(db.url, BOUNCER), withPort(db.url, REPLICA));
    try {
      // Concurrent mutations and reads: 4 pooled client connections share PgBouncer's server
      // connections statement by statement; nothing may depend on session state.
      const results = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          i % 3 === 0
            ? served.post(
              `mutation { createPost(input: { title: "t${i}", body: "b", status: DRAFT,
              authorID: "${encodeGlobalId("User", 1)}" }) { title author { name } } }`,
            )
            : served.post(READS)),
      );
      for (const result of results) dataOf(result);
      const { body } = await served.post(
        `mutation { createUser(input: { name: "zed", email: "zed@example.com" }) { name } }`,
      );
      assertEquals(body.errors, undefined);
      // A failing mutation rolls back through PgBouncer too.
      const failed = await served.post(
        `mutation { createUser(input: { name: "ann", email: "user0@example.com" }) { name } }`,
      );
      assert(failed.body.errors?.length, "duplicate email refused");
      // Nothing session-scoped was sent: no SET/RESET outside a transaction, no named prepared
      // statements, cursors or LISTEN (parameters are inlined by MikroORM).
      assert(served.log.some((s) => /^begin/.test(s.sql)), served.log.map((s) => s.sql).join("\n"));
      assertEquals(
        served.log.filter((s) =>
          /^(set|reset|prepare|execute|listen|declare|discard)\b/i.test(s.sql) &&
          !/^set (local|transaction)\b/i.test(s.sql)
        ),
        [],
      );
      assertEquals(
        await psql(PRIMARY, name, `select count(*) from "post" where title like 't%'`),
        "4",
      );
      assertEquals(await psql(PRIMARY, name, `select count(*) from "user"`), "6");
    } finally {
      await served.close();
      // PgBouncer keeps its server connections to the database open: end them with the drop.
      await psql(PRIMARY, "postgres", `drop database "${name}" with (force)`);
    }
  },
});

Deno.test({
  name: "replica: an unreachable primary is DATABASE_UNAVAILABLE; bad options are refused",
  ignore: !enabled,
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    // Nothing listens on port 1: every statement is refused.
    const orm = await openOrm({
      entities,
      url: "postgres://postgres@127.0.0.1:1/none",
    });
    const yoga = createYoga({
      schema: createSchema(),
      context: (): MikroContext => ({ em: orm.em.fork() }),
      plugins: [Transactioner({ txOpener: orm }), ReadRetry(), Deadline()],
      logging: false,
    });
    try {
      const post = async (query: string): Promise<Body> =>
        await (await yoga.fetch("http://localhost/graphql", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ query }),
        })).json();
      const read = await post("{ users(first: 1) { totalCount edges { node { name } } } }");
      assertEquals(read.errors?.map((e) => e.extensions?.code), ["DATABASE_UNAVAILABLE"]);
      assertMatch(read.errors![0].message, /^the database is unavailable/);
      // A transaction that cannot be opened: the Transactioner's own TRANSACTION_FAILED, or
      // DATABASE_UNAVAILABLE where the fault is classified -- never a masked error.
      const write = await post(
        `mutation { createUser(input: { name: "x", email: "x@example.com" }) { id } }`,
      );
      assertEquals(write.data, null);
      assertEquals(write.errors?.length, 1);
      assert(
        ["TRANSACTION_FAILED", "DATABASE_UNAVAILABLE"].includes(
          write.errors![0].extensions?.code ?? "",
        ),
        JSON.stringify(write.errors),
      );
      assertThrows(
        () => Transactioner({ txOpener: orm, readYourWrites: { seconds: 0 } }),
        Error,
        "readYourWrites.seconds",
      );
      assertThrows(() => replicaFailover(orm), Error, "no `replicas`");
      assertThrows(() => replicaFailover(orm, { retryAfterMs: -1 }), Error, "retryAfterMs");
    } finally {
      await orm.close();
    }
  },
});
