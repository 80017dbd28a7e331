/**
 * The timing channels of issue 34 on the workspace example, measured with paired samples:
 * 120,000 comments bob cannot read (written by dan, who shares no organization with him) on a
 * task bob reads.
 *
 * Hidden children against none (that task, answering as empty, against a task with no comment):
 *
 * - count: `comments { totalCount }` of the task (a grouped count);
 * - page: `comments(first: 10) { edges { node { id } } }` of the task;
 * - page+count: `comments(first: 10) { totalCount edges { ... } }` of the task (the count a
 *   scalar subquery of the page's statement);
 * - window: the same of the task and another visible task (task 1), through `nodes` (many
 *   parents: the count a window of the partitioned page);
 *
 * a hidden comment's text against text no comment has (both answer 0):
 *
 * - prefix: `tasks(where: { hasCommentsWith: [{ bodyHasPrefix: "secret" }] })`;
 * - where: `comments(where: { bodyHasPrefix: "secret" }) { totalCount }` of the task (a
 *   connection's own where);
 * - root where: the root `comments(where: { bodyHasPrefix: "secret" }) { totalCount }`.
 *
 * Each pair sends both requests (in random order) to Yoga in process with the preset, as bob;
 * prints per channel the medians, the median paired difference and the share of pairs where the
 * hidden case was slower (50% means no signal). Not a test: timings vary with the machine. On
 * PostgreSQL and MariaDB the tables are analyzed after the insert (as autovacuum and InnoDB do
 * soon after it), on SQLite not (nothing does unless the application runs `ANALYZE`);
 * `BENCH_ANALYZE=1` analyzes on every database, `BENCH_ANALYZE=0` on none.
 *
 * `BENCH_CHANNELS=count,page` runs only those channels; `BENCH_SQL=1` prints each channel's
 * statements once.
 *
 * ```sh
 * deno run -A bench/auth_timing.ts                       # SQLite, 120,000 rows, 150 pairs
 * BENCH_DIALECT=postgresql BENCH_PAIRS=100 deno run -A bench/auth_timing.ts
 * BENCH_DIALECT=mariadb BENCH_PAIRS=100 deno run -A bench/auth_timing.ts
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
const HIDDEN = Number(Deno.env.get("BENCH_HIDDEN") ?? 120_000);
const PAIRS = Number(Deno.env.get("BENCH_PAIRS") ?? 150);
const CHANNELS = Deno.env.get("BENCH_CHANNELS")?.split(",");
const SQL = Deno.env.get("BENCH_SQL") === "1";
/** PostgreSQL and MariaDB gather statistics themselves (autovacuum, InnoDB); SQLite never does. */
const ANALYZE = (Deno.env.get("BENCH_ANALYZE") ?? (DIALECT === "sqlite" ? "0" : "1")) === "1";

