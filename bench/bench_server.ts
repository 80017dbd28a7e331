/**
 * The in-process Yoga server of the blog benchmarks (`bench/cpu.ts`, `bench/growth.ts` call it
 * without HTTP): the generated schema behind the stack the README tells a user who builds the
 * Yoga server to install, `mikrogqlPreset` (Jit, BodyLimit, Csrf, Limits, ClientErrors,
 * Transactioner, ReadRetry, Deadline, the bounded document cache,
 * `maxRequestBodySize: false`), a forked EntityManager per request, and a statement counter on
 * MikroORM's `onQuery` hook (not its debug logger, which formats a log line per statement).
 * `bench/graphql_server.ts` serves the same schema over HTTP with the package's `serve`.
 *
 * @module
 */
import type { MikroORM } from "@mikro-orm/core";
import { createYoga } from "graphql-yoga";
import { mikrogqlPreset } from "@mikrogql/ext";
import { openOrm } from "../server/open_orm.ts";
import { createSchema } from "../examples/blog/generated/mod.ts";
import { entities } from "../examples/blog/entities.ts";

/** A benchmark server over one database. */
export interface BenchServer {
  orm: MikroORM;
  yoga: ReturnType<typeof benchYoga>;
  /** SQL statements run since the server was opened. */
  statements(): number;
}

/** Options of {@linkcode openBenchServer}. */
export interface BenchServerOptions {
  /** The `Limits` plugin's cost limit (the other limits default). */
  maxCost?: number;
}

/**
 * Opens MikroORM on the blog schema at `url` (pool of 2–10 connections) and builds the Yoga
 * server.
 */
export async function openBenchServer(
  url: string,
  options: BenchServerOptions = {},
): Promise<BenchServer> {
  const { orm, statements } = await openBenchOrm(url);
  return { orm, yoga: benchYoga(orm, options), statements };
}

/**
 * Opens MikroORM on the blog schema at `url` with `openOrm` (pool of 2–10 connections; named
 * prepared statements on PostgreSQL unless `BENCH_PREPARED_STATEMENTS=0`) and counts the
 * statements it runs.
 */
export async function openBenchOrm(
  url: string,
): Promise<{ orm: MikroORM; statements: () => number }> {
  let statements = 0;
  const prepared = Deno.env.get("BENCH_PREPARED_STATEMENTS");
  const orm = await openOrm({
    entities,
    url,
    // `BENCH_PREPARED_STATEMENTS=0`: PostgreSQL statements unnamed (openOrm's default is 100)
    preparedStatements: prepared === undefined ? undefined : Number(prepared),
    extra: {
      pool: { min: 2, max: 10 },
      onQuery: (sql: string) => {
        statements++;
        return sql;
      },
    },
  });
  return { orm, statements: () => statements };
}

function benchYoga(orm: MikroORM, options: BenchServerOptions) {
  return createYoga({
    schema: createSchema(),
    context: () => ({ em: orm.em.fork() }),
    ...mikrogqlPreset({
      txOpener: orm,
      ...(options.maxCost ? { limits: { maxCost: options.maxCost } } : {}),
    }),
    logging: false,
  });
}
