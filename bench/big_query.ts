/**
 * The 1000 x 1000 x 1000 query (`users(first: 1000) { posts(first: 1000) {
 * comments(first: 1000) } }`, cost 1,001,001,000 nodes) against the generated blog server on
 * PostgreSQL seeded with 100 users x 50 posts x 10 comments: once with the default `Limits`
 * (refused as `QUERY_TOO_COMPLEX` before any SQL) and once with `maxCost` raised to 2e9 (run);
 * prints for each the time, the response size, the statements run and the server's RSS.
 *
 * ```sh
 * deno task bench:big-query
 * ```
 *
 * @module
 */
import { Comment } from "../examples/blog/entities/comment.ts";
import { Post } from "../examples/blog/entities/post.ts";
import { User } from "../examples/blog/entities/user.ts";
import { entities } from "../examples/blog/entities.ts";
import { openOrm } from "../server/open_orm.ts";
import { createTestDatabase } from "../tests/support/databases.ts";
import { startServerProcess } from "./server_process.ts";

const QUERY = `{ users(first: 1000) { edges { node { name posts(first: 1000) { edges { node {
  title comments(first: 1000) { edges { node { text } } } } } } } } } }`;
const USERS = 100;
const POSTS = 50;
const COMMENTS = 10;

const db = await createTestDatabase("postgresql");
const orm = await openOrm({ entities, url: db.url });
await orm.schema.create();
const em = orm.em.fork();
const now = new Date();
await em.insertMany(
  User,
  Array.from({ length: USERS }, (_, u) => ({
    id: u + 1,
    name: `user${u}`,
    email: `u${u}@bench.example`,
    createdAt: now,
  })),
);
await em.insertMany(
  Post,
  Array.from({ length: USERS * POSTS }, (_, p) => ({
    id: p + 1,
    title: `post ${p}`,
    body: "b",
    author: (p % USERS) + 1,
  })),
);
// In chunks: one insert of every comment binds more parameters than PostgreSQL takes (65,535).
const CHUNK = 10_000;
for (let from = 0; from < USERS * POSTS * COMMENTS; from += CHUNK) {
  await em.insertMany(
    Comment,
    Array.from({ length: Math.min(CHUNK, USERS * POSTS * COMMENTS - from) }, (_, i) => {
      const c = from + i;
      return {
        text: `comment ${c}`,
        createdAt: now,
        post: (c % (USERS * POSTS)) + 1,
        author: (c % USERS) + 1,
      };
    }),
  );
}
await orm.close();
console.log(
  `seeded ${USERS} users x ${POSTS} posts x ${COMMENTS} comments (${
    USERS * POSTS * COMMENTS
  } comments)`,
);

const script = new URL("./graphql_server.ts", import.meta.url);
for (const [label, maxCost] of [["default limits", "100000"], ["maxCost 2e9", "2000000000"]]) {
  const server = await startServerProcess(script, ["generated", db.url, maxCost]);
  const base = `http://127.0.0.1:${server.port}`;
  const stats = `http://127.0.0.1:${server.statsPort}/stats`;
  try {
    const before = await (await fetch(stats)).json();
    const started = performance.now();
    const response = await fetch(`${base}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ query: QUERY }),
    });
    const body = await response.text();
    const ms = performance.now() - started;
    const after = await (await fetch(stats)).json();
    const code = JSON.parse(body).errors?.[0]?.extensions?.code ?? "data";
    console.log(
      `${label}: ${code}, ${ms.toFixed(0)} ms, ${(body.length / 1e6).toFixed(2)} MB of JSON, ${
        after.statements - before.statements
      } statements, server RSS ${(before.rss / 1e6).toFixed(0)} -> ${
        (after.rss / 1e6).toFixed(0)
      } MB`,
    );
  } finally {
    await server.stop();
  }
}
await db.drop();
