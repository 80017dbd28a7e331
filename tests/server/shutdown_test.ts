/**
 * Graceful shutdown, on real processes and real signals: the blog example (examples/serve.ts,
 * which runs the package's `serve`) on PostgreSQL gets SIGTERM while a request waits on a table
 * lock; the listener closes at once, the request completes with its data once the lock is gone,
 * and the process exits 0 after logging it stopped. In-process: a request still running when
 * the grace period ends is abandoned and reported.
 */
import { assert, assertEquals } from "@std/assert";
import { TextLineStream } from "@std/streams/text-line-stream";
import type { EntityManager, MikroORM } from "@mikro-orm/core";
import { entities } from "../../examples/blog/entities.ts";
import { createSchema } from "../../examples/blog/generated/mod.ts";
import { seed } from "../../examples/blog/seed.ts";
import { openOrm } from "../../server/open_orm.ts";
import { serve } from "../../server/serve.ts";
import { createTestDatabase, dialects, openTestOrm } from "../support/databases.ts";

const NESTED = `query Nested { users(first: 1) { edges { node { name
  posts(first: 1) { edges { node { title } } } } } } }`;

/** Holds `lock table <table> in access exclusive mode` in a transaction of its own. */
async function lockTable(url: string, table: string) {
  const orm = await openOrm({ entities, url });
  const em = orm.em.fork();
  await em.begin();
  await em.getConnection().execute(
    `lock table ${table} in access exclusive mode`,
    [],
    "run",
    em.getTransactionContext(),
  );
  return {
    release: async () => {
      await em.rollback();
      await orm.close();
    },
  };
}

/** Resolves once a statement of the database `admin` is on waits for a lock on `table`. */
async function waitForLockWait(admin: EntityManager, table: string): Promise<void> {
  for (;;) {
    const rows = await admin.getConnection().execute(
      `select count(*)::int as n from pg_stat_activity
        where datname = current_database() and wait_event_type = 'Lock'
          and query like '%"${table}"%'`,
    );
    if (rows[0].n > 0) return;
  }
}

/** The lines a child prints, with a way to wait for one. */
/**
 * Resolves once a connection to `port` is refused (or reset); throws when connections are still accepted
 * after 2 s (the listener closes on another thread of the child, just after its draining log).
 */
async function refusesConnections(port: number): Promise<void> {
  const deadline = Date.now() + 2_000;
  while (Date.now() < deadline) {
    try {
      (await Deno.connect({ hostname: "127.0.0.1", port })).close();
    } catch (error) {
      // Refused, or reset by a listener closing while the connection waited in its backlog.
      if (
        error instanceof Deno.errors.ConnectionRefused ||
        error instanceof Deno.errors.ConnectionReset
      ) return;
      throw error;
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`port ${port} still accepts connections 2 s into the shutdown`);
}

function lineReader(child: Deno.ChildProcess) {
  const lines: string[] = [];
  const waiters: { match: (line: string) => boolean; resolve: (line: string) => void }[] = [];
  const done = (async () => {
    const stream = child.stdout.pipeThrough(new TextDecoderStream()).pipeThrough(
      new TextLineStream(),
    );
    for await (const line of stream) {
      lines.push(line);
      for (const w of [...waiters]) {
        if (w.match(line)) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve(line);
        }
      }
    }
  })();
  return {
    lines,
    done,
    next: (match: (line: string) => boolean): Promise<string> => {
      const seen = lines.find(match);
      if (seen) return Promise.resolve(seen);
      return new Promise((resolve, reject) => {
        // a hang guard (60 s), not a timing assertion: a line that never comes fails the test
        // with what the child printed instead of holding the suite
        const guard = setTimeout(
          () => reject(new Error(`no such line after 60 s; got:\n${lines.join("\n")}`)),
          60_000,
        );
        waiters.push({
          match,
          resolve: (line) => {
            clearTimeout(guard);
            resolve(line);
          },
        });
        done.then(() => {
          clearTimeout(guard);
          reject(new Error(`exited without printing the line; got:\n${lines.join("\n")}`));
        });
      });
    },
  };
}

if (dialects(["postgresql"]).length > 0) {
  Deno.test({
    name: "SIGTERM with a request in flight: the request completes, then the process exits 0",
    sanitizeOps: false,
    sanitizeResources: false,
    fn: async () => {
      const db = await createTestDatabase("postgresql");
      const admin = await openOrm({ entities, url: db.url });
      const child = new Deno.Command(Deno.execPath(), {
        args: ["run", "-A", new URL("../../examples/blog/server.ts", import.meta.url).pathname],
        env: { DATABASE_URL: db.url, PORT: "0" },
        stdout: "piped",
        stderr: "inherit",
      }).spawn();
      const out = lineReader(child);
      let lock: Awaited<ReturnType<typeof lockTable>> | undefined;
      try {
        const banner = await out.next((l) => l.includes("GraphiQL at "));
        const url = banner.slice(banner.indexOf("http://"));
        const port = Number(new URL(url).port);
        lock = await lockTable(db.url, "post");
        const response = fetch(url, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ query: NESTED }),
        }).catch((error: Error) => error);
        await waitForLockWait(admin.em.fork(), "post");
        child.kill("SIGTERM");
        const draining = JSON.parse(await out.next((l) => l.includes('"shutting down"')));
        assertEquals(draining.cause, "SIGTERM");
        assertEquals(draining.inFlight, 1);
        // No new connection is accepted while the request in flight finishes (the lock holds it).
        await refusesConnections(port);
        await lock.release();
        lock = undefined;
        const answer = await response;
        if (answer instanceof Error) {
          throw new Error(`the request failed: ${answer.message}\n${out.lines.join("\n")}`);
        }
        assertEquals(answer.status, 200);
        const body = await answer.json();
        assertEquals(body.errors, undefined);
        assertEquals(body.data.users.edges[0].node.posts.edges.length, 1);
        const status = await child.status;
        assertEquals(status.code, 0);
        await out.done;
        const request = out.lines.map((l) => JSON.parse(l.startsWith("{") ? l : "{}"))
          .find((e) => e.operation === "Nested");
        assertEquals(request?.status, 200);
        assertEquals(request?.statements, 2);
        assert(out.lines.some((l) => l.includes('"stopped"') && l.includes('"abandoned":0')));
      } finally {
        await lock?.release();
        try {
          child.kill("SIGKILL");
        } catch {
          // exited
        }
        await child.status;
        await admin.close();
        await db.drop();
      }
    },
  });

  Deno.test({
    name: "shutdown: a request still running after the grace period is abandoned and reported",
    sanitizeOps: false,
    sanitizeResources: false,
    fn: async () => {
      const db = await openTestOrm("postgresql", entities);
      await seed(db.orm.em.fork());
      // The server's own ORM: serve closes it on shutdown.
      const orm: MikroORM = await openOrm({ entities, url: db.db.url });
      const stop = new AbortController();
      const server = await serve({
        orm,
        schema: createSchema(),
        port: 0,
        log: false,
        signal: stop.signal,
        shutdown: { signals: [], graceMs: 100 },
      });
      const lock = await lockTable(db.db.url, "post");
      try {
        const response = fetch(server.url, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ query: NESTED }),
        }).then((r) => r.text()).catch((error) => String(error));
        await waitForLockWait(db.orm.em.fork(), "post");
        stop.abort();
        const result = await server.finished;
        assertEquals(result, { cause: "signal", abandoned: 1 });
        await lock.release();
        await response;
      } finally {
        await lock.release().catch(() => {});
        await db.close();
      }
    },
  });
}
