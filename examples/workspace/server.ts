/**
 * The workspace example server: a multi-tenant task tracker whose policies (`policies.ts`) decide
 * who reads and writes what, the viewer from an `Authorization: Bearer <JWT>` header (`auth.ts`);
 * on embedded SQLite (or `DATABASE_URL`), seeded on start.
 *
 * ```sh
 * deno run -A examples/workspace/server.ts
 * TOKEN=$(deno run -A examples/workspace/token.ts ann)
 * curl -s localhost:8000/graphql -H "authorization: Bearer $TOKEN" \
 *   -H 'content-type: application/json' -d '{"query":"{ tasks { edges { node { title } } } }"}'
 * ```
 *
 * @module
 */
import { serveExample } from "../serve.ts";
import { jwtSecret, viewerOf } from "./auth.ts";
import { entities } from "./entities.ts";
import { workspaceSchema } from "./schema.ts";
import { seed } from "./seed.ts";

const SAMPLE = `{
  organizations { edges { node { name memberships { edges { node { role user { username email } } } } } } }
  tasks(orderBy: { field: COMMENTS_COUNT, direction: DESC }) {
    totalCount edges { node { title status confidential comments { totalCount } } }
  }
}`;

if (import.meta.main) {
  // Under NODE_ENV=production without JWT_SECRET this throws before anything is served.
  const secret = jwtSecret();
  await serveExample({
    entities,
    schema: workspaceSchema,
    seed,
    sample: SAMPLE,
    serve: { context: async ({ request }) => ({ viewer: await viewerOf(request, secret) }) },
  });
}
