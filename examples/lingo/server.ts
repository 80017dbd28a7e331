/**
 * The lingo example server: a third-party-shaped model (an abstract base with a soft-delete
 * filter on by default and database-generated UUID keys, `text[]` and `jsonb` columns, a
 * self-referencing m:n through a pivot entity with columns, numeric enums with negative members
 * from a module outside `entities/`) served by GraphQL Yoga over `Deno.serve` on 127.0.0.1 with
 * GraphiQL, on an embedded SQLite database (or `DATABASE_URL`), seeded on start.
 *
 * ```sh
 * deno run -A examples/lingo/server.ts
 * ```
 *
 * @module
 */
import { serveExample } from "../serve.ts";
import { entities, ormOptions } from "./entities.ts";
import { createSchema } from "./generated/mod.ts";
import { seed } from "./seed.ts";

const SAMPLE = `{
  learners(first: 3, orderBy: { field: NAME }) {
    edges { node { id name languages proficiency following { name } follows { since practiceLevel }
      decks { title words settings visibility } } }
  }
}`;

if (import.meta.main) {
  await serveExample({ entities, orm: ormOptions, schema: createSchema, seed, sample: SAMPLE });
}
