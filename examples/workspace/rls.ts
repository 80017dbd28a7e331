/**
 * PostgreSQL row-level security for the workspace, the second wall behind `policies.ts`: the
 * same read rules as database policies, and write checks (memberships by OWNERs, projects and
 * tasks by OWNERs and EDITORs, comments in the viewer's own name), enforced for a role that does
 * not own the tables, with the viewer's username in the transaction-local setting `app.viewer`
 * (`ctx.databaseSession`, applied by the Transactioner after `BEGIN`). Policies that must read
 * memberships call `security definer` functions (owned by the tables' owner, so they read the
 * memberships without recursing into their own policy).
 *
 * ```sh
 * DATABASE_URL=postgres://postgres@127.0.0.1:5432/workspace deno run -A examples/workspace/server.ts
 * ```
 *
 * @module
 */
import type { MikroORM, SessionContext } from "@mikro-orm/core";

/** The role requests run as in PostgreSQL mode (`WORKSPACE_DB_ROLE`, default `workspace_app`). */
export function applicationRole(): string {
  return Deno.env.get("WORKSPACE_DB_ROLE") ?? "workspace_app";
}

/**
 * The database session of a request of `viewer` (a username, `undefined`: anonymous), for
 * `ctx.databaseSession`.
 */
export function databaseSession(
  viewer: string | undefined,
  role = applicationRole(),
): SessionContext {
  return { role, variables: { "app.viewer": viewer ?? "" } };
}

/** The statements that install the role's grants, the helper functions and the policies. */
function statements(role: string): string[] {
  const r = `"${role.replaceAll('"', '""')}"`;
  const fn = (name: string, returns: string, body: string, args = "") =>
    `create or replace function ${name}(${args}) returns ${returns} language sql stable ` +
    `security definer set search_path = public as $$ ${body} $$`;
  const tables = ["user", "organization", "membership", "project", "task", "comment"];
  return [
    `do $$ begin if not exists (select 1 from pg_roles where rolname = '${
      role.replaceAll("'", "''")
    }') then create role ${r} nologin; end if; end $$`,
    `grant usage on schema public to ${r}`,
    `grant select, insert, update, delete on all tables in schema public to ${r}`,
    `grant usage, select on all sequences in schema public to ${r}`,
    fn(
      "ws_viewer_id",
      "int",
      `select id from "user" where username = nullif(current_setting('app.viewer', true), '')`,
    ),
    // The organizations the viewer holds one of `roles` in (null: any role).
    fn(
      "ws_member_orgs",
      "setof int",
      `select organization_id from membership where user_id = ws_viewer_id() and (roles is null or role = any(roles))`,
      "roles text[]",
    ),
    fn(
      "ws_visible_users",
      "setof int",
      `select ws_viewer_id() union select user_id from membership where organization_id in (select ws_member_orgs(null))`,
    ),
    ...tables.flatMap((table) => [
      `alter table "${table}" enable row level security`,
      `drop policy if exists ws_read on "${table}"`,
      `drop policy if exists ws_insert on "${table}"`,
      `drop policy if exists ws_update on "${table}"`,
      `drop policy if exists ws_delete on "${table}"`,
    ]),
    // Reads: policies.ts's read rules.
    `create policy ws_read on "organization" for select to ${r} using (id in (select ws_member_orgs(null)))`,
    `create policy ws_read on "membership" for select to ${r} using (organization_id in (select ws_member_orgs(null)))`,
    `create policy ws_read on "user" for select to ${r} using (id in (select ws_visible_users()))`,
    `create policy ws_read on "project" for select to ${r} using (organization_id in (select ws_member_orgs(null)))`,
    `create policy ws_read on "task" for select to ${r} using (project_id in (select id from project) and (not confidential or assignee_id = ws_viewer_id() or project_id in (select id from project where organization_id in (select ws_member_orgs(array['OWNER'])))))`,
    `create policy ws_read on "comment" for select to ${r} using (task_id in (select id from task))`,
    // Users and organizations are not written through the API; their update policy lets a
    // locked read (`FOR UPDATE` of a joined row) find what the select policy shows, and refuses
    // any change.
    `create policy ws_update on "user" for update to ${r} using (true) with check (false)`,
    `create policy ws_update on "organization" for update to ${r} using (true) with check (false)`,
    // Writes: who may write where (the application's rules add the rest).
    ...["insert", "update", "delete"].flatMap((command) => {
      const owner = `organization_id in (select ws_member_orgs(array['OWNER']))`;
      const editor = `organization_id in (select ws_member_orgs(array['OWNER', 'EDITOR']))`;
      const editorTask =
        `project_id in (select id from project where organization_id in (select ws_member_orgs(array['OWNER', 'EDITOR'])))`;
      const ownerTask =
        `project_id in (select id from project where organization_id in (select ws_member_orgs(array['OWNER'])))`;
      // An update's USING lets every row the select policy shows through (a locked read,
      // `SELECT ... FOR UPDATE`, must find every visible row: the application answers
      // FORBIDDEN, not NOT_FOUND); its check is on the row as written.
      const clause = (text: string) =>
        command === "insert"
          ? `with check (${text})`
          : command === "update"
          ? `using (true) with check (${text})`
          : `using (${text})`;
      const own = `author_id = ws_viewer_id()`;
      return [
        `create policy ws_${command} on "membership" for ${command} to ${r} ${clause(owner)}`,
        `create policy ws_${command} on "project" for ${command} to ${r} ${
          clause(command === "delete" ? owner : editor)
        }`,
        `create policy ws_${command} on "task" for ${command} to ${r} ${
          clause(command === "delete" ? ownerTask : editorTask)
        }`,
        `create policy ws_${command} on "comment" for ${command} to ${r} ${
          clause(
            command === "insert"
              ? `${own} and task_id in (select id from task)`
              : command === "update"
              ? own
              : `${own} or task_id in (select id from task where ${ownerTask})`,
          )
        }`,
      ];
    }),
  ];
}

/**
 * Installs the workspace's row-level security on a PostgreSQL database whose tables exist: the
 * role (created `nologin` when missing) with its grants, the helper functions and the policies
 * (replaced when present). Run it as the tables' owner.
 *
 * @param role the role requests run as (never the tables' owner or a superuser: they bypass RLS)
 */
export async function installRowLevelSecurity(
  orm: MikroORM,
  role = applicationRole(),
): Promise<void> {
  const connection = orm.em.getConnection();
  for (const statement of statements(role)) await connection.execute(statement);
}
