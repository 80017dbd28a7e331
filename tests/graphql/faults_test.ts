/**
 * Database faults against a real Yoga server (blog example, `Limits`, `Transactioner`,
 * `Deadline`) on the shared PostgreSQL, touching only the test's own database: backends
 * terminated mid-mutation 100 times and mid-read (`DATABASE_UNAVAILABLE`, no leaked connection,
 * normal queries after), statements blocked past the time budget (`QUERY_TIMEOUT`, rolled back,
 * the blocked statement cancelled, also on a `ctx.em` that requests share), a client that disconnects (its statement cancelled), an
 * exhausted pool (a bounded wait) and a database behind a cut TCP proxy (`DATABASE_UNAVAILABLE`,
 * recovery without restart when it comes back). Time probes assert the error, not a duration.
 * And `request.signal`, the Deadline plugin's disconnect signal, stays quiet after a successful
 * response (Deno's corrected abort behaviour, which `deno.json` opts into; under the legacy one it
 * aborts and Deno prints a warning at the first response of the example servers).
 */
import { LockMode, type MikroORM } from "@mikro-orm/core";
import { assert, assertEquals } from "@std/assert";
import { delay } from "@std/async/delay";
import { globalIdOf } from "../../mod.ts";
import { createSchema, graph } from "../../examples/blog/generated/mod.ts";
import { entities } from "../../examples/blog/entities.ts";
import { Post } from "../../examples/blog/entities/post.ts";
import { seed } from "../../examples/blog/seed.ts";
import { openOrm } from "../../server/open_orm.ts";
import { createTestDatabase, dialects, type TestDatabase } from "../support/databases.ts";
import { type Response, startServer, type TestServer } from "../support/server.ts";
import { startTcpProxy } from "../support/tcp_proxy.ts";

Deno.test("request.signal aborts only on a disconnect, not after a successful response", async () => {
  const signals: AbortSignal[] = [];
  const completed: Promise<void>[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, (r, info) => {
    signals.push(r.signal);
    completed.push(info.completed);
    return new Response("ok");
  });
  try {
    const response = await fetch(`http://127.0.0.1:${server.addr.port}/`);
    assertEquals(await response.text(), "ok");
    await completed[0];
    assertEquals(signals[0].aborted, false);
  } finally {
    await server.shutdown();
  }
});

const HEALTH = `{ posts(first: 1) { totalCount } }`;
const UPDATE =
  `mutation ($id: ID!, $t: String!) { updatePost(id: $id, input: { title: $t }) { id title } }`;
const POST_ID = globalIdOf(graph, graph.types.Post, 1);

/** Backends of this test's database waiting on a lock (never another database's). */
async function lockWaiters(admin: MikroORM): Promise<number[]> {
  const rows = await admin.em.fork().getConnection().execute<{ pid: number }[]>(
    `select pid from pg_stat_activity
     where datname = current_database() and wait_event_type = 'Lock' and pid <> pg_backend_pid()`,
  );
  return (rows as { pid: number }[]).map((r) => r.pid);
}

/** Waits until a backend of this database waits on a lock; returns its pid. */
async function waiter(admin: MikroORM): Promise<number> {
  for (let i = 0; i < 400; i++) {
    const [pid] = await lockWaiters(admin);
    if (pid) return pid;
    await delay(5);
  }
  throw new Error("no statement of the test's database started waiting on the lock");
}

/** Terminates one backend of this database. */
async function terminate(admin: MikroORM, pid: number): Promise<void> {
  await admin.em.fork().getConnection().execute(
    `select pg_terminate_backend(pid) from pg_stat_activity
     where pid = ? and datname = current_database()`,
    [pid],
  );
}

/** Holds `lock` (row or table) in a transaction of `admin` while `fn` runs. */
async function holding<T>(
  admin: MikroORM,
  lock: "row" | "table",
  fn: () => Promise<T>,
): Promise<T> {
  const em = admin.em.fork();
  await em.begin();
  try {
    if (lock === "row") await em.findOne(Post, 1, { lockMode: LockMode.PESSIMISTIC_WRITE });
    else {await em.getConnection().execute(
        `lock table post in access exclusive mode`,
        [],
        "run",
        em.getTransactionContext(),
      );}
    return await fn();
  } finally {
    await em.rollback();
  }
}

function code(response: Response): string {
  return response.errors?.[0]?.extensions?.code ?? "ok";
}

function assertCleanMessage(response: Response): void {
  for (const error of response.errors ?? []) {
    assert(
      !/terminat|ECONN|administrator|canceling|statement timeout|select |update |pool/i.test(
        error.message,
      ),
      error.message,
    );
  }
}

interface Setup {
  db: TestDatabase;
  /** The server's ORM, connected through the proxy. */
  orm: MikroORM;
  /** A second ORM on the same database for locks, pg_stat_activity and counts. */
  admin: MikroORM;
  server: TestServer;
  proxy: ReturnType<typeof startTcpProxy>;
  close(): Promise<void>;
}

