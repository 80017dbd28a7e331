/**
 * `armTimerOnlyToWait`: the checkout timeout a `pg-pool` `connect()` sees is 0 (no timer) only
 * when more connections are idle than checkouts wait, and the configured one otherwise (a
 * checkout that may wait stays bounded); the option is restored after each call. Against a real
 * PostgreSQL pool through `openOrm` (which installs it): a pool of 2 serves 40 concurrent reads,
 * and with both connections held a read fails after the checkout timeout, then reads work again.
 */
import { assert, assertEquals, assertRejects } from "@std/assert";
import { armTimerOnlyToWait, type CheckoutPool } from "../../server/pool_checkout.ts";
import { openOrm } from "../../server/open_orm.ts";
import { entities } from "../../examples/blog/entities.ts";
import { createTestDatabase, dialects } from "../support/databases.ts";

Deno.test("armTimerOnlyToWait: no timer only when an idle connection will serve the checkout", () => {
  const seen: (number | undefined)[] = [];
  const pool = {
    idleCount: 0,
    waitingCount: 0,
    options: { connectionTimeoutMillis: 5_000 },
    connect(this: CheckoutPool, ..._args: unknown[]) {
      seen.push(this.options.connectionTimeoutMillis);
      return Promise.resolve();
    },
  };
  armTimerOnlyToWait(pool);
  const cases: [idle: number, waiting: number, timeout: number][] = [
    [0, 0, 5_000], // a new connection, or a wait
    [1, 0, 0], // served on the next tick
    [2, 1, 0],
    [1, 1, 5_000], // the idle one goes to the checkout already waiting
    [3, 5, 5_000],
  ];
  for (const [idle, waiting, timeout] of cases) {
    pool.idleCount = idle;
    pool.waitingCount = waiting;
    void pool.connect();
    assertEquals(seen.at(-1), timeout, `idle ${idle}, waiting ${waiting}`);
    assertEquals(pool.options.connectionTimeoutMillis, 5_000, "restored");
  }
  pool.idleCount = 4;
  void pool.connect(() => {}); // a callback checkout is passed on as it is
  assertEquals(seen.at(-1), 5_000);
});

if (dialects(["postgresql"]).length > 0) {
  Deno.test("openOrm's pool: concurrent reads served, a held pool bounded by its timeout", async () => {
    const db = await createTestDatabase("postgresql");
    const orm = await openOrm({
      entities,
      url: db.url,
      // 1.5 s: a new connection's connect and authentication fit in it on a loaded machine
      connectionWaitMs: 1_500,
      extra: { pool: { min: 0, max: 2 } },
    });
    try {
      const read = () => orm.em.fork().getConnection().execute("select 1 as one");
      const rows = await Promise.all(Array.from({ length: 40 }, read));
      assertEquals(rows.length, 40);
      const held = [orm.em.fork(), orm.em.fork()];
      for (const em of held) await em.begin();
      const started = performance.now();
      await assertRejects(read, Error, "timeout");
      const waited = performance.now() - started;
      assert(waited >= 1_250, `waited ${waited.toFixed(0)} ms for a connection`);
      for (const em of held) await em.rollback();
      assertEquals((await Promise.all(Array.from({ length: 10 }, read))).length, 10);
    } finally {
      await orm.close(true);
      await db.drop();
    }
  });
}
