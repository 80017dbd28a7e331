/**
 * The workspace example over HTTP with real JWTs (HS256, `jose`): authentication (no token is
 * anonymous, a bad one is 401), every read rule per seeded viewer (organizations, memberships,
 * users, projects, tasks with confidential ones, comments, `User.email`), counts and orders over
 * hidden rows, and every write rule (memberships by OWNERs, projects and tasks by OWNERs and
 * EDITORs, task deletes by OWNERs, comments in one's own name, edited by their author, deleted
 * by their author or an OWNER), each refusal checked against the database; sqlite, postgresql,
 * mariadb.
 */
import { assert, assertEquals, assertThrows } from "@std/assert";
import { SignJWT } from "jose";
import { Comment } from "../../examples/workspace/entities/comment.ts";
import { Membership } from "../../examples/workspace/entities/membership.ts";
import { Task } from "../../examples/workspace/entities/task.ts";
import { DEV_SECRET, jwtSecret, signToken, viewerOf } from "../../examples/workspace/auth.ts";
import { workspaceSchema } from "../../examples/workspace/schema.ts";
import { createSchema } from "../../examples/workspace/generated/mod.ts";
import { encodeGlobalId } from "../../runtime/plan/global_id.ts";
import { dialects } from "../support/databases.ts";
import { startServer } from "../support/server.ts";
import { openWorkspaceDatabase } from "../support/workspace_database.ts";

type Answer = {
  data?: Record<string, unknown> | null;
  errors?: { message: string; path?: (string | number)[]; extensions?: { code?: string } }[];
};

const secret = new TextEncoder().encode(DEV_SECRET);
const gid = (type: string, id: number) => encodeGlobalId(type, id);
const codes = (a: Answer) => (a.errors ?? []).map((e) => e.extensions?.code);
type Node = { node: Record<string, unknown> };
const names = (a: Answer, field: string, key: string) =>
  (a.data![field] as { edges: Node[] }).edges.map((e) => e.node[key]);

/** What each seeded viewer may read (`undefined`: anonymous). */
const SEES: Record<string, {
  organizations: string[];
  users: string[];
  emails: string[];
  projects: string[];
  tasks: string[];
  comments: string[];
}> = {
  ann: {
    organizations: ["Acme"],
    users: ["ann", "bob", "cat"],
    emails: ["ann", "bob", "cat"],
    projects: ["Website", "Launch"],
    tasks: ["Design homepage", "Fix login bug", "Salary review", "Press release"],
    comments: ["First draft is up", "Looks good", "Reproduced on Safari", "Budget +5%"],
  },
  bob: {
    organizations: ["Acme"],
    users: ["ann", "bob", "cat"],
    emails: ["bob"],
    projects: ["Website", "Launch"],
    tasks: ["Design homepage", "Press release"],
    comments: ["First draft is up", "Looks good"],
  },
  cat: {
    organizations: ["Acme"],
    users: ["ann", "bob", "cat"],
    emails: ["cat"],
    projects: ["Website", "Launch"],
    tasks: ["Design homepage", "Fix login bug", "Press release"],
    comments: ["First draft is up", "Looks good", "Reproduced on Safari"],
  },
  dan: {
    organizations: ["Globex"],
    users: ["dan"],
    emails: ["dan"],
    projects: ["Apollo"],
    tasks: ["Build rocket", "Secret plan"],
    comments: ["Engines ordered"],
  },
  eve: {
    organizations: [],
    users: ["eve"],
    emails: ["eve"],
    projects: [],
    tasks: [],
    comments: [],
  },
  anonymous: {
    organizations: [],
    users: [],
    emails: [],
    projects: [],
    tasks: [],
    comments: [],
  },
};

