/**
 * A create or update of a type with a read rule reads the row written once after the write
 * (`runtime/write/read_back.ts`): one `SELECT` of the row by its key and the read rule, which is
 * both the payload (what is stored) and the check that the request may read what it wrote. On
 * the blog with the Transactioner, viewer 1 reads only their own posts, by each way a server sets
 * a read rule (a policy, `em.addFilter` on the request's fork, a config filter whose parameters
 * the request sets): the statements between the write and the commit are counted in the
 * database's statement log (`TestOrm.log`), on SQLite, PostgreSQL and MariaDB. A write whose row
 * the viewer could not read is still `FORBIDDEN`, after the same single read, and leaves nothing.
 */
import { assert, assertEquals, assertMatch } from "@std/assert";
import { Post } from "../../examples/blog/entities/post.ts";
import { User } from "../../examples/blog/entities/user.ts";
import { encodeGlobalId } from "../../runtime/plan/global_id.ts";
import type { TestOrm } from "../support/databases.ts";
import { testOwnPostsRules } from "../support/own_posts.ts";

type Answer = {
  data?: Record<string, unknown> | null;
  errors?: { message: string; extensions?: { code?: string } }[];
};

/**
 * The statements of `log` after the write of a post (its `insert`/`update`) up to the end of the
 * transaction that read the `post` table: the reads after the write.
 */
function readsAfterWrite(log: readonly string[]): string[] {
  const write = log.findIndex((sql) => /^(insert into|update) [`"]post[`"]/.test(sql));
  assert(write >= 0, `no write of a post in ${JSON.stringify(log)}`);
  const end = log.findIndex((sql, i) => i > write && /^(commit|rollback)\b/.test(sql));
  assert(end > write, `no end of the transaction in ${JSON.stringify(log)}`);
  return log.slice(write + 1, end).filter((sql) => /^select .* from [`"]post[`"]/.test(sql));
}

async function oneReadAfterWrite(db: TestOrm, url: string): Promise<void> {
  const em = db.orm.em.fork();
  const [me, other] = await em.find(User, {}, { orderBy: { id: "asc" }, limit: 2 });
  const mine = await em.findOneOrFail(Post, { author: me }, { filters: false });
  const gid = (type: string, pk: number) => encodeGlobalId(type, pk);
  const ask = async (query: string, variables: Record<string, unknown>): Promise<Answer> => {
    db.log.length = 0;
    const response = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", "x-viewer": String(me.id) },
      body: JSON.stringify({ query, variables }),
    });
    return await response.json();
  };
  const stored = async (id: number) => {
    const post = await db.orm.em.fork().findOneOrFail(Post, id, { filters: false });
    return { title: post.title, status: post.status, views: post.views, author: post.author.id };
  };
  const readRule = /author_id[`"]? = /;

  // A create: one read after the insert, carrying the read rule; the payload is the stored row
  // (status and views are the entity's defaults, not in the input).
  const created = await ask(
    `mutation($input: CreatePostInput!) { createPost(input: $input) { id title status views } }`,
    { input: { title: "one read", body: "b", authorID: gid("User", me.id) } },
  );
  assertEquals(created.errors, undefined, JSON.stringify(created));
  const reads = readsAfterWrite(db.log);
  assertEquals(reads.length, 1, `reads after the insert: ${JSON.stringify(reads)}`);
  assertMatch(reads[0], readRule);
  const payload = created.data!.createPost as Record<string, unknown>;
  const createdId = Number(atob(String(payload.id)).split(":")[1]);
  const { author: _, ...row } = await stored(createdId);
  assertEquals({ title: payload.title, status: payload.status, views: payload.views }, {
    ...row,
    status: row.status.toUpperCase(),
  });

  // An update: the same.
  const updated = await ask(
    `mutation($id: ID!) { updatePost(id: $id, input: { title: "renamed" }) { title } }`,
    { id: gid("Post", mine.id) },
  );
  assertEquals(updated.data, { updatePost: { title: "renamed" } }, JSON.stringify(updated));
  const updateReads = readsAfterWrite(db.log);
  assertEquals(updateReads.length, 1, `reads after the update: ${JSON.stringify(updateReads)}`);
  assertMatch(updateReads[0], readRule);

  // Handing one's post to another user: the row written is not readable, FORBIDDEN as before,
  // after the one read; the transaction rolled back, nothing written.
  const before = await stored(mine.id);
  const handed = await ask(
    `mutation($id: ID!, $a: ID!) { updatePost(id: $id, input: { authorID: $a, title: "x" }) { id } }`,
    { id: gid("Post", mine.id), a: gid("User", other.id) },
  );
  assertEquals(handed.data, null);
  assertEquals(handed.errors?.map((e) => [e.extensions?.code, e.message]), [[
    "FORBIDDEN",
    "cannot update Post: the Post written would not be readable by this request",
  ]]);
  assertEquals(readsAfterWrite(db.log).length, 1, JSON.stringify(db.log));
  assert(db.log.includes("rollback"), JSON.stringify(db.log));
  assertEquals(await stored(mine.id), before);
  // A create in another user's name: the same.
  const count = await db.orm.em.fork().count(Post, {}, { filters: false });
  const forged = await ask(
    `mutation($input: CreatePostInput!) { createPost(input: $input) { id } }`,
    { input: { title: "forged", body: "b", authorID: gid("User", other.id) } },
  );
  assertEquals(forged.errors?.map((e) => [e.extensions?.code, e.message]), [[
    "FORBIDDEN",
    "cannot create Post: the Post written would not be readable by this request",
  ]]);
  assertEquals(readsAfterWrite(db.log).length, 1, JSON.stringify(db.log));
  assertEquals(await db.orm.em.fork().count(Post, {}, { filters: false }), count);
}

testOwnPostsRules("read after write: one statement reads the row written", oneReadAfterWrite);