let statements: string[] | undefined;
const db = await openTestOrm(DIALECT, entities, {
  onQuery: (sql: string) => {
    statements?.push(sql);
    return sql;
  },
} as never);
try {
  const em = db.orm.em.fork();
  await seed(em);
  // Task 4 ("Press release", Acme) has no comment; bob reads it. Task 7: an empty twin.
  const empty = em.create(Task, { id: 7, project: 2, title: "Empty twin", status: "TODO" });
  await em.flush();
  for (let done = 0; done < HIDDEN; done += 5_000) {
    const rows = Array.from({ length: Math.min(5_000, HIDDEN - done) }, (_, i) => ({
      task: 4,
      author: 4,
      body: `secret ${done + i}`,
    }));
    await db.orm.em.fork().insertMany(Comment, rows);
  }
  // PostgreSQL plans with the statistics autovacuum would gather soon after such an insert (the
  // plans a running server gets): without them it guesses, and guesses an index walk here.
  if (ANALYZE) {
    await db.orm.em.getConnection().execute(
      DIALECT === "mariadb"
        ? `analyze table ${em.getMetadata().find(Comment)!.tableName}`
        : "analyze",
    );
  }
  const yoga = createYoga({
    schema: workspaceSchema(),
    logging: false,
    context: () => ({ em: db.orm.em.fork(), viewer: "bob" }),
    ...mikrogqlPreset({ txOpener: db.orm }),
  });
  const time = async (query: string): Promise<[number, string]> => {
    const started = performance.now();
    const response = await yoga.fetch("http://127.0.0.1/graphql", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ query }),
    });
    const text = await response.text();
    return [performance.now() - started, text];
  };
  const count = (task: number) =>
    `{ node(id: "${encodeGlobalId("Task", task)}") { ... on Task { comments { totalCount } } } }`;
  const page = (task: number, totalCount = "") =>
    `{ node(id: "${encodeGlobalId("Task", task)}") { ... on Task { comments(first: 10) {
      ${totalCount} edges { node { id } } } } } }`;
  const window = (task: number) =>
    `{ nodes(ids: ["${encodeGlobalId("Task", task)}", "${encodeGlobalId("Task", 1)}"]) {
      ... on Task { comments(first: 10) { totalCount edges { node { id } } } } } }`;
  const prefix = (p: string) =>
    `{ tasks(where: { hasCommentsWith: [{ bodyHasPrefix: "${p}" }] }) { totalCount } }`;
  const where = (p: string) =>
    `{ node(id: "${encodeGlobalId("Task", 4)}") { ... on Task {
      comments(where: { bodyHasPrefix: "${p}" }) { totalCount } } } }`;
  const rootWhere = (p: string) => `{ comments(where: { bodyHasPrefix: "${p}" }) { totalCount } }`;
  const channels = [
    { name: "count", hidden: count(4), baseline: count(empty.id) },
    { name: "page", hidden: page(4), baseline: page(empty.id) },
    { name: "page+count", hidden: page(4, "totalCount"), baseline: page(empty.id, "totalCount") },
    { name: "window", hidden: window(4), baseline: window(empty.id) },
    { name: "prefix", hidden: prefix("secret"), baseline: prefix("zzzzzz") },
    { name: "where", hidden: where("secret"), baseline: where("zzzzzz") },
    { name: "root where", hidden: rootWhere("secret"), baseline: rootWhere("zzzzzz") },
  ].filter((channel) => !CHANNELS || CHANNELS.includes(channel.name));
  console.log(
    `${DIALECT}${
      ANALYZE ? " (analyzed)" : ""
    }: ${HIDDEN} hidden comments on a visible task, ${PAIRS} pairs per channel (viewer bob)`,
  );
  for (const channel of channels) {
    statements = [];
    const [, hiddenAnswer] = await time(channel.hidden);
    const hiddenStatements = statements;
    statements = [];
    const [, baselineAnswer] = await time(channel.baseline);
    if (SQL) console.log(`${channel.name}:\n  ${hiddenStatements.join("\n  ")}`);
    statements = undefined;
    // The other task's comments differ by their ids only.
    const answers = [hiddenAnswer, baselineAnswer].map((a) => a.replace(/"id":"[^"]*"/g, ""));
    if (answers[0] !== answers[1]) {
      throw new Error(`${channel.name}: ${hiddenAnswer} differs from ${baselineAnswer}`);
    }
    for (let i = 0; i < 10; i++) await time(i % 2 ? channel.hidden : channel.baseline);
    const hidden: number[] = [];
    const baseline: number[] = [];
    for (let i = 0; i < PAIRS; i++) {
      const first = Math.random() < 0.5;
      const a = await time(first ? channel.hidden : channel.baseline);
      const b = await time(first ? channel.baseline : channel.hidden);
      hidden.push(first ? a[0] : b[0]);
      baseline.push(first ? b[0] : a[0]);
    }
    const diffs = hidden.map((h, i) => h - baseline[i]);
    const slower = diffs.filter((d) => d > 0).length / PAIRS;
    console.log(
      `${channel.name}: hidden median ${median(hidden).toFixed(2)} ms, baseline ${
        median(baseline).toFixed(2)
      } ms, paired difference median ${median(diffs).toFixed(2)} ms, hidden slower in ${
        (slower * 100).toFixed(0)
      }% of pairs`,
    );
  }
} finally {
  await db.close();
}