async function setup(timeoutMs: number, poolMax = 10): Promise<Setup> {
  const db = await createTestDatabase("postgresql");
  const admin = await openOrm({ entities, url: db.url });
  await admin.schema.create();
  await seed(admin.em.fork());
  const proxy = startTcpProxy({ hostname: "127.0.0.1", port: 5432 });
  const url = db.url.replace(":5432/", `:${proxy.port}/`);
  const orm = await openOrm({
    entities,
    url,
    extra: { pool: { max: poolMax }, driverOptions: { connectionTimeoutMillis: 1000 } },
  });
  const server = startServer(orm, createSchema(), [], { preset: { deadline: { timeoutMs } } });
  return {
    db,
    orm,
    admin,
    server,
    proxy,
    close: async () => {
      await server.close();
      await orm.close(true);
      proxy.close();
      await admin.close(true);
      await db.drop();
    },
  };
}

async function healthy(server: TestServer): Promise<void> {
  const response = await server.query<{ posts: { totalCount: number } }>(HEALTH);
  assertEquals(response.errors, undefined);
  assert(response.data!.posts.totalCount > 0);
}

if (dialects(["postgresql"]).length > 0) {
  Deno.test("faults on PostgreSQL: terminated backends, timeouts, a dead pool", async (t) => {
    const s = await setup(5_000, 4);
    try {
      await t.step("backends terminated mid-mutation 100 times: no leak", async () => {
        for (let i = 0; i < 100; i++) {
          const response = await holding(s.admin, "row", async () => {
            const pending = s.server.query(UPDATE, { id: POST_ID, t: `killed ${i}` });
            await terminate(s.admin, await waiter(s.admin));
            return await pending;
          });
          assertEquals(code(response), "DATABASE_UNAVAILABLE", JSON.stringify(response));
          assertCleanMessage(response);
        }
        await healthy(s.server);
        const after = await s.server.query<{ updatePost: { title: string } }>(UPDATE, {
          id: POST_ID,
          t: "after",
        });
        assertEquals(after.data?.updatePost.title, "after", JSON.stringify(after));
        const titles = await s.admin.em.fork().count(Post, { title: { $like: "killed%" } });
        assertEquals(titles, 0, "no terminated mutation wrote");
      });

      await t.step(
        "backends terminated mid-read (a read runs up to 4 times, then fails)",
        async () => {
          for (let i = 0; i < 10; i++) {
            const terminated = new Set<number>();
            const response = await holding(s.admin, "table", async () => {
              let settled = false;
              const pending = s.server.query(HEALTH).finally(() => settled = true);
              while (!settled) {
                const [pid] = (await lockWaiters(s.admin)).filter((p) => !terminated.has(p));
                if (pid) {
                  await terminate(s.admin, pid);
                  terminated.add(pid);
                } else {
                  await delay(5);
                }
              }
              return await pending;
            });
            assertEquals(code(response), "DATABASE_UNAVAILABLE", JSON.stringify(response));
            assertCleanMessage(response);
            assert(terminated.size <= 4, `${terminated.size} backends terminated`);
          }
          await healthy(s.server);
        },
      );

      await t.step(
        "an exhausted pool answers DATABASE_UNAVAILABLE after a bounded wait",
        async () => {
          await holding(s.admin, "row", async () => {
            const blocked = Array.from(
              { length: 4 },
              (_, i) => s.server.query(UPDATE, { id: POST_ID, t: `queued ${i}` }),
            );
            while ((await lockWaiters(s.admin)).length < 1) await delay(5);
            await delay(50);
            const starved = await s.server.query(HEALTH);
            assertEquals(code(starved), "DATABASE_UNAVAILABLE", JSON.stringify(starved));
            assertCleanMessage(starved);
            return blocked;
          }).then((blocked) => Promise.all(blocked));
          await healthy(s.server);
        },
      );

      await t.step("a cut proxy: DATABASE_UNAVAILABLE, then recovery without restart", async () => {
        s.proxy.cut();
        for (const query of [HEALTH, UPDATE]) {
          const response = await s.server.query(query, { id: POST_ID, t: "while down" });
          assertEquals(code(response), "DATABASE_UNAVAILABLE", JSON.stringify(response));
          assertCleanMessage(response);
        }
        s.proxy.restore();
        let recovered = false;
        for (let i = 0; i < 50 && !recovered; i++) {
          recovered = code(await s.server.query(HEALTH)) === "ok";
          if (!recovered) await delay(20);
        }
        assert(recovered, "the server recovered by itself");
        await healthy(s.server);
        assertEquals(await s.admin.em.fork().count(Post, { title: "while down" }), 0);
      });
    } finally {
      await s.close();
    }
  });

  Deno.test("deadlines on PostgreSQL: QUERY_TIMEOUT, rollback, cancelled statements", async (t) => {
    const s = await setup(300);
    try {
      await t.step("a mutation blocked past the budget is rolled back", async () => {
        const response = await holding(s.admin, "row", async () => {
          return await s.server.query(UPDATE, { id: POST_ID, t: "too late" });
        });
        assertEquals(code(response), "QUERY_TIMEOUT", JSON.stringify(response));
        assertCleanMessage(response);
        assertEquals(await s.admin.em.fork().count(Post, { title: "too late" }), 0);
        await healthy(s.server);
      });

      await t.step("a read blocked past the budget is cancelled in the database", async () => {
        await holding(s.admin, "table", async () => {
          const response = await s.server.query(HEALTH);
          assertEquals(code(response), "QUERY_TIMEOUT", JSON.stringify(response));
          for (let i = 0; i < 200 && (await lockWaiters(s.admin)).length > 0; i++) await delay(10);
          assertEquals(await lockWaiters(s.admin), [], "the blocked statement was cancelled");
        });
        await healthy(s.server);
      });

      await t.step("a ctx.em shared by requests: each request its own budget", async () => {
        // The Deadline binds a request's own EntityManager in place; one that another request
        // already bound is forked instead, and the signal comes off when execution ends. The
        // blocked request's budget is spent by its client's disconnect, not by the clock: the
        // other requests' budgets (60 s) do not run out on a loaded machine.
        const shared = s.orm.em.fork();
        const server = startServer(s.orm, createSchema(), [], {
          preset: { deadline: { timeoutMs: 60_000 } },
          context: () => ({ em: shared }),
        });
        try {
          await holding(s.admin, "table", async () => {
            const client = new AbortController();
            const blocked = fetch(server.url, {
              method: "POST",
              headers: { "content-type": "application/json" },
              body: JSON.stringify({ query: HEALTH }),
              signal: client.signal,
            }).catch((e) => e);
            await waiter(s.admin);
            // while the blocked request holds its signal on `shared`: another one answers
            const other = await server.query<{ users: { totalCount: number } }>(
              `{ users(first: 1) { totalCount } }`,
            );
            assertEquals(other.errors, undefined, JSON.stringify(other));
            client.abort();
            await blocked;
            for (let i = 0; i < 1000 && (await lockWaiters(s.admin)).length > 0; i++) {
              await delay(10);
            }
            assertEquals(await lockWaiters(s.admin), [], "the blocked statement was cancelled");
          });
          // the spent signal is not left on `shared`: the next requests on it answer
          for (let i = 0; i < 3; i++) await healthy(server);
          assertEquals(await shared.count(Post, {}), await s.admin.em.fork().count(Post, {}));
        } finally {
          await server.close();
        }
      });

      await t.step("a client that disconnects cancels its statement", async () => {
        const slow = await setup(60_000);
        try {
          await holding(slow.admin, "table", async () => {
            const controller = new AbortController();
            const pending = fetch(slow.server.url, {
              method: "POST",
              headers: { "content-type": "application/json" },
              body: JSON.stringify({ query: HEALTH }),
              signal: controller.signal,
            }).catch((e) => e);
            await waiter(slow.admin);
            controller.abort();
            await pending;
            for (let i = 0; i < 200 && (await lockWaiters(slow.admin)).length > 0; i++) {
              await delay(10);
            }
            assertEquals(await lockWaiters(slow.admin), [], "the statement was cancelled");
          });
          await healthy(slow.server);
        } finally {
          await slow.close();
        }
      });
    } finally {
      await s.close();
    }
  });
}

