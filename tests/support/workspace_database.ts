/**
 * The workspace example (`examples/workspace`) on a test database: seeded, and on PostgreSQL with
 * row-level security on as the second wall (the example's PostgreSQL mode: every request runs as
 * a role that does not own the tables).
 *
 * @module
 */
import { entities } from "../../examples/workspace/entities.ts";
import { seed } from "../../examples/workspace/seed.ts";
import { databaseSession, installRowLevelSecurity } from "../../examples/workspace/rls.ts";
import { databasePrefix, type Dialect, openTestOrm, type TestOrm } from "./databases.ts";

/** A seeded workspace database and the GraphQL context of a request by `viewer`. */
export interface WorkspaceDatabase {
  db: TestOrm;
  /** Whether row-level security is on (PostgreSQL). */
  rls: boolean;
  /** A request's context: its own fork, the viewer, and on PostgreSQL its database session. */
  contextOf(viewer: string | undefined): Record<string, unknown>;
}

/** Opens a new test database of `dialect` with the workspace example's tables, seeded. */
export async function openWorkspaceDatabase(dialect: Dialect): Promise<WorkspaceDatabase> {
  const db = await openTestOrm(dialect, entities);
  await seed(db.orm.em.fork());
  const role = `${databasePrefix()}workspace_app`;
  const rls = dialect === "postgresql";
  if (rls) await installRowLevelSecurity(db.orm, role);
  return {
    db,
    rls,
    contextOf: (viewer) => ({
      em: db.orm.em.fork(),
      viewer,
      ...(rls ? { databaseSession: databaseSession(viewer, role) } : {}),
    }),
  };
}
