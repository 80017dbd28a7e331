/**
 * A field rule in a mutation's payload refuses the value, not the write (issue 34): on the
 * workspace example, bob (an EDITOR of Acme, who may read only his own `User.email`) writes a
 * comment and an assignment whose payloads select other users' emails. The write is committed, the
 * answer keeps its data, each hidden email is `null` with a `FORBIDDEN` error naming
 * `User.email` at its path; an error of the write itself (an invisible task) still rolls the whole
 * operation back. sqlite, postgresql, mariadb.
 */
import { assert, assertEquals } from "@std/assert";
import { Comment } from "../../examples/workspace/entities/comment.ts";
import { Task } from "../../examples/workspace/entities/task.ts";
import { entities } from "../../examples/workspace/entities.ts";
import { workspaceSchema } from "../../examples/workspace/schema.ts";
import { seed } from "../../examples/workspace/seed.ts";
import { encodeGlobalId } from "../../runtime/plan/global_id.ts";
import { dialects, openTestOrm } from "../support/databases.ts";
import { startServer } from "../support/server.ts";

const gid = encodeGlobalId;

type Edges<T> = { edges: { node: T }[] };
type Author = { username: string; email: string | null };

for (const dialect of dialects()) {
  Deno.test({
    name: `payload field rules: FORBIDDEN fields answer null, the write commits (${dialect})`,
    sanitizeOps: false,
    sanitizeResources: false,
    fn: async (t) => {
      const db = await openTestOrm(dialect, entities);
      const server = startServer(db.orm, workspaceSchema(), [], {
        context: () => ({ em: db.orm.em.fork(), viewer: "bob" }),
      } as never);
      const fresh = () => db.orm.em.fork();
      try {
        await seed(fresh());

        await t.step("a comment whose payload reads other authors' emails is stored", async () => {
          const answer = await server.query<{
            createComment: { body: string; task: { comments: Edges<{ author: Author }> } };
          }>(
            `mutation($input: CreateCommentInput!) { createComment(input: $input) {
              body task { comments { edges { node { author { username email } } } } } } }`,
            {
              input: { body: "Ship it", taskID: gid("Task", 1), authorID: gid("User", 2) },
            },
          );
          assertEquals(answer.data?.createComment.body, "Ship it");
          const authors = answer.data!.createComment.task.comments.edges.map((e) => e.node.author);
          assertEquals(
            authors.map((a) => [a.username, a.email]).sort(),
            [["bob", "bob@example.com"], ["bob", "bob@example.com"], ["cat", null]],
          );
          assertEquals(answer.errors?.length, 1);
          const [error] = answer.errors!;
          assertEquals(error.extensions?.code, "FORBIDDEN");
          assertEquals(error.message, "User.email is not readable by this request");
          assertEquals(error.path?.at(-1), "email");
          assertEquals(await fresh().count(Comment, { body: "Ship it" }), 1);
        });

        await t.step(
          "an update whose payload reads the new assignee's email is stored",
          async () => {
            const answer = await server.query<{
              updateTask: { title: string; assignee: Author };
            }>(
              `mutation($id: ID!, $input: UpdateTaskInput!) {
              updateTask(id: $id, input: $input) { title assignee { username email } } }`,
              { id: gid("Task", 1), input: { assigneeID: gid("User", 3) } },
            );
            assertEquals(answer.data, {
              updateTask: { title: "Design homepage", assignee: { username: "cat", email: null } },
            });
            assertEquals(answer.errors?.map((e) => [e.extensions?.code, e.path]), [
              ["FORBIDDEN", ["updateTask", "assignee", "email"]],
            ]);
            const task = await fresh().findOneOrFail(Task, 1, { populate: ["assignee"] });
            assertEquals(task.assignee?.username, "cat");
          },
        );

        await t.step("an error of the write itself still rolls everything back", async () => {
          const answer = await server.query(
            `mutation($a: CreateCommentInput!, $b: CreateCommentInput!) {
              a: createComment(input: $a) { body author { email } }
              b: createComment(input: $b) { body } }`,
            {
              a: { body: "First", taskID: gid("Task", 1), authorID: gid("User", 2) },
              // Task 5 is Globex's: bob may not read it.
              b: { body: "Second", taskID: gid("Task", 5), authorID: gid("User", 2) },
            },
          );
          assertEquals(answer.data, null);
          assert(answer.errors?.some((e) => e.extensions?.code === "NOT_FOUND"));
          assertEquals(await fresh().count(Comment, { body: { $in: ["First", "Second"] } }), 0);
        });
      } finally {
        await server.close();
        await db.close();
      }
    },
  });
}
