/**
 * The blog example server: GraphQL Yoga over `Deno.serve` on 127.0.0.1 with GraphiQL, on an
 * embedded SQLite database (or `DATABASE_URL`), seeded on start.
 *
 * ```sh
 * deno task example                                   # SQLite in memory
 * DATABASE_URL=postgres://postgres@127.0.0.1:5432/test deno run -A examples/blog/server.ts
 * ```
 *
 * @module
 */
import { serveExample } from "../serve.ts";
import { entities } from "./entities.ts";
import { createSchema } from "./generated/mod.ts";
import { seed } from "./seed.ts";

const SAMPLE = `{
  users(first: 2, orderBy: { field: NAME, direction: DESC }) {
    totalCount
    pageInfo { hasNextPage endCursor }
    edges { cursor node { id name posts(first: 2) { edges { node { title status comments(first: 1) { totalCount } } } } } }
  }
}`;

if (import.meta.main) {
  await serveExample({ entities, schema: createSchema, seed, sample: SAMPLE });
}
