/**
 * `/ready` on PostgreSQL tells a saturated pool from an unreachable database: with every
 * connection of `openOrm`'s pool held by a transaction, its `select 1` waits past the readiness
 * timeout, and `/ready` answers 200 ready (the reason goes to `onSaturated`); with a connection
 * free again it answers 200 at once; `poolSaturation` names the counts. An unreachable database
 * stays 503 (tests/server/serve_test.ts, through a TCP proxy that is cut).
 */
import { assertEquals, assertMatch } from "@std/assert";
import { entities } from "../../examples/blog/entities.ts";
import { openOrm } from "../../server/open_orm.ts";
import { poolSaturation } from "../../server/pool_saturation.ts";
import { readinessRoute } from "../../server/readiness.ts";
import { createTestDatabase, dialects } from "../support/databases.ts";

if (dialects(["postgresql"]).length > 0) {
  Deno.test("/ready: a saturated pool is ready, its reason logged", async () => {
    const db = await createTestDatabase("postgresql");
    const orm = await openOrm({ entities, url: db.url, extra: { pool: { min: 0, max: 2 } } });
    const saturated: string[] = [];
    const unavailable: string[] = [];
    // 1 s: the free pool's `select 1` must answer within it even on a loaded machine
    const ready = readinessRoute(orm, {
      timeoutMs: 1_000,
      draining: () => false,
      onSaturated: (reason) => saturated.push(reason),
      onUnavailable: (reason) => unavailable.push(reason),
    });
    const probe = async () => {
      const response = await ready(new Request("http://localhost/ready"))!;
      return { status: response.status, body: await response.json() };
    };
    try {
      // the pool's first connection is opened here, not by the probe (its connect and
      // authentication are not what /ready measures)
      await orm.em.getConnection().execute("select 1");
      assertEquals(await probe(), { status: 200, body: { status: "ready" } });
      assertEquals(poolSaturation(orm), undefined);
      const held = [orm.em.fork(), orm.em.fork()];
      for (const em of held) await em.begin();
      for (const em of held) {
        await em.getConnection().execute("select 1", [], "all", em.getTransactionContext());
      }
      assertMatch(poolSaturation(orm)!, /^all 2 connections in use/);
      assertEquals(await probe(), { status: 200, body: { status: "ready" } });
      assertEquals(unavailable, []);
      assertEquals(saturated.length, 1);
      assertMatch(saturated[0], /the pool is saturated: all 2 connections in use/);
      for (const em of held) await em.rollback();
      assertEquals(await probe(), { status: 200, body: { status: "ready" } });
      assertEquals(saturated.length, 1);
    } finally {
      await orm.close(true);
      await db.drop();
    }
  });
}
