/**
 * Bad values in mutation inputs over HTTP on SQLite, PostgreSQL and MariaDB (the blog example
 * with the `Limits` plugin and the Transactioner): NUL characters, strings longer than their
 * column, too many bytes for a MariaDB `text`, invalid dates, years out of range and unknown enum
 * values are `BAD_USER_INPUT` naming the input path, with no driver text and at most 100
 * characters of the input in the message; no row is written, and a health query answers after.
 */
import { assert, assertEquals, assertMatch } from "@std/assert";
import { globalIdOf } from "../../mod.ts";
import { createSchema, graph } from "../../examples/blog/generated/mod.ts";
import { entities } from "../../examples/blog/entities.ts";
import { Post } from "../../examples/blog/entities/post.ts";
import { seed } from "../../examples/blog/seed.ts";
import { dialects, openTestOrm } from "../support/databases.ts";
import { startServer } from "../support/server.ts";

const CREATE = `mutation ($input: CreatePostInput!) { createPost(input: $input) { id title } }`;
const UPDATE =
  `mutation ($id: ID!, $input: UpdatePostInput!) { updatePost(id: $id, input: $input) { id } }`;

/** Driver and SQL words that must never reach a client. */
const LEAKS =
  /insert|update "|select |violat|syntax|ECONN|terminat|invalid byte|too long for|Incorrect|SQLSTATE|errno/i;

for (const dialect of dialects()) {
  Deno.test(`bad mutation values are BAD_USER_INPUT (${dialect})`, async (t) => {
    const test = await openTestOrm(dialect, entities);
    await seed(test.orm.em.fork());
    const server = startServer(test.orm, createSchema());
    /** Without the `Limits` plugin: only the column checks of the mutation stand in the way. */
    const unlimited = startServer(test.orm, createSchema(), [], {
      preset: { limits: false },
    });
    const authorID = globalIdOf(graph, graph.types.User, 1);
    const postID = globalIdOf(graph, graph.types.Post, 1);
    const count = () => test.orm.em.fork().count(Post);
    const before = await count();
    const original = await test.orm.em.fork().findOneOrFail(Post, 1);
    const good = { title: "ok", body: "b", authorID };

    /** Sends a create and an update with `input`; both must be refused naming `path`. */
    async function refused(
      input: Record<string, unknown>,
      path: RegExp,
      via = server,
    ): Promise<void> {
      for (
        const response of [
          await via.query(CREATE, { input: { ...good, ...input } }),
          await via.query(UPDATE, { id: postID, input }),
        ]
      ) {
        const error = response.errors?.[0];
        assertEquals(error?.extensions?.code, "BAD_USER_INPUT", JSON.stringify(response));
        assertMatch(error!.message, path);
        assert(!LEAKS.test(error!.message), error!.message);
        assert(!/x{101}|é{101}/.test(error!.message), error!.message);
        assert(response.data == null || response.data.createPost == null);
      }
      assertEquals(await count(), before);
      const post = await test.orm.em.fork().findOneOrFail(Post, 1);
      assertEquals([post.title, post.body], [original.title, original.body]);
      const health = await server.query(`{ posts(first: 1) { totalCount } }`);
      assertEquals(health.errors, undefined);
    }

    try {
      await t.step("NUL characters", async () => {
        await refused({ title: "a\0b" }, /input\)?\.title: contains a NUL character/);
        // The same rule and message when the column check finds it.
        await refused(
          { title: "a\0b" },
          /^input\.title: contains a NUL character \(U\+0000\), which the databases cannot store$/,
          unlimited,
        );
      });
      await t.step("strings longer than the column", async () => {
        await refused(
          { title: "x".repeat(300) },
          /input\.title: a string of 300 characters; the column holds at most 255/,
        );
        await refused({ title: "x".repeat(100_000) }, /maxStringLength = 65536/);
        if (dialect === "mariadb") {
          await refused(
            { body: "é".repeat(40_000) },
            /input\.body: longer than the column's 65535 bytes/,
          );
        } else {
          const long = await server.query(UPDATE, {
            id: postID,
            input: { body: "é".repeat(40_000) },
          });
          assertEquals(long.errors, undefined, "text columns hold long strings elsewhere");
          await server.query(UPDATE, { id: postID, input: { body: original.body } });
        }
      });
      await t.step("invalid dates and years out of range", async () => {
        await refused({ publishedAt: "2026-02-30T00:00:00Z" }, /publishedAt.*RFC 3339/);
        await refused({ publishedAt: "2026-01-01T24:00:00Z" }, /publishedAt.*RFC 3339/);
        await refused(
          { publishedAt: "0000-01-01T00:00:00Z" },
          /input\.publishedAt: the date must be between the years (1|1000) and 9999/,
        );
      });
      await t.step("enum values and integers out of range", async () => {
        await refused({ status: "bogus" }, /status/);
        await refused({ views: 2 ** 31 }, /views/);
      });
      await t.step("a valid create still works", async () => {
        const response = await server.query<{ createPost: { title: string } }>(CREATE, {
          input: { ...good, title: "é".repeat(255), publishedAt: "2024-02-29T23:59:59Z" },
        });
        assertEquals(response.errors, undefined);
        assertEquals(response.data!.createPost.title.length, 255);
        assertEquals(await count(), before + 1);
      });
    } finally {
      await Promise.all([server.close(), unlimited.close()]);
      await test.close();
    }
  });
}
