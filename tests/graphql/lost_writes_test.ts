/**
 * No acknowledged lost write, over HTTP on PostgreSQL and MariaDB (the blog example with the
 * Transactioner): 200 rounds of two racing `deletePost` of one post (exactly one succeeds, the
 * other is `NOT_FOUND`), 200 rounds of `updatePost` racing a concurrent conditional delete (an
 * acknowledged update is never of a row that is gone), and 50 clients x 20 `createPost` (exact
 * row count).
 */
import { assert, assertEquals } from "@std/assert";
import { globalIdOf } from "../../mod.ts";
import { createSchema, graph } from "../../examples/blog/generated/mod.ts";
import { entities } from "../../examples/blog/entities.ts";
import { Post } from "../../examples/blog/entities/post.ts";
import { User } from "../../examples/blog/entities/user.ts";
import { dialects, openTestOrm } from "../support/databases.ts";
import { startServer } from "../support/server.ts";

const ROUNDS = 200;
const DELETE = `mutation ($id: ID!) { deletePost(id: $id) }`;
const UPDATE =
  `mutation ($id: ID!) { updatePost(id: $id, input: { title: "updated" }) { id title } }`;

for (const dialect of dialects(["postgresql", "mariadb"])) {
  Deno.test(`racing mutations lose no write (${dialect})`, async (t) => {
    const test = await openTestOrm(dialect, entities);
    const em = test.orm.em.fork();
    const author = em.create(User, {
      name: "author",
      email: "a@example.com",
      createdAt: new Date(),
    });
    for (let i = 0; i < 2 * ROUNDS; i++) {
      em.create(Post, { title: "orig", body: "b", author });
    }
    await em.flush();
    const ids = (await em.find(Post, {}, { orderBy: { id: "asc" } })).map((p) => p.id);
    const server = startServer(test.orm, createSchema());
    const gid = (id: number) => globalIdOf(graph, graph.types.Post, id);
    try {
      await t.step(`${ROUNDS} rounds of two racing deletes: exactly one succeeds`, async () => {
        for (const id of ids.slice(0, ROUNDS)) {
          const results = await Promise.all([
            server.query(DELETE, { id: gid(id) }),
            server.query(DELETE, { id: gid(id) }),
          ]);
          const codes = results.map((r) => r.errors?.[0]?.extensions?.code ?? "ok").sort();
          assertEquals(codes, ["NOT_FOUND", "ok"], `post ${id}: ${JSON.stringify(results)}`);
        }
        assertEquals(await test.orm.em.fork().count(Post), ROUNDS);
      });

      await t.step(`${ROUNDS} rounds of an update racing a delete`, async () => {
        let updated = 0;
        for (const id of ids.slice(ROUNDS)) {
          const [update, deleted] = await Promise.all([
            server.query<{ updatePost: { title: string } }>(UPDATE, { id: gid(id) }),
            // another client deletes the row if nobody changed it yet
            test.orm.em.fork().nativeDelete(Post, { id, title: "orig" }),
          ]);
          const row = await test.orm.em.fork().findOne(Post, id);
          if (update.errors === undefined) {
            updated++;
            assertEquals(update.data!.updatePost.title, "updated");
            assertEquals(row?.title, "updated", `post ${id}: acknowledged update lost`);
            assertEquals(deleted, 0);
          } else {
            assertEquals(update.errors[0].extensions?.code, "NOT_FOUND");
            assertEquals([row, deleted], [null, 1]);
          }
        }
        assertEquals(await test.orm.em.fork().count(Post), updated);
      });

      await t.step("50 clients x 20 createPost: exact row count", async () => {
        const before = await test.orm.em.fork().count(Post);
        const authorID = globalIdOf(graph, graph.types.User, author.id);
        const create = `mutation ($t: String!, $a: ID!) {
          createPost(input: { title: $t, body: "b", authorID: $a }) { id }
        }`;
        const clients = Array.from({ length: 50 }, async (_, c) => {
          for (let i = 0; i < 20; i++) {
            const response = await server.query(create, { t: `c${c}-${i}`, a: authorID });
            assertEquals(response.errors, undefined);
          }
        });
        await Promise.all(clients);
        assertEquals(await test.orm.em.fork().count(Post), before + 1000);
        assert(await test.orm.em.fork().count(Post, { title: "c49-19" }) === 1);
      });
    } finally {
      await server.close();
      await test.close();
    }
  });
}
