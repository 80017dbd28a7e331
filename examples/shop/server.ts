/**
 * The shop example server: the kitchen-sink model (every MikroORM mapping feature) served by
 * GraphQL Yoga over `Deno.serve` on 127.0.0.1 with GraphiQL, on an embedded SQLite database (or
 * `DATABASE_URL`), seeded on start.
 *
 * ```sh
 * deno run -A examples/shop/server.ts
 * DATABASE_URL=postgres://postgres@127.0.0.1:5432/test deno run -A examples/shop/server.ts
 * ```
 *
 * @module
 */
import { serveExample } from "../serve.ts";
import { entities } from "./entities.ts";
import { createSchema } from "./generated/mod.ts";
import { seed } from "./seed.ts";

const SAMPLE = `{
  customers(first: 2, orderBy: { field: NAME }) {
    edges { node { id name tier priority interests nicknames orderCount address { city geo { lat } }
      orders(first: 2) { edges { node { status summary parcels { size } payments { __typename amount } } } } } }
  }
}`;

if (import.meta.main) {
  await serveExample({ entities, schema: createSchema, seed, sample: SAMPLE });
}
