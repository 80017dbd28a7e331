/**
 * The fuzzer: hostile queries and mutations (one in four; `tests/support/hostile_documents.ts`)
 * over every example's
 * schema, on SQLite and PostgreSQL, against a real Yoga server with the preset. For each
 * document: every error carries a code and none is `INTERNAL_SERVER_ERROR` (each is refused by
 * a limit, a bad value or validation, or answered); a `{ __typename }` sent alongside it is
 * answered; the process's RSS stays bounded. Prints the seed (`FUZZ_SEED=<n>` replays a run),
 * the codes seen, the health query's p50/p99 and the RSS.
 *
 * ```sh
 * deno test -A tests/graphql/fuzz_test.ts                 # 60 documents per example per database
 * deno task fuzz                                          # 1,000 per example per database
 * FUZZ_SEED=42 FUZZ_DOCUMENTS=200 deno test -A tests/graphql/fuzz_test.ts
 * ```
 */
import { assert, assertLess } from "@std/assert";
import type { GraphQLSchema } from "graphql";
import type { EntityManager } from "@mikro-orm/core";
import { createSchema as blogSchema } from "../../examples/blog/generated/mod.ts";
import { entities as blogEntities } from "../../examples/blog/entities.ts";
import { seed as seedBlog } from "../../examples/blog/seed.ts";
import { createSchema as todoSchema } from "../../examples/todo/generated/mod.ts";
import { entities as todoEntities } from "../../examples/todo/entities.ts";
import { seed as seedTodo } from "../../examples/todo/seed.ts";
import { createSchema as shopSchema } from "../../examples/shop/generated/mod.ts";
import { entities as shopEntities } from "../../examples/shop/entities.ts";
import { seed as seedShop } from "../../examples/shop/seed.ts";
import { createSchema as librarySchema } from "../../examples/library/generated/mod.ts";
import { entities as libraryEntities } from "../../examples/library/entities.ts";
import { seed as seedLibrary } from "../../examples/library/seed.ts";
import { dialects, openTestOrm } from "../support/databases.ts";
import { HostileDocuments } from "../support/hostile_documents.ts";
import { startServer } from "../support/server.ts";

const DOCUMENTS = Number(Deno.env.get("FUZZ_DOCUMENTS") ?? 60);
const SEED = Number(Deno.env.get("FUZZ_SEED") ?? Date.now() % 1_000_000);

const EXAMPLES: {
  name: string;
  entities: Parameters<typeof openTestOrm>[1];
  seed(em: EntityManager): Promise<unknown>;
  schema(): GraphQLSchema;
}[] = [
  { name: "blog", entities: blogEntities, seed: (em) => seedBlog(em), schema: blogSchema },
  { name: "todo", entities: todoEntities, seed: seedTodo, schema: todoSchema },
  { name: "shop", entities: shopEntities, seed: seedShop, schema: shopSchema },
  { name: "library", entities: libraryEntities, seed: seedLibrary, schema: librarySchema },
];

function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil(q * sorted.length) - 1)];
}

for (const dialect of dialects(["sqlite", "postgresql"])) {
  for (const example of EXAMPLES) {
    Deno.test(`fuzz: hostile documents on ${example.name} (${dialect})`, async () => {
      console.log(`FUZZ_SEED=${SEED} FUZZ_DOCUMENTS=${DOCUMENTS}`);
      const test = await openTestOrm(dialect, example.entities);
      await example.seed(test.orm.em.fork());
      const schema = example.schema();
      const server = startServer(test.orm, schema);
      const documents = new HostileDocuments(schema, SEED);
      const codes = new Map<string, number>();
      const health: number[] = [];
      const rssBefore = Deno.memoryUsage().rss;
      try {
        for (let i = 0; i < DOCUMENTS; i++) {
          // one in four a mutation
          const document = documents.next(i % 4 === 3);
          const healthStarted = performance.now();
          const [response, ping] = await Promise.all([
            server.query(document.query, document.variables).catch((error) => {
              throw new Error(
                `${error}: document ${i} of FUZZ_SEED=${SEED}:\n${document.query.slice(0, 3000)}`,
              );
            }),
            server.query<{ __typename: string }>(`{ __typename }`).then((r) => {
              health.push(performance.now() - healthStarted);
              return r;
            }),
          ]);
          assert(ping.data?.__typename === "Query", JSON.stringify(ping));
          const context = () =>
            `document ${i} of FUZZ_SEED=${SEED}:\n${document.query.slice(0, 3000)}\n` +
            `variables: ${JSON.stringify(document.variables).slice(0, 1000)}\n` +
            `response: ${JSON.stringify(response).slice(0, 1000)}`;
          for (const error of response.errors ?? []) {
            const code = error.extensions?.code;
            assert(code !== undefined, `an error without a code, ${context()}`);
            assert(code !== "INTERNAL_SERVER_ERROR", `INTERNAL_SERVER_ERROR, ${context()}`);
            codes.set(code, (codes.get(code) ?? 0) + 1);
          }
          if (!response.errors?.length) codes.set("(answered)", (codes.get("(answered)") ?? 0) + 1);
        }
      } finally {
        await server.close();
        await test.close();
      }
      const rssGrowth = (Deno.memoryUsage().rss - rssBefore) / 2 ** 20;
      console.log(
        `${DOCUMENTS} documents (${example.name}, ${dialect}): ${
          [...codes].map(([code, n]) => `${code} ${n}`).join(", ")
        }; { __typename } alongside p50 ${quantile(health, 0.5).toFixed(1)} ms, p99 ${
          quantile(health, 0.99).toFixed(1)
        } ms; RSS +${rssGrowth.toFixed(0)} MB`,
      );
      assertLess(rssGrowth, 300, "RSS growth (MB)");
    });
  }
}
