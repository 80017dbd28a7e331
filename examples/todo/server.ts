/**
 * The todo example server (entgql's todo example: its model, queries and mutations, with the
 * `createCategory`/`createTodos` and `clearTodos` extensions of `schema.ts`): GraphQL Yoga over
 * `Deno.serve` on 127.0.0.1 with GraphiQL, on embedded SQLite (or `DATABASE_URL`), seeded on
 * start.
 *
 * ```sh
 * deno run -A examples/todo/server.ts
 * DATABASE_URL=postgres://postgres@127.0.0.1:5432/test deno run -A examples/todo/server.ts
 * ```
 *
 * @module
 */
import { serveExample } from "../serve.ts";
import { entities } from "./entities.ts";
import { todoSchema } from "./schema.ts";
import { seed } from "./seed.ts";

const SAMPLE = `{
  todos(first: 3, orderBy: [{ field: STATUS }, { field: CHILDREN_COUNT, direction: DESC }],
        where: { or: [{ textContainsFold: "report" }, { hasParentWith: [{ status: PENDING }] }] }) {
    totalCount
    edges { cursor node { text status priority parent { text } category { text } } }
  }
}`;

if (import.meta.main) {
  await serveExample({ entities, schema: () => todoSchema(), seed, sample: SAMPLE });
}
