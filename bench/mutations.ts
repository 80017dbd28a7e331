/**
 * Mutation benchmark: `createPost` with two edge ids (`authorID` and one of
 * `commentIDs`) over HTTP on PostgreSQL at concurrency 10, against the generated blog server
 * without and with the Transactioner (each in its own process); prints mutations/s and p50/p99
 * latency side by side and the ratio with/without. Each mode runs a fixed number of mutations
 * (`BENCH_OPS`, default 2000, after 100 warm-up ones); every mutation moves a comment of its own,
 * so rows do not contend. The rows written are counted afterwards.
 *
 * ```sh
 * deno task bench:mutations
 * ```
 *
 * @module
 */
import { encodeGlobalId } from "@mikrogql/ext";
import { Comment } from "../examples/blog/entities/comment.ts";
import { Post } from "../examples/blog/entities/post.ts";
import { User } from "../examples/blog/entities/user.ts";
import { entities } from "../examples/blog/entities.ts";
import { openOrm } from "../server/open_orm.ts";
import { createTestDatabase } from "../tests/support/databases.ts";
import { startServerProcess } from "./server_process.ts";

const OPS = Number(Deno.env.get("BENCH_OPS") ?? 2000);
const WARMUP = 100;
const CONCURRENCY = 10;
const MODES = ["plain", "tx"] as const;
const MUTATION = `mutation($input: CreatePostInput!) { createPost(input: $input) { id } }`;

const db = await createTestDatabase("postgresql");
const orm = await openOrm({ entities, url: db.url });
await orm.schema.create();
const em = orm.em.fork();
const author = em.create(User, { name: "author", email: "author@bench.example" });
const parked = em.create(Post, { title: "parked comments", body: "", author });
const comments = Array.from(
  { length: MODES.length * (OPS + WARMUP) },
  (_, i) => em.create(Comment, { text: `comment ${i}`, post: parked, author }),
);
await em.flush();
const authorID = encodeGlobalId("User", author.id);
const commentIDs = comments.map((c) => encodeGlobalId("Comment", c.id));

interface Result {
  rate: number;
  p50: number;
  p99: number;
  errors: number;
}

async function run(mode: typeof MODES[number], ids: string[]): Promise<Result> {
  const server = await startServerProcess(new URL("./mutation_server.ts", import.meta.url), [
    mode,
    db.url,
  ]);
  const port = server.port;
  try {
    let errors = 0;
    const create = async (i: number) => {
      const response = await fetch(`http://127.0.0.1:${port}/graphql`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          query: MUTATION,
          variables: { input: { title: `post ${i}`, body: "b", authorID, commentIDs: [ids[i]] } },
        }),
      });
      if ((await response.json()).errors) errors++;
    };
    let next = 0;
    const clients = async (until: number, latencies?: number[]) => {
      await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
        while (next < until) {
          const i = next++;
          const t0 = performance.now();
          await create(i);
          latencies?.push(performance.now() - t0);
        }
      }));
    };
    await clients(WARMUP);
    const latencies: number[] = [];
    const started = performance.now();
    await clients(WARMUP + OPS, latencies);
    const seconds = (performance.now() - started) / 1000;
    latencies.sort((a, b) => a - b);
    const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * OPS))];
    return { rate: OPS / seconds, p50: at(0.5), p99: at(0.99), errors };
  } finally {
    await server.stop();
  }
}

try {
  const results: Result[] = [];
  for (const [i, mode] of MODES.entries()) {
    const size = OPS + WARMUP;
    results.push(await run(mode, commentIDs.slice(i * size, (i + 1) * size)));
  }
  const posts = await orm.em.fork().count(Post, { title: { $like: "post %" } });
  const [plain, tx] = results;
  const cell = (r: Result) =>
    `${r.rate.toFixed(1).padStart(8)} mutations/s  p50 ${r.p50.toFixed(1).padStart(6)} ms  p99 ${
      r.p99.toFixed(1).padStart(6)
    } ms  ${r.errors} errors`;
  console.log(
    `createPost(authorID, commentIDs: [1]) x ${OPS} at concurrency ${CONCURRENCY}, PostgreSQL`,
  );
  console.log(`without Transactioner ${cell(plain)}`);
  console.log(`with Transactioner    ${cell(tx)}`);
  console.log(`ratio with/without: ${(tx.rate / plain.rate).toFixed(2)}x mutations/s`);
  console.log(`posts written: ${posts} (expected ${MODES.length * (OPS + WARMUP)})`);
} finally {
  await orm.close();
  await db.drop();
}
