/**
 * The two timing channels of issue 34 on the workspace example, measured with paired samples:
 * 120,000 comments bob cannot read (written by dan, who shares no organization with him) on a
 * task bob reads.
 *
 * - count: `comments { totalCount }` of that task (answers 0) against a task with no comment;
 * - prefix: `tasks(where: { hasCommentsWith: [{ bodyHasPrefix: "secret" }] })` (the hidden
 *   comments' prefix; answers 0) against a prefix no comment has.
 *
 * Each pair sends both requests (in random order) to Yoga in process with the preset, as bob;
 * prints per channel the medians, the median paired difference and the share of pairs where the
 * hidden case was slower (50% means no signal). Not a test: timings vary with the machine. On
 * PostgreSQL the tables are analyzed after the insert.
 *
 * ```sh
 * deno run -A bench/auth_timing.ts                       # SQLite, 120,000 rows, 150 pairs
 * BENCH_DIALECT=postgresql BENCH_PAIRS=100 deno run -A bench/auth_timing.ts
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

const DIALECT = (Deno.env.get("BENCH_DIALECT") ?? "sqlite") as Dialect;
const HIDDEN = Number(Deno.env.get("BENCH_HIDDEN") ?? 120_000);
const PAIRS = Number(Deno.env.get("BENCH_PAIRS") ?? 150);

const db = await openTestOrm(DIALECT, entities);
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
  if (DIALECT === "postgresql") await db.orm.em.getConnection().execute("analyze");
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
  const prefix = (p: string) =>
    `{ tasks(where: { hasCommentsWith: [{ bodyHasPrefix: "${p}" }] }) { totalCount } }`;
  const channels = [
    { name: "count", hidden: count(4), baseline: count(empty.id) },
    { name: "prefix", hidden: prefix("secret"), baseline: prefix("zzzzzz") },
  ];
  console.log(
    `${DIALECT}: ${HIDDEN} hidden comments on a visible task, ${PAIRS} pairs per channel (viewer bob)`,
  );
  for (const channel of channels) {
    const [, hiddenAnswer] = await time(channel.hidden);
    const [, baselineAnswer] = await time(channel.baseline);
    if (hiddenAnswer !== baselineAnswer) {
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

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[sorted.length >> 1];
}
