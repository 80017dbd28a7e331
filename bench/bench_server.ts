/**
 * The Yoga server of the blog benchmarks (`bench/graphql_server.ts` serves it over HTTP,
 * `bench/cpu.ts` calls it in-process): the generated schema (or the naive per-parent one) with the
 * production settings of the README (`Jit` first, `BodyLimit` with `maxRequestBodySize: false`),
 * a forked EntityManager per request, and a statement counter on MikroORM's `onQuery` hook (not
 * its debug logger, which formats a log line per statement).
 *
 * @module
 */
import type { MikroORM } from "@mikro-orm/core";
import { createYoga } from "graphql-yoga";
import { BodyLimit, Jit, Limits } from "@mikrogql/ext";
import { openDatabase } from "../examples/database.ts";
import { createSchema } from "../examples/blog/generated/mod.ts";
import { entities } from "../examples/blog/entities.ts";
import { naiveSchema } from "./naive_server.ts";

/** A benchmark server over one database. */
export interface BenchServer {
  orm: MikroORM;
  yoga: ReturnType<typeof benchYoga>;
  /** SQL statements run since the server was opened. */
  statements(): number;
}

/**
 * Opens MikroORM on the blog schema at `url` (pool of 2–10 connections) and builds the Yoga
 * server.
 *
 * @param options `naive`: the per-parent schema of `bench/naive_server.ts`; `maxCost`: install
 *   the `Limits` plugin with that cost limit (the other limits default)
 */
export async function openBenchServer(
  url: string,
  options: { naive?: boolean; maxCost?: number } = {},
): Promise<BenchServer> {
  let statements = 0;
  const orm = await openDatabase({
    entities,
    url,
    extra: {
      pool: { min: 2, max: 10 },
      onQuery: (sql: string) => {
        statements++;
        return sql;
      },
    },
  });
  return { orm, yoga: benchYoga(orm, options), statements: () => statements };
}

function benchYoga(orm: MikroORM, options: { naive?: boolean; maxCost?: number }) {
  return createYoga({
    schema: options.naive ? naiveSchema() : createSchema(),
    context: () => ({ em: orm.em.fork() }),
    maxRequestBodySize: false,
    plugins: [
      Jit(),
      BodyLimit(),
      ...(options.maxCost ? [Limits({ maxCost: options.maxCost })] : []),
    ],
    logging: false,
  });
}
