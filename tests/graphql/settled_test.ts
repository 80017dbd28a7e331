/**
 * A request answers only after every statement it started has finished (`runtime/jsutils/all_settled.ts`):
 * when one edge of a level fails (here `posts(after: "bad")`: INVALID_CURSOR, raised when the
 * level is loaded), the sibling edge's statement (`photos`) is still waited for, so no statement
 * of a request runs on, holding its connection, after the request was answered. On PostgreSQL,
 * where a table lock held by another connection keeps the sibling statement waiting for as long
 * as the test wants.
 */
import { assert, assertEquals } from "@std/assert";
import { entities } from "../../examples/blog/entities.ts";
import { createSchema } from "../../examples/blog/generated/mod.ts";
import { seed } from "../../examples/blog/seed.ts";
import { openOrm } from "../../server/open_orm.ts";
import { dialects, openTestOrm } from "../support/databases.ts";
import { startServer } from "../support/server.ts";

if (dialects(["postgresql"]).length > 0) {
  Deno.test({
    name: "a failed edge answers only after its sibling statements finished (postgresql)",
    sanitizeOps: false,
    sanitizeResources: false,
    fn: async () => {
      const db = await openTestOrm("postgresql", entities);
      const server = startServer(db.orm, createSchema());
      // A second connection of its own, holding the lock on photo.
      const locker = await openOrm({ entities, url: db.db.url });
      const lock = locker.em.fork();
      let locked = false;
      try {
        await seed(db.orm.em.fork());
        await lock.begin();
        locked = true;
        await lock.getConnection().execute(
          "lock table photo in access exclusive mode",
          [],
          "run",
          lock.getTransactionContext(),
        );
        let answered = false;
        const response = server.query(
          `{ users(first: 2) { edges { node { posts(first: 1, after: "bad") { edges { node { id } } }
             photos(first: 1) { edges { node { id } } } } } } }`,
        ).finally(() => answered = true);
        // Wait until the photos statement waits on the lock.
        const admin = db.orm.em.getConnection();
        for (let waiting = 0; waiting === 0;) {
          const rows = await admin.execute(
            `select count(*)::int as n from pg_stat_activity
              where datname = current_database() and wait_event_type = 'Lock'
                and query like '%"photo"%'`,
          );
          waiting = rows[0].n;
        }
        // The posts edge has failed by now; the answer must still wait for the photos statement.
        const early = await Promise.race([
          response.then(() => "answered"),
          new Promise((resolve) => setTimeout(() => resolve("waiting"), 1_000)),
        ]);
        assertEquals(early, "waiting", "the request answered while its photos statement ran");
        assert(!answered);
        await lock.rollback();
        locked = false;
        const result = await response;
        assertEquals(result.errors?.[0]?.extensions?.code, "INVALID_CURSOR");
      } finally {
        if (locked) await lock.rollback();
        await locker.close();
        await server.close();
        await db.close();
      }
    },
  });
}
