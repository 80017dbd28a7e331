/**
 * The RealWorld (Conduit) example server: GraphQL Yoga over `Deno.serve` on 127.0.0.1 with
 * GraphiQL, on embedded SQLite (or `DATABASE_URL`), seeded on start.
 *
 * ```sh
 * deno run -A gen/main.ts --config examples/realworld/gen.config.ts
 * deno run -A examples/realworld/server.ts
 * ```
 *
 * @module
 */
import { serveExample } from "../serve.ts";
import { entities } from "./entities.ts";
import { createSchema } from "./generated/mod.ts";
import { seed } from "./seed.ts";

const SAMPLE =
  `{ articles(first: 3) { edges { node { title tagList { name } favoritedBy(first: 2) { totalCount } } } } }`;

if (import.meta.main) {
  await serveExample({ entities, schema: createSchema, seed, sample: SAMPLE });
}
