/**
 * Clearing a unique edge whose target the viewer's read rules hide clears the stored key (the
 * fixed case of the workspace reference model's `MODEL_SEED=216598748`): on the workspace example,
 * Bob (assigned task 1) leaves Acme, so Ann, Acme's OWNER, no longer sees him and reads the
 * task's assignee as `null`; her `clearAssignee` answered success and left Bob assigned, because
 * the task loaded for the update held `null` already. SQLite, PostgreSQL (with its row-level
 * security) and MariaDB.
 */
import { assertEquals } from "@std/assert";
import { Membership } from "../../examples/workspace/entities/membership.ts";
import { Task } from "../../examples/workspace/entities/task.ts";
import { workspaceSchema } from "../../examples/workspace/schema.ts";
import { encodeGlobalId } from "../../runtime/plan/global_id.ts";
import { dialects } from "../support/databases.ts";
import { startServer } from "../support/server.ts";
import { openWorkspaceDatabase } from "../support/workspace_database.ts";

const UPDATE = `mutation($id: ID!, $input: UpdateTaskInput!) {
  updateTask(id: $id, input: $input) { id status assignee { id } }
}`;

for (const dialect of dialects()) {
  Deno.test({
    name: `clearing an edge to a row the viewer cannot see clears the stored key (${dialect})`,
    sanitizeOps: false,
    sanitizeResources: false,
    fn: async () => {
      const { db, contextOf } = await openWorkspaceDatabase(dialect);
      const server = startServer(db.orm, workspaceSchema(), [], {
        context: () => contextOf("ann"),
      } as never);
      const stored = async () => {
        const task = await db.orm.em.fork().findOneOrFail(Task, 1, { filters: false });
        return { status: task.status, assignee: task.assignee?.id ?? null };
      };
      try {
        // Bob (user 2, task 1's assignee) leaves Acme: Ann shares no organization with him.
        await db.orm.em.fork().nativeDelete(Membership, { user: 2 }, { filters: false });
        assertEquals(await stored(), { status: "DOING", assignee: 2 });
        const post = async (input: Record<string, unknown>) =>
          await (await fetch(server.url, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({
              query: UPDATE,
              variables: { id: encodeGlobalId("Task", 1), input },
            }),
          })).json();
        // An update that leaves the edge alone keeps the stored key (Ann reads no assignee).
        const kept = await post({ status: "TODO" });
        assertEquals(kept, {
          data: { updateTask: { id: encodeGlobalId("Task", 1), status: "TODO", assignee: null } },
        });
        assertEquals(await stored(), { status: "TODO", assignee: 2 });
        // Clearing it clears the stored key.
        const cleared = await post({ status: "DONE", clearAssignee: true });
        assertEquals(cleared, {
          data: { updateTask: { id: encodeGlobalId("Task", 1), status: "DONE", assignee: null } },
        });
        assertEquals(await stored(), { status: "DONE", assignee: null });
      } finally {
        await server.close();
        await db.close();
      }
    },
  });
}
