/**
 * Runs an example: opens the database (embedded SQLite, or `DATABASE_URL`) with `openOrm`,
 * creates the missing tables and columns without dropping anything
 * (`orm.schema.update({ safe: true })`), seeds only an empty database, and serves it with the
 * package's `serve` on 127.0.0.1 (`PORT`, default 8000): every plugin of `mikrogqlPreset`,
 * graceful shutdown, `/health` and `/ready`, a request log, and GraphiQL (from the package,
 * offline) unless `NODE_ENV=production`; prints the URL and a sample query as a curl command.
 *
 * `DATABASE_REPLICA_URLS` (comma-separated PostgreSQL URLs of streaming replicas of
 * `DATABASE_URL`) sends reads outside transactions to the replicas, with read-your-writes for 5 s
 * after a client's mutation, the primary answering while a replica is down, and database outages
 * reported as `DATABASE_UNAVAILABLE`. `DATABASE_POOL_MAX` sets the connection pool size (of the
 * primary and of each replica). `CORS_ORIGINS` (comma-separated) allows those browser origins.
 * `REDIS_URL` shares the subscriptions' change feed with every server on the same Redis (and
 * `REDIS_PREFIX`, default `mikrogql:`, its channel prefix); without it, events stay in-process.
 * `SUBSCRIPTIONS_PER_CLIENT` raises the open subscriptions one client address may hold (100).
 *
 * @module
 */
import type { EntityManager, MikroORM, Options } from "@mikro-orm/core";
import type { GraphQLSchema } from "graphql";
import { replicaFailover } from "@mikrogql/ext";
import {
  type MikrogqlServer,
  openOrm,
  type OpenOrmOptions,
  serve,
  type ServeOptions,
} from "@mikrogql/ext/server";

/** What an example serves. */
export interface Example {
  entities: OpenOrmOptions["entities"];
  /** The generated `createSchema()` result. */
  schema: () => GraphQLSchema;
  /** Inserts the seed data. */
  seed: (em: EntityManager) => Promise<unknown>;
  /** A query to print as the first thing to try. */
  sample: string;
  /** More options of `serve`. */
  serve?: Partial<ServeOptions>;
  /** More MikroORM options (a `discovery.onMetadata` hook). */
  orm?: Partial<Options>;
  /** Run once the tables exist and are seeded, before serving (e.g. installing RLS policies). */
  prepare?: (orm: MikroORM) => Promise<void>;
}

/**
 * Serves `example` until the process is stopped (SIGTERM/SIGINT: gracefully).
 *
 * @throws Error for an unsupported `DATABASE_URL`, or the database's connection error
 */
export async function serveExample(example: Example): Promise<MikrogqlServer> {
  const replicas = (Deno.env.get("DATABASE_REPLICA_URLS") ?? "").split(",").filter(Boolean);
  const poolMax = Deno.env.get("DATABASE_POOL_MAX");
  const origins = (Deno.env.get("CORS_ORIGINS") ?? "").split(",").filter(Boolean);
  const redis = Deno.env.get("REDIS_URL");
  const perClient = Deno.env.get("SUBSCRIPTIONS_PER_CLIENT");
  const orm = await openOrm({
    entities: example.entities,
    url: Deno.env.get("DATABASE_URL"),
    extra: {
      ...example.orm,
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
  await example.prepare?.(orm);
  const graphiql = Deno.env.get("NODE_ENV") !== "production";
  const server = await serve({
    orm,
    schema: example.schema(),
    port: Number(Deno.env.get("PORT") ?? 8000),
    preset: { transactioner: replicas.length > 0 ? { readYourWrites: { seconds: 5 } } : {} },
    ...(origins.length ? { cors: { origins } } : {}),
    graphiql,
    ...(redis ? { changes: { redis, prefix: Deno.env.get("REDIS_PREFIX") } } : {}),
    ...(perClient ? { subscriptions: { maxSubscriptionsPerClient: Number(perClient) } } : {}),
    ...example.serve,
  });
  const body = JSON.stringify({ query: example.sample.replace(/\s+/g, " ").trim() });
  console.log(
    `${empty ? "seeded" : "kept the existing rows"}; ${
      graphiql ? "GraphiQL" : "GraphQL"
    } at ${server.url}`,
  );
  console.log(`try:\ncurl -s ${server.url} -H 'content-type: application/json' \\\n  -d '${body}'`);
  return server;
}