for (const dialect of dialects()) {
  Deno.test({
    name: `workspace: JWT viewers, read and write rules over HTTP (${dialect})`,
    sanitizeOps: false,
    sanitizeResources: false,
    fn: async (t) => {
      // On PostgreSQL, row-level security is on as the second wall.
      const { db, contextOf } = await openWorkspaceDatabase(dialect);
      const context = async ({ request }: { request: Request }) =>
        contextOf(await viewerOf(request, secret));
      const server = startServer(db.orm, workspaceSchema(), [], { context } as never);
      // The same API without the application's policies: on PostgreSQL only RLS guards it.
      const bare = startServer(db.orm, createSchema(), [], { context } as never);
      const tokens = new Map<string, string>();
      for (const user of ["ann", "bob", "cat", "dan", "eve"]) {
        tokens.set(user, await signToken(user, secret));
      }
      const post = async (headers: Record<string, string>, query: string, variables = {}) =>
        await fetch(server.url, {
          method: "POST",
          headers: { "content-type": "application/json", ...headers },
          body: JSON.stringify({ query, variables }),
        });
      const ask = async (viewer: string, query: string, variables = {}): Promise<Answer> => {
        const token = tokens.get(viewer);
        const response = await post(
          token ? { authorization: `Bearer ${token}` } : {},
          query,
          variables,
        );
        assertEquals(response.status, 200);
        return await response.json();
      };
      const fresh = () => db.orm.em.fork();
      try {
        await t.step("a bad token is 401, no token is anonymous", async () => {
          const wrongSecret = await signToken("ann", new TextEncoder().encode("not the secret"));
          const expired = await new SignJWT({}).setProtectedHeader({ alg: "HS256" })
            .setSubject("ann").setExpirationTime(Math.floor(Date.now() / 1000) - 60).sign(secret);
          const noSub = await new SignJWT({}).setProtectedHeader({ alg: "HS256" }).sign(secret);
          const unsigned = `${btoa(JSON.stringify({ alg: "none" }))}.${
            btoa(JSON.stringify({ sub: "ann" }))
          }.`.replaceAll("=", "");
          for (
            const header of [
              `Bearer ${wrongSecret}`,
              `Bearer ${expired}`,
              `Bearer ${noSub}`,
              `Bearer ${unsigned}`,
              `Basic YW5uOmFubg==`,
              `Bearer`,
            ]
          ) {
            const response = await post({ authorization: header }, `{ tasks { totalCount } }`);
            assertEquals(response.status, 401, header);
            const body = await response.json();
            assertEquals(body.data, undefined, header);
            assertEquals(body.errors?.[0]?.extensions?.code, "UNAUTHENTICATED", header);
          }
          // A token without exp is refused as well: it would never expire.
          const forever = await new SignJWT({}).setProtectedHeader({ alg: "HS256" })
            .setSubject("ann").sign(secret);
          assertEquals(
            (await post({ authorization: `Bearer ${forever}` }, `{ __typename }`)).status,
            401,
          );
          const anonymous = await ask("anonymous", `{ tasks { totalCount } }`);
          assertEquals(anonymous, { data: { tasks: { totalCount: 0 } } });
        });

        await t.step("each viewer reads what the rules let them", async () => {
          for (const [viewer, sees] of Object.entries(SEES)) {
            const answer = await ask(
              viewer,
              `{
                organizations { edges { node { name } } }
                users { edges { node { username email } } }
                projects { edges { node { name } } }
                tasks { totalCount edges { node { title } } }
                comments { totalCount edges { node { body } } }
              }`,
            );
            assertEquals(names(answer, "organizations", "name"), sees.organizations, viewer);
            assertEquals(names(answer, "users", "username"), sees.users, viewer);
            assertEquals(
              names(answer, "users", "email"),
              sees.users.map((u) => sees.emails.includes(u) ? `${u}@example.com` : null),
              viewer,
            );
            assertEquals(
              codes(answer),
              sees.users.filter((u) => !sees.emails.includes(u)).map(() => "FORBIDDEN"),
              viewer,
            );
            assertEquals(names(answer, "projects", "name"), sees.projects, viewer);
            assertEquals(names(answer, "tasks", "title"), sees.tasks, viewer);
            assertEquals(
              (answer.data!.tasks as { totalCount: number }).totalCount,
              sees.tasks.length,
            );
            assertEquals(names(answer, "comments", "body"), sees.comments, viewer);
            // Nested: an organization's projects, their tasks and comment counts, and the
            // COMMENTS_COUNT order count only what the viewer sees.
            const nested = await ask(
              viewer,
              `{ organizations { edges { node { projects { edges { node { tasks(orderBy: { field: COMMENTS_COUNT, direction: DESC }) { totalCount edges { node { title comments { totalCount } } } } } } } } } } }`,
            );
            assertEquals(codes(nested), [], viewer);
            const shown = JSON.stringify(nested);
            for (const title of SEES.ann.tasks.concat(SEES.dan.tasks)) {
              assertEquals(shown.includes(title), sees.tasks.includes(title), `${viewer} ${title}`);
            }
          }
          // Hidden rows in no count, predicate or order: bob does not see the confidential tasks.
          const bob = await ask(
            "bob",
            `{
              salary: tasks(where: { titleHasPrefix: "Sal" }) { totalCount }
              withComments: tasks(where: { hasCommentsWith: [{ bodyHasPrefix: "Budget" }] }) { totalCount }
              projects(where: { hasTasksWith: [{ confidential: true }] }) { totalCount }
              users(where: { hasMembershipsWith: [{ role: OWNER }] }) { edges { node { username } } }
              byCount: tasks(orderBy: { field: COMMENTS_COUNT, direction: DESC }) { edges { node { title comments { totalCount } } } }
            }`,
          );
          assertEquals(codes(bob), []);
          assertEquals(bob.data?.salary, { totalCount: 0 });
          assertEquals(bob.data?.withComments, { totalCount: 0 });
          assertEquals(bob.data?.projects, { totalCount: 0 });
          assertEquals(bob.data?.users, { edges: [{ node: { username: "ann" } }] });
          assertEquals(bob.data?.byCount, {
            edges: [
              { node: { title: "Design homepage", comments: { totalCount: 2 } } },
              { node: { title: "Press release", comments: { totalCount: 0 } } },
            ],
          });
          // A predicate on email, which bob may not read on every row: FORBIDDEN.
          const emails = await ask(
            "bob",
            `{ users(where: { emailHasPrefix: "ann" }) { totalCount } }`,
          );
          assertEquals(emails.data, null);
          assertEquals(emails.errors?.map((e) => [e.path, e.extensions?.code]), [[
            ["users"],
            "FORBIDDEN",
          ]]);
          // Another organization's task by id: not found, as a missing one.
          const node = await ask("bob", `{ node(id: "${gid("Task", 5)}") { id } }`);
          const missing = await ask("bob", `{ node(id: "${gid("Task", 99)}") { id } }`);
          assertEquals(node.data, missing.data);
          assertEquals(codes(node), codes(missing));
        });

        const create = `mutation($input: CreateTaskInput!) { createTask(input: $input) { title } }`;
        await t.step("tasks: OWNERs and EDITORs write, OWNERs delete", async () => {
          const input = (title: string, project = 1) => ({
            input: { title, projectID: gid("Project", project) },
          });
          assertEquals(codes(await ask("cat", create, input("by cat"))), ["FORBIDDEN"]);
          assertEquals(codes(await ask("anonymous", create, input("by nobody"))), ["NOT_FOUND"]);
          assertEquals(codes(await ask("dan", create, input("by dan"))), ["NOT_FOUND"]);
          assertEquals(await ask("bob", create, input("by bob")), {
            data: { createTask: { title: "by bob" } },
          });
          assertEquals(await fresh().count(Task, { title: { $like: "by %" } }), 1);
          // The server sets createdBy to the viewer.
          const created = await fresh().findOneOrFail(Task, { title: "by bob" }, {
            populate: ["createdBy"],
          });
          assertEquals(created.createdBy?.username, "bob");
          // Only an OWNER sets confidential: bob (EDITOR, assignee of task 1) may not, ann may.
          const secret =
            `mutation($id: ID!, $c: Boolean) { updateTask(id: $id, input: { confidential: $c }) { confidential } }`;
          const refused = await ask("bob", secret, { id: gid("Task", 1), c: true });
          assertEquals(refused.errors?.map((e) => e.message), [
            "cannot update Task: this viewer may not set input.confidential",
          ]);
          assertEquals((await fresh().findOneOrFail(Task, 1)).confidential, false);
          assertEquals(
            codes(
              await ask("bob", create, {
                input: { title: "hid", confidential: true, projectID: gid("Project", 1) },
              }),
            ),
            ["FORBIDDEN"],
          );
          assertEquals(await ask("ann", secret, { id: gid("Task", 4), c: false }), {
            data: { updateTask: { confidential: false } },
          });
          // A move to a project bob cannot see: NOT_FOUND; within Acme: allowed.
          const move =
            `mutation($id: ID!, $p: ID!) { updateTask(id: $id, input: { projectID: $p }) { project { name } } }`;
          assertEquals(
            codes(await ask("bob", move, { id: gid("Task", 1), p: gid("Project", 3) })),
            ["NOT_FOUND"],
          );
          assertEquals(await ask("bob", move, { id: gid("Task", 1), p: gid("Project", 2) }), {
            data: { updateTask: { project: { name: "Launch" } } },
          });
          const remove = `mutation($id: ID!) { deleteTask(id: $id) }`;
          assertEquals(codes(await ask("bob", remove, { id: gid("Task", 4) })), ["FORBIDDEN"]);
          assert(await fresh().findOne(Task, 4));
          assertEquals(await ask("ann", remove, { id: gid("Task", 4) }), {
            data: { deleteTask: gid("Task", 4) },
          });
          assertEquals(await fresh().findOne(Task, 4), null);
          // Projects: EDITORs rename, VIEWERs do not.
          const rename =
            `mutation($id: ID!) { updateProject(id: $id, input: { name: "Site" }) { name } }`;
          assertEquals(codes(await ask("cat", rename, { id: gid("Project", 1) })), ["FORBIDDEN"]);
          assertEquals(await ask("bob", rename, { id: gid("Project", 1) }), {
            data: { updateProject: { name: "Site" } },
          });
        });

        await t.step("memberships: OWNERs only", async () => {
          const join =
            `mutation($input: CreateMembershipInput!) { createMembership(input: $input) { role } }`;
          const eve = {
            input: {
              role: "VIEWER",
              organizationID: gid("Organization", 1),
              userID: gid("User", 5),
            },
          };
          // eve is not visible to bob (no shared organization): NOT_FOUND before any rule.
          assertEquals(codes(await ask("bob", join, eve)), ["NOT_FOUND"]);
          const catAgain = {
            input: {
              role: "OWNER",
              organizationID: gid("Organization", 1),
              userID: gid("User", 3),
            },
          };
          assertEquals(codes(await ask("bob", join, catAgain)), ["FORBIDDEN"]);
          assertEquals(await fresh().count(Membership), 4);
          // The one-request takeover: a VIEWER (cat) or an EDITOR (bob) makes themselves OWNER,
          // bob deleting ann's membership in the same request; the rules judge the memberships
          // as they were before the write, so each is FORBIDDEN with nothing written.
          const self = (user: number) => ({
            input: {
              role: "OWNER",
              organizationID: gid("Organization", 1),
              userID: gid("User", user),
            },
          });
          assertEquals(codes(await ask("cat", join, self(3))), ["FORBIDDEN"]);
          assertEquals(codes(await ask("bob", join, self(2))), ["FORBIDDEN"]);
          const takeover =
            `mutation($input: CreateMembershipInput!, $owner: ID!) { createMembership(input: $input) { role } deleteMembership(id: $owner) }`;
          const both = await ask("bob", takeover, { ...self(2), owner: gid("Membership", 1) });
          assertEquals(both.data, null);
          assertEquals(codes(both), ["FORBIDDEN"]);
          assertEquals(
            codes(await ask("bob", `mutation { deleteMembership(id: "${gid("Membership", 1)}") }`)),
            [
              "FORBIDDEN",
            ],
          );
          assertEquals(await fresh().count(Membership), 4);
          assertEquals((await fresh().findOneOrFail(Membership, 1)).role, "OWNER");
          // No organization without an OWNER: ann, Acme's only OWNER, neither leaves nor steps
          // down; a membership never moves (only its role is set).
          const leave = await ask(
            "ann",
            `mutation { deleteMembership(id: "${gid("Membership", 1)}") }`,
          );
          assertEquals(leave.errors?.map((e) => e.message), [
            "cannot delete Membership: the delete rule of its policy refuses this viewer",
          ]);
          const demote = await ask(
            "ann",
            `mutation { updateMembership(id: "${
              gid("Membership", 1)
            }", input: { role: EDITOR }) { role } }`,
          );
          assertEquals(codes(demote), ["FORBIDDEN"]);
          const move = await ask(
            "ann",
            `mutation { updateMembership(id: "${gid("Membership", 2)}", input: { userID: "${
              gid("User", 3)
            }" }) { role } }`,
          );
          assertEquals(move.errors?.map((e) => e.message), [
            "cannot update Membership: this viewer may not set input.userID",
          ]);
          assertEquals(
            (await fresh().find(Membership, {}, { orderBy: { id: "asc" } })).map((m) => m.role),
            ["OWNER", "EDITOR", "VIEWER", "OWNER"],
          );
          const promote =
            `mutation($id: ID!) { updateMembership(id: $id, input: { role: OWNER }) { role } }`;
          assertEquals(codes(await ask("cat", promote, { id: gid("Membership", 3) })), [
            "FORBIDDEN",
          ]);
          assertEquals(await ask("ann", promote, { id: gid("Membership", 3) }), {
            data: { updateMembership: { role: "OWNER" } },
          });
          // cat, now an OWNER of Acme, sees the confidential salary review (Acme's tasks: 1, 2,
          // 3 and bob's; 4 was deleted) and bob's email.
          const cat = await ask(
            "cat",
            `{ tasks { totalCount } users { edges { node { email } } } }`,
          );
          assertEquals(cat.data?.tasks, { totalCount: 4 });
          assertEquals(codes(cat), []);
        });

        await t.step(
          "comments: in one's own name, edited by the author, deleted by author or OWNER",
          async () => {
            const comment =
              `mutation($input: CreateCommentInput!) { createComment(input: $input) { body author { username } } }`;
            const on = (task: number, author: number) => ({
              input: { body: "hi", taskID: gid("Task", task), authorID: gid("User", author) },
            });
            const before = await fresh().count(Comment);
            assertEquals((await ask("bob", comment, on(1, 1))).errors?.map((e) => e.message), [
              "cannot create Comment: input.authorID is set by the server for this viewer",
            ]);
            assertEquals(codes(await ask("bob", comment, on(2, 2))), ["NOT_FOUND"]);
            assertEquals(codes(await ask("anonymous", comment, on(1, 2))), ["NOT_FOUND"]);
            assertEquals(await fresh().count(Comment), before);
            assertEquals(await ask("bob", comment, on(1, 2)), {
              data: { createComment: { body: "hi", author: { username: "bob" } } },
            });
            const edit =
              `mutation($id: ID!) { updateComment(id: $id, input: { body: "edited" }) { body } }`;
            assertEquals(codes(await ask("bob", edit, { id: gid("Comment", 2) })), ["FORBIDDEN"]);
            assertEquals((await fresh().findOneOrFail(Comment, 2)).body, "Looks good");
            assertEquals(await ask("cat", edit, { id: gid("Comment", 2) }), {
              data: { updateComment: { body: "edited" } },
            });
            const remove = `mutation($id: ID!) { deleteComment(id: $id) }`;
            assertEquals(codes(await ask("bob", remove, { id: gid("Comment", 2) })), ["FORBIDDEN"]);
            assertEquals(await ask("ann", remove, { id: gid("Comment", 2) }), {
              data: { deleteComment: gid("Comment", 2) },
            });
            assertEquals(await ask("bob", remove, { id: gid("Comment", 1) }), {
              data: { deleteComment: gid("Comment", 1) },
            });
            assertEquals(await fresh().count(Comment), before - 1);
          },
        );
        if (dialect === "postgresql") {
          await t.step(
            "RLS alone (no application policy) reads and writes as the rules say",
            async () => {
              const askBare = async (viewer: string, query: string): Promise<Answer> => {
                const response = await fetch(bare.url, {
                  method: "POST",
                  headers: {
                    "content-type": "application/json",
                    authorization: `Bearer ${tokens.get(viewer)}`,
                  },
                  body: JSON.stringify({ query }),
                });
                return await response.json();
              };
              for (const viewer of ["bob", "dan", "eve"]) {
                const answer = await askBare(viewer, `{ tasks { edges { node { title } } } }`);
                const shown = names(answer, "tasks", "title");
                const expected = await fresh().find(Task, {}, { orderBy: { id: "asc" } });
                // What the application's rules show this viewer now (the steps above changed rows).
                const visible = names(
                  await ask(viewer, `{ tasks { edges { node { title } } } }`),
                  "tasks",
                  "title",
                );
                assertEquals(shown, visible, viewer);
                assert(expected.length > shown.length, viewer);
              }
              // bob (EDITOR) makes himself OWNER without the application's rules: the database's
              // WITH CHECK refuses it (FORBIDDEN), nothing written.
              const grab = await askBare(
                "bob",
                `mutation { createMembership(input: { role: OWNER, organizationID: "${
                  gid("Organization", 1)
                }", userID: "${gid("User", 2)}" }) { role } }`,
              );
              assertEquals(codes(grab), ["FORBIDDEN"]);
              assertEquals(await fresh().count(Membership, { user: 2, role: "OWNER" }), 0);
            },
          );
        }
      } finally {
        await bare.close();
        await server.close();
        await db.close();
      }
    },
  });
}

Deno.test("workspace: under NODE_ENV=production the server needs JWT_SECRET (not the development one)", () => {
  const env = (vars: Record<string, string>) => ({ get: (name: string) => vars[name] });
  const production = { NODE_ENV: "production" };
  assertThrows(
    () => jwtSecret(env(production)),
    Error,
    "JWT_SECRET must be set under NODE_ENV=production",
  );
  assertThrows(
    () => jwtSecret(env({ ...production, JWT_SECRET: DEV_SECRET })),
    Error,
    "JWT_SECRET must be set",
  );
  const real = jwtSecret(env({ ...production, JWT_SECRET: "a real secret" }));
  assertEquals(new TextDecoder().decode(real), "a real secret");
  assertEquals(new TextDecoder().decode(jwtSecret(env({}))), DEV_SECRET);
});
