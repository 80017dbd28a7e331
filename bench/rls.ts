/**
 * The cost of PostgreSQL row-level security mode (`ctx.databaseSession`) per request: the blog
 * (`bench/blog_seed.ts`: 100 users, 1,000 posts, 5,000 comments) served in process by Yoga with
 * the preset's Transactioner, Q1 and Q5 of `bench:peers` sent one after another, with and without
 * a database session (a variable and `SET LOCAL ROLE` of a role under which every table has an
 * RLS policy letting every row through, so both answer the same rows and only the session's cost
 * differs: MikroORM's short transaction around each read, `set_config`, `set local role`, and the
 * policies' evaluation). Prints per query and mode the median over rounds of the mean latency and
 * the SQL statements per request.
 *
 * ```sh
 * deno run -A bench/rls.ts                     # 3 rounds of 300 requests per query and mode
 * BENCH_ROUNDS=1 BENCH_REQUESTS=100 deno run -A bench/rls.ts
 * ```
 *
 * @module
 */
import { createYoga } from "graphql-yoga";
import { mikrogqlPreset } from "@mikrogql/ext";
import { entities } from "../examples/blog/entities.ts";
import { createSchema } from "../examples/blog/generated/mod.ts";
import { encodeGlobalId } from "../runtime/plan/global_id.ts";
import { openOrm } from "../server/open_orm.ts";
import { createTestDatabase } from "../tests/support/databases.ts";
import { seedBlog } from "./blog_seed.ts";
import { OURS, QUERIES } from "./peers/queries.ts";
import { median } from "./median.ts";

const ROUNDS = Number(Deno.env.get("BENCH_ROUNDS") ?? 3);
const REQUESTS = Number(Deno.env.get("BENCH_REQUESTS") ?? 300);

const db = await createTestDatabase("postgresql");
await seedBlog(db.url);
let statements = 0;
const orm = await openOrm({ entities, url: db.url, onQuery: () => statements++ });
const role = `bench_rls_${crypto.randomUUID().slice(0, 8)}`;
const sql = (text: string) => orm.em.getConnection().execute(text);
try {
  await sql(`create role "${role}" nologin`);
  await sql(`grant usage on schema public to "${role}"`);
  await sql(`grant select, insert, update, delete on all tables in schema public to "${role}"`);
  for (const table of ["user", "post", "comment", "photo"]) {
    await sql(`alter table "${table}" enable row level security`);
    await sql(
      `create policy viewer_rows on "${table}" to "${role}" using (current_setting('app.viewer', true) is not null)`,
    );
  }
  const server = (session: boolean) =>
    createYoga({
      schema: createSchema(),
      logging: false,
      context: () => ({
        em: orm.em.fork(),
        ...(session ? { databaseSession: { role, variables: { "app.viewer": "1" } } } : {}),
      }),
      ...mikrogqlPreset({ txOpener: orm }),
    });
  const modes = { "without session": server(false), "with databaseSession": server(true) };
  const queries = [
    { name: "Q1", query: QUERIES.find((q) => q.name === "Q1")!.text(OURS), variables: {} },
    {
      name: "Q5",
      query: QUERIES.find((q) => q.name === "Q5")!.text(OURS),
      variables: { id: encodeGlobalId("Post", 1) },
    },
  ];
  const results = new Map<string, { ms: number[]; statements: number[] }>();
  for (let round = 0; round < ROUNDS; round++) {
    for (const { name, query, variables } of queries) {
      for (const [mode, yoga] of Object.entries(modes)) {
        const ask = async () => {
          const response = await yoga.fetch("http://bench/graphql", {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({ query, variables }),
          });
          const body = await response.json();
          if (body.errors) throw new Error(JSON.stringify(body.errors));
        };
        for (let i = 0; i < 20; i++) await ask();
        statements = 0;
        const t0 = performance.now();
        for (let i = 0; i < REQUESTS; i++) await ask();
        const key = `${name} ${mode}`;
        const entry = results.get(key) ?? { ms: [], statements: [] };
        entry.ms.push((performance.now() - t0) / REQUESTS);
        entry.statements.push(statements / REQUESTS);
        results.set(key, entry);
      }
    }
  }
  for (const [key, { ms, statements }] of results) {
    console.log(
      `${key.padEnd(28)} ${median(ms).toFixed(2)} ms/request, ${
        median(statements).toFixed(1)
      } SQL statements/request`,
    );
  }
} finally {
  try {
    await sql(`drop owned by "${role}"`);
    await sql(`drop role if exists "${role}"`);
  } finally {
    await orm.close();
    await db.drop();
  }
}
