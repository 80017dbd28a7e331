/**
 * Runs an example: opens the database (embedded SQLite, or `DATABASE_URL`), creates the missing
 * tables and columns without dropping anything (`orm.schema.update({ safe: true })`), seeds only
 * an empty database, and serves GraphQL Yoga with GraphiQL (from the package, offline) over
 * `Deno.serve` on 127.0.0.1 (`PORT`, default 8000), with every plugin of `mikrogqlPreset`
 * installed; prints the URL and a sample query as a curl command.
 *
 * `DATABASE_REPLICA_URLS` (comma-separated PostgreSQL URLs of streaming replicas of
 * `DATABASE_URL`) sends reads outside transactions to the replicas, with read-your-writes for 5 s
 * after a client's mutation, the primary answering while a replica is down, and database outages
 * reported as `DATABASE_UNAVAILABLE`. `DATABASE_POOL_MAX` sets the connection pool size (of the
 * primary and of each replica).
 *
 * @module
 */
import type { EntityManager } from "@mikro-orm/core";
import type { GraphQLSchema } from "graphql";
import { createYoga } from "graphql-yoga";
import { renderGraphiQL } from "@graphql-yoga/render-graphiql";
import { mikrogqlPreset, replicaFailover } from "@mikrogql/ext";
import { type DatabaseOptions, openDatabase } from "./database.ts";

/** What an example serves. */
export interface Example {
  entities: DatabaseOptions["entities"];
  /** The generated `createSchema()` result. */
  schema: () => GraphQLSchema;
  /** Inserts the seed data. */
  seed: (em: EntityManager) => Promise<unknown>;
  /** A query to print as the first thing to try. */
  sample: string;
}

/**
 * Serves `example` until the process is stopped.
 *
 * @throws Error for an unsupported `DATABASE_URL`, or the database's connection error
 */
export async function serveExample(example: Example): Promise<Deno.HttpServer> {
  const replicas = (Deno.env.get("DATABASE_REPLICA_URLS") ?? "").split(",").filter(Boolean);
  const poolMax = Deno.env.get("DATABASE_POOL_MAX");
  const orm = await openDatabase({
    entities: example.entities,
    url: Deno.env.get("DATABASE_URL"),
    extra: {
      replicas: replicas.map((clientUrl, i) => ({ name: `replica-${i + 1}`, clientUrl })),
      ...(poolMax ? { pool: { max: Number(poolMax) } } : {}),
    },
  });
  if (replicas.length > 0) replicaFailover(orm);
  await orm.schema.update({ safe: true, dropTables: false });
  const em = orm.em.fork();
  const rows = await Promise.all(example.entities.map((entity) => em.count(entity)));
  const empty = rows.every((n) => n === 0);
  if (empty) await example.seed(orm.em.fork());
  const yoga = createYoga({
    schema: example.schema(),
    context: () => ({ em: orm.em.fork() }),
    ...mikrogqlPreset({
      txOpener: orm,
      transactioner: replicas.length > 0 ? { readYourWrites: { seconds: 5 } } : {},
    }),
    graphiql: true,
    // GraphiQL from the package (scripts and styles inlined), not from a CDN: works offline.
    renderGraphiQL,
  });
  return Deno.serve({
    hostname: "127.0.0.1",
    port: Number(Deno.env.get("PORT") ?? 8000),
    onListen: ({ port }) => {
      const url = `http://127.0.0.1:${port}/graphql`;
      const body = JSON.stringify({ query: example.sample.replace(/\s+/g, " ").trim() });
      console.log(`${empty ? "seeded" : "kept the existing rows"}; GraphiQL at ${url}`);
      console.log(`try:\ncurl -s ${url} -H 'content-type: application/json' \\\n  -d '${body}'`);
    },
  }, yoga.fetch);
}
