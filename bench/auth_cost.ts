/**
 * What the visibility fence costs ordinary policy'd reads (issue 34, leakproof ordering): the
 * workspace with `BENCH_TASKS` (default 200) tasks of Acme, each with `BENCH_COMMENTS` (default
 * 50) comments bob reads, and bob's reads of them that the fence changes: a connection's own
 * where input (root and nested, with `totalCount`), a cursor's page, many parents' pages with
 * their counts (a window) and a parent's count; a page without where as the reference.
 *
 * Requests go to Yoga in process with the preset, as bob, one at a time; prints per query the
 * median wall milliseconds of `BENCH_REQUESTS` (default 200) requests over 5 rounds, each
 * query's rounds alternating with the others'. For a before/after figure, run the same file
 * from a checkout of the base commit (it imports that checkout's runtime), alternately with this
 * one:
 *
 * ```sh
 * git archive <base commit> | tar -x -C /tmp/base && cp bench/auth_cost.ts /tmp/base/bench/
 * deno run -A bench/auth_cost.ts; deno run -A /tmp/base/bench/auth_cost.ts   # SQLite
 * BENCH_DIALECT=postgresql deno run -A bench/auth_cost.ts
 * ```
 *
 * @module
 */
import { createYoga } from "graphql-yoga";
import { mikrogqlPreset } from "@mikrogql/ext";
import { Comment } from "../examples/workspace/entities/comment.ts";
import { Task } from "../examples/workspace/entities/task.ts";
import { entities } from "../examples/workspace/entities.ts";
import { workspaceSchema } from "../examples/workspace/schema.ts";
import { seed } from "../examples/workspace/seed.ts";
import { encodeGlobalId } from "../runtime/plan/global_id.ts";
import { type Dialect, openTestOrm } from "../tests/support/databases.ts";
import { median } from "./median.ts";

const DIALECT = (Deno.env.get("BENCH_DIALECT") ?? "sqlite") as Dialect;
const TASKS = Number(Deno.env.get("BENCH_TASKS") ?? 200);
const COMMENTS = Number(Deno.env.get("BENCH_COMMENTS") ?? 50);
const REQUESTS = Number(Deno.env.get("BENCH_REQUESTS") ?? 200);
const ROUNDS = 5;

const db = await openTestOrm(DIALECT, entities);
try {
  const em = db.orm.em.fork();
  await seed(em);
  for (let i = 0; i < TASKS; i++) {
    em.create(Task, { id: 100 + i, project: 1 + (i % 2), title: `Task ${i}`, status: "TODO" });
  }
  await em.flush();
  for (let i = 0; i < TASKS; i++) {
    const rows = Array.from({ length: COMMENTS }, (_, j) => ({
      task: 100 + i,
      author: 1 + (j % 3),
      body: `${j % 2 ? "comment" : "note"} ${i}.${j}`,
    }));
    await db.orm.em.fork().insertMany(Comment, rows);
  }
  if (DIALECT !== "sqlite") {
    await db.orm.em.getConnection().execute(
      DIALECT === "mariadb" ? "analyze table comment, task" : "analyze",
    );
  }
  const yoga = createYoga({
    schema: workspaceSchema(),
    logging: false,
    context: () => ({ em: db.orm.em.fork(), viewer: "bob" }),
    ...mikrogqlPreset({ txOpener: db.orm }),
  });
  const post = async (query: string) => {
    const response = await yoga.fetch("http://127.0.0.1/graphql", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ query }),
    });
    const text = await response.text();
    if (text.includes('"errors"')) throw new Error(text);
    return text;
  };
  const page = JSON.parse(
    await post(`{ comments(first: 10) { pageInfo { endCursor } } }`),
  );
  const cursor = page.data.comments.pageInfo.endCursor;
  const task = encodeGlobalId("Task", 100);
  const queries: [string, string][] = [
    ["root page (no where)", `{ comments(first: 10) { edges { node { id } } } }`],
    [
      "root where + totalCount",
      `{ comments(first: 10, where: { bodyHasPrefix: "comment" }) { totalCount edges { node { id } } } }`,
    ],
    ["root cursor page", `{ comments(first: 10, after: "${cursor}") { edges { node { id } } } }`],
    [
      "nested where (window)",
      `{ tasks(first: 10) { edges { node { comments(first: 5, where: { bodyHasPrefix: "comment" }) {
        totalCount edges { node { id } } } } } } }`,
    ],
    [
      "nested page (window)",
      `{ tasks(first: 10) { edges { node { comments(first: 5) { totalCount edges { node { id } } } } } } }`,
    ],
    ["one task's count", `{ node(id: "${task}") { ... on Task { comments { totalCount } } } }`],
    [
      "one task's where page",
      `{ node(id: "${task}") { ... on Task { comments(first: 5, where: { bodyHasPrefix: "comment" }) {
        edges { node { id } } } } } }`,
    ],
  ];
  console.log(
    `${DIALECT}: ${TASKS} tasks x ${COMMENTS} comments bob reads; ${REQUESTS} requests x ${ROUNDS} rounds per query; load ${
      Deno.loadavg().map((l) => l.toFixed(1)).join(" ")
    }`,
  );
  for (const [, query] of queries) for (let i = 0; i < 20; i++) await post(query);
  const times = queries.map(() => [] as number[]);
  for (let round = 0; round < ROUNDS; round++) {
    for (const [q, [, query]] of queries.entries()) {
      for (let i = 0; i < REQUESTS / ROUNDS; i++) {
        const started = performance.now();
        await post(query);
        times[q].push(performance.now() - started);
      }
    }
  }
  for (const [q, [name]] of queries.entries()) {
    console.log(`${name}: median ${median(times[q]).toFixed(2)} ms`);
  }
} finally {
  await db.close();
}
