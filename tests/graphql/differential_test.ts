/**
 * Differential test of field collection: random queries over every example's generated schema
 * (blog, realworld, todo and its universal/raw id variants, library's composite and natural keys,
 * shop's every mapping feature: inheritance, embeddables, lazy and reference scalars, binary
 * columns, declared collection orders; lingo's third-party shapes: a default soft-delete filter
 * on an abstract base, database-generated UUID keys, `text[]` and `jsonb` columns, a
 * self-referencing m:n through a pivot entity with columns, negative numeric enums),
 * on random data sets, answered over
 * HTTP by the generated server and by a reference server that loads every field per parent with
 * plain MikroORM calls (tests/support/reference.ts). The JSON answers must be equal (data, and
 * the paths and codes of errors). On PostgreSQL the statements of each generated answer must not
 * exceed the bound its shape gives (tests/support/random_query.ts): no per-parent loads.
 *
 * `DIFF_SEED=<n>` replays a run (the seed is printed on failure; without it a random seed runs, and
 * the seeds that once failed, `FIXED`); `DIFF_SEEDS=<n>` runs n consecutive seeds from it, each
 * example's database cleared and seeded again per seed (`deno task test:differential`: 200 seeds
 * per database); `DIFF_QUERIES=<n>` sets the
 * number of queries per example and database (default 110: 770 per database); `DIFF_EXAMPLES=library,blog`
 * runs only those examples; `DIFF_ERRORS=1` prints the first error of each answer that has
 * errors; `DIFF_SQL=1` prints
 * the generated server's statements of a failing query.
 */
import { assert, assertEquals } from "@std/assert";
import { graphql, type GraphQLSchema } from "graphql";
import type { Graph, GraphHooks } from "@mikrogql/ext";
import type { Options } from "@mikro-orm/core";
import { globalIdOf } from "../../runtime/plan/global_id.ts";
import { primaryKeyOf } from "../../runtime/keys.ts";
import { nodeTypeOf } from "../../runtime/graph.ts";
import { setupUniversalIds } from "../../runtime/database/universal_ids.ts";
import { textValueKind } from "../../runtime/column_values.ts";
import { entities as blogEntities } from "../../examples/blog/entities.ts";
import * as blog from "../../examples/blog/generated/mod.ts";
import { entities as realworldEntities } from "../../examples/realworld/entities.ts";
import * as realworld from "../../examples/realworld/generated/mod.ts";
import { entities as todoEntities } from "../../examples/todo/entities.ts";
import * as todo from "../../examples/todo/generated/mod.ts";
import { Category as UCategory } from "../../examples/todo/variants/universal/entities/category.ts";
import { Todo as UTodo } from "../../examples/todo/variants/universal/entities/todo.ts";
import * as universal from "../../examples/todo/variants/universal/generated/mod.ts";
import { Category as RCategory } from "../../examples/todo/variants/raw/entities/category.ts";
import { Todo as RTodo } from "../../examples/todo/variants/raw/entities/todo.ts";
import { User as RUser } from "../../examples/todo/variants/raw/entities/user.ts";
import * as raw from "../../examples/todo/variants/raw/generated/mod.ts";
import { entities as libraryEntities } from "../../examples/library/entities.ts";
import * as library from "../../examples/library/generated/mod.ts";
import { entities as shopEntities } from "../../examples/shop/entities.ts";
import {
  entities as lingoEntities,
  ormOptions as lingoOrmOptions,
} from "../../examples/lingo/entities.ts";
import * as lingo from "../../examples/lingo/generated/mod.ts";
import * as shop from "../../examples/shop/generated/mod.ts";
import { dialects, openTestOrm, type TestOrm } from "../support/databases.ts";
import { random, seedRandom } from "../support/random_data.ts";
import { type GeneratedQuery, type Pools, QueryGenerator } from "../support/random_query.ts";
import { referenceSchema } from "../support/reference.ts";
import { startServer } from "../support/server.ts";
import { testSeed } from "../support/test_seed.ts";

interface Example {
  name: string;
  entities: unknown[];
  typeDefs: string;
  graph: Graph;
  createSchema(options?: GraphHooks): GraphQLSchema;
  universal?: boolean;
  raw?: boolean;
  /** More MikroORM options the example's ORMs open with (lingo's `discovery.onMetadata`). */
  orm?: Partial<Options>;
}

