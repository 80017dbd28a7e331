/**
 * The library example server: composite and natural keys (members keyed by name, copies by title
 * and copy number, branches by country and code) served by GraphQL Yoga over `Deno.serve` on
 * 127.0.0.1 with GraphiQL, on an embedded SQLite database (or `DATABASE_URL`), seeded on start.
 *
 * ```sh
 * deno run -A examples/library/server.ts
 * ```
 *
 * @module
 */
import { serveExample } from "../serve.ts";
import { entities } from "./entities.ts";
import { createSchema } from "./generated/mod.ts";
import { seed } from "./seed.ts";

const SAMPLE = `{
  loans(first: 3, orderBy: { field: DUE }) {
    edges { node { id due member { id age } copy { id condition title { name } branch { name } } } }
  }
}`;

if (import.meta.main) {
  await serveExample({ entities, schema: createSchema, seed, sample: SAMPLE });
}
