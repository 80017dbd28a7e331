/**
 * The workspace example server: a multi-tenant task tracker whose policies (`policies.ts`) decide
 * who reads and writes what, the viewer from an `Authorization: Bearer <JWT>` header (`auth.ts`);
 * on embedded SQLite (or `DATABASE_URL`), seeded on start. With a PostgreSQL `DATABASE_URL`,
 * row-level security is the second wall (`rls.ts`): installed on start, every request runs as the
 * role `WORKSPACE_DB_ROLE` (default `workspace_app`, not the tables' owner) with its viewer in
 * `app.viewer`. Under `NODE_ENV=production` it refuses to start without `JWT_SECRET`.
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
import { databaseSession, installRowLevelSecurity } from "./rls.ts";
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
  const postgres = /^postgres(ql)?:/.test(Deno.env.get("DATABASE_URL") ?? "");
  await serveExample({
    entities,
    schema: workspaceSchema,
    seed,
    sample: SAMPLE,
    prepare: postgres ? (orm) => installRowLevelSecurity(orm) : undefined,
    serve: {
      context: async ({ request }) => {
        const viewer = await viewerOf(request, secret);
        return { viewer, ...(postgres ? { databaseSession: databaseSession(viewer) } : {}) };
      },
    },
  });
}