const EXAMPLES: Example[] = [
  { name: "blog", entities: blogEntities, ...blog },
  { name: "realworld", entities: realworldEntities, ...realworld },
  { name: "todo", entities: todoEntities, ...todo },
  { name: "todo-universal", entities: [UCategory, UTodo], ...universal, universal: true },
  { name: "todo-raw", entities: [RCategory, RTodo, RUser], ...raw, raw: true },
  { name: "library", entities: libraryEntities, ...library },
  { name: "shop", entities: shopEntities, ...shop },
  { name: "lingo", entities: lingoEntities, orm: lingoOrmOptions, ...lingo },
];

/** Where values of text columns holding values, as the random data writes them. */
const TEXT_VALUES = {
  decimal: ["1.50", "2.00", "3.25", "4.00"],
  date: ["2026-01-02", "2026-03-04"],
  time: ["06:30:00", "12:00:00"],
};

const SEED = testSeed("DIFF_SEED", 20_261_129);
const QUERIES = Number(Deno.env.get("DIFF_QUERIES") ?? 110);
const ONLY = Deno.env.get("DIFF_EXAMPLES")?.split(",");

type Answer = {
  data?: unknown;
  errors?: { message?: string; path?: (string | number)[]; extensions?: { code?: string } }[];
};

function errorsOf(answer: Answer): string[] {
  return (answer.errors ?? []).map((e) => `${(e.path ?? []).join(".")} ${e.extensions?.code}`)
    .sort();
}

/** The first few paths where two JSON values differ, with both values. */
function differences(a: unknown, b: unknown, path = "", out: string[] = []): string[] {
  if (out.length >= 5) return out;
  if (a && b && typeof a === "object" && typeof b === "object") {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    for (const key of keys) {
      differences(
        (a as Record<string, unknown>)[key],
        (b as Record<string, unknown>)[key],
        `${path}.${key}`,
        out,
      );
    }
  } else if (JSON.stringify(a) !== JSON.stringify(b)) {
    out.push(`${path}: ${JSON.stringify(a)} / ${JSON.stringify(b)}`);
  }
  return out;
}

/**
 * Seeds that once failed, run on every run (a failing seed becomes a fixed case): the examples
 * they failed on, up to the query that failed.
 */
const FIXED: { seed: number; example: string; queries: number }[] = [
  // nodes(ids:) of a TransferPayment and a Shipment selecting `order { shipment }` differently
  // below their own fragments: the edge resolvers of one response path were batched with one
  // parent's selection (trackingCode null).
  { seed: 1677727306, example: "shop", queries: 70 },
];

/** `DIFF_SEEDS=<n>`: n consecutive seeds from the first (`deno task test:differential`). */
const SEEDS = Number(Deno.env.get("DIFF_SEEDS") ?? 1);

/** The runs of one example: a seed and its number of queries. */
function runsOf(example: Example): { seed: number; queries: number }[] {
  const runs = Array.from({ length: SEEDS }, (_, k) => ({ seed: SEED + k, queries: QUERIES }));
  if (Deno.env.get("DIFF_SEED") || SEEDS > 1) return runs;
  return [...runs, ...FIXED.filter((f) => f.example === example.name)];
}

for (const dialect of dialects()) {
  Deno.test({
    name: `differential: generated server = per-parent reference on random queries (${dialect})`,
    sanitizeOps: false,
    sanitizeResources: false,
    fn: async (t) => {
      let total = 0;
      let clean = 0;
      let seeds = 0;
      const examples = EXAMPLES.map((example, index) => ({ example, index, runs: runsOf(example) }))
        .filter(({ example }) => !ONLY || ONLY.includes(example.name));
      // Seeds outer, examples inner: a run of many seeds has checked every example up to the
      // seed it reached. One database per example, cleared between seeds.
      const dbs = new Map<Example, TestOrm>();
      const rounds = Math.max(...examples.map((e) => e.runs.length));
      try {
        for (let round = 0; round < rounds; round++) {
          const here = examples.filter((e) => e.runs[round]);
          const names = here.map((e) => `${e.example.name} ${e.runs[round].seed}`).join(", ");
          await t.step(`seed round ${round + 1} of ${rounds} (${names})`, async () => {
            for (const { example, index, runs } of here) {
              const run = runs[round];
              let db = dbs.get(example);
              if (db) await db.orm.schema.clear();
              else {
                // Every example's database stays open: two connections each, not a pool of 10.
                db = await openTestOrm(dialect, example.entities as never, {
                  ...example.orm,
                  pool: { min: 0, max: 2 },
                });
                dbs.set(example, db);
              }
              const counts = await runSeed(dialect, example, db, run.seed, index, run.queries);
              total += counts.total;
              clean += counts.clean;
              seeds++;
            }
          });
        }
      } finally {
        for (const db of dbs.values()) await db.close();
      }
      console.log(
        `${dialect}: ${total} random queries (${clean} without errors), ${seeds} example runs, seeds from ${SEED}`,
      );
      assert(total >= 500 || QUERIES < 100 || ONLY);
      // Answers that are only errors on both sides would compare equal: most must be data.
      assert(clean >= total * 0.8, `only ${clean} of ${total} queries answered without errors`);
    },
  });
}