if (dialects(["mariadb"]).length > 0) {
  Deno.test("deadlines on MariaDB: a mutation blocked past the budget is QUERY_TIMEOUT, rolled back", async () => {
    const db = await createTestDatabase("mariadb");
    const admin = await openOrm({ entities, url: db.url });
    await admin.schema.create();
    await seed(admin.em.fork());
    const orm = await openOrm({ entities, url: db.url });
    const server = startServer(orm, createSchema(), [], {
      preset: { deadline: { timeoutMs: 300 } },
    });
    try {
      for (let i = 0; i < 3; i++) {
        const response = await holding(
          admin,
          "row",
          () => server.query(UPDATE, { id: POST_ID, t: "too late" }),
        );
        assertEquals(code(response), "QUERY_TIMEOUT", JSON.stringify(response));
        assertCleanMessage(response);
      }
      assertEquals(await admin.em.fork().count(Post, { title: "too late" }), 0);
      await healthy(server);
      const after = await server.query<{ updatePost: { title: string } }>(UPDATE, {
        id: POST_ID,
        t: "after",
      });
      assertEquals(after.data?.updatePost.title, "after", JSON.stringify(after));
    } finally {
      await server.close();
      await orm.close(true);
      await admin.close(true);
      await db.drop();
    }
  });
}
