/**
 * Commit-time change capture (`runtime/events/change_capture.ts`) on a real database per
 * dialect: an application's `em.flush` outside a transaction publishes at once; a transaction's
 * flushes publish once, at commit, one record per row (created then updated: `CREATED`; created
 * then deleted: nothing); a rolled-back transaction and a rolled-back savepoint publish nothing
 * of theirs.
 */
import { assertEquals } from "@std/assert";
import type { EntityManager } from "@mikro-orm/core";
import { Project } from "../../examples/workspace/entities/project.ts";
import { Task } from "../../examples/workspace/entities/task.ts";
import { entities } from "../../examples/workspace/entities.ts";
import { seed } from "../../examples/workspace/seed.ts";
import { captureChanges } from "../../runtime/events/change_capture.ts";
import type { ChangeRecord } from "../../runtime/events/change_record.ts";
import { dialects, openTestOrm } from "../support/databases.ts";

for (const dialect of dialects()) {
  Deno.test(`change capture: committed changes only, one record per row (${dialect})`, async () => {
    const { orm, close } = await openTestOrm(dialect, entities);
    try {
      await seed(orm.em.fork());
      const commits: ChangeRecord[][] = [];
      captureChanges(orm, (changes) => commits.push([...changes.values()].flat()));
      const task = (em: EntityManager, id: number) => em.findOneOrFail(Task, id);

      // An application's flush outside any transaction: its own implicit commit.
      const em = orm.em.fork();
      (await task(em, 4)).title = "Press release v2";
      await em.flush();
      assertEquals(commits, [[{ entity: "Task", op: "UPDATED", key: [4] }]]);

      // One transaction, several flushes: one commit, one record per row.
      commits.length = 0;
      let created = 0;
      await orm.em.fork().transactional(async (tx) => {
        const project = await tx.findOneOrFail(Project, 1);
        const fresh = tx.create(Task, { project, title: "new", status: "TODO" });
        await tx.flush();
        created = fresh.id;
        fresh.title = "new, edited";
        (await task(tx, 1)).status = "DONE";
        await tx.flush();
        const gone = tx.create(Task, { project, title: "short-lived", status: "TODO" });
        await tx.flush();
        tx.remove(gone);
        await tx.flush();
        assertEquals(commits, [], "nothing before the commit");
      });
      assertEquals(commits, [[
        { entity: "Task", op: "CREATED", key: [created] },
        { entity: "Task", op: "UPDATED", key: [1] },
      ]]);

      // A rolled-back transaction publishes nothing.
      commits.length = 0;
      await orm.em.fork().transactional(async (tx) => {
        (await task(tx, 1)).title = "never";
        await tx.flush();
        throw new Error("roll back");
      }).catch(() => {});
      assertEquals(commits, []);

      // A rolled-back savepoint: its changes are dropped, the transaction's are published.
      await orm.em.fork().transactional(async (tx) => {
        (await task(tx, 4)).title = "kept";
        await tx.flush();
        await tx.transactional(async (inner) => {
          (await task(inner, 5)).title = "dropped";
          await inner.flush();
          throw new Error("roll back the savepoint");
        }).catch(() => {});
        await tx.transactional(async (inner) => {
          (await task(inner, 6)).title = "released";
          await inner.flush();
        });
      });
      assertEquals(commits, [[
        { entity: "Task", op: "UPDATED", key: [4] },
        { entity: "Task", op: "UPDATED", key: [6] },
      ]]);
    } finally {
      await close();
    }
  });
}