/**
 * Runs `queries` random queries of `example` on data seeded by `runSeed` (+ the example's index),
 * comparing the generated server's answers with the reference's.
 */
async function runSeed(
  dialect: string,
  example: Example,
  db: TestOrm,
  runSeed: number,
  index: number,
  queries: number,
): Promise<{ total: number; clean: number }> {
  let total = 0;
  let clean = 0;
  const seed = runSeed + index;
  let hooks: GraphHooks = {};
  if (example.universal) {
    hooks = { universalIds: await setupUniversalIds(db.orm.em.fork(), example.graph) };
  }
  const rows = await seedRandom(db.orm.em.fork(), seed);
  const pools: Pools = { ids: new Map(), cursors: new Map() };
  const types = new Map<string, string>();
  for (const list of rows.values()) {
    for (const row of list) {
      const type = nodeTypeOf(example.graph, row);
      if (!type) continue;
      const id = globalIdOf(example.graph, type, primaryKeyOf(type, row));
      types.set(id, type.name);
      // A class's ids are ids of its interface too (where inputs of the root type).
      for (const name of [type.name, ...type.implements ?? []]) {
        pools.ids.set(name, [...pools.ids.get(name) ?? [], id]);
      }
    }
  }
  if (example.raw) hooks = { nodeType: (id) => types.get(id) };
  const schemas = {
    generated: example.createSchema(hooks),
    reference: referenceSchema(example.typeDefs, example.graph, hooks),
  };
  const generated = startServer(db.orm, schemas.generated);
  const reference = startServer(db.orm, schemas.reference);
  const generator = new QueryGenerator(
    example.graph,
    example.createSchema(hooks),
    random(seed),
    pools,
    new Set(dialect === "mariadb" ? ["time", "enum"] : ["time"]),
    (type, prop) => {
      const property = db.orm.getMetadata().find(type.entity as never)?.properties[prop];
      const kind = property && textValueKind(property);
      return kind && TEXT_VALUES[kind];
    },
  );
  let query: GeneratedQuery | undefined;
  let i = 0;
  let sql: string[] = [];
  try {
    for (; i < queries; i++) {
      query = generator.query();
      db.log.length = 0;
      const got: Answer = await generated.query(query.text);
      const statements = db.log.length;
      sql = [...db.log];
      const want: Answer = await reference.query(query.text);
      assertEquals(errorsOf(got), errorsOf(want), "errors");
      const diff = differences(got.data, want.data);
      assert(
        diff.length === 0,
        `answers differ (generated / reference):\n${diff.join("\n")}`,
      );
      if (dialect === "postgresql" && !query.unbound) {
        assert(
          statements <= query.bound,
          `${statements} statements, the shape allows ${query.bound}:\n${db.log.join("\n")}`,
        );
      }
      query.harvest(got.data);
      total++;
      if (!got.errors) clean++;
      else if (Deno.env.get("DIFF_ERRORS")) {
        console.error(
          "DIFFERR",
          JSON.stringify(got.errors?.[0]?.message ?? ""),
          errorsOf(got),
        );
      }
    }
  } catch (error) {
    console.error(
      `differential test failed: DIFF_SEED=${runSeed} (${example.name}, ${dialect}, query ${i}):\n${query?.text}`,
    );
    if (Deno.env.get("DIFF_SQL")) console.error(sql.join("\n"));
    // The unmasked errors of both servers, to tell which one is wrong.
    for (const [name, schema] of Object.entries(schemas)) {
      const result = await graphql({
        schema,
        source: query!.text,
        contextValue: { em: db.orm.em.fork() },
      });
      for (const e of result.errors ?? []) {
        console.error(
          `${name}: ${e.path?.join(".")}: ${e.message}\n${e.originalError?.stack ?? ""}`,
        );
      }
    }
    throw error;
  } finally {
    await generated.close();
    await reference.close();
  }
  return { total, clean };
}
