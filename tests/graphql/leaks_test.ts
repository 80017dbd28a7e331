/**
 * The leaks of a MikroORM filter as the only lever of authorization, tried as an attacker would
 * (issue 26): viewer 1 may read only their own posts, through a filter on the request's
 * EntityManager, in both ways a server sets one — `em.addFilter` on the request's fork, and a
 * filter declared in the ORM config whose parameters the request sets (`em.setFilterParams`) —
 * and through a policy's read rule (`definePolicy`). The read leaks are closed in
 * policy_read_test.ts.
 * The viewer comes from a request header; the server runs the Transactioner.
 *
 * Mutations: the row to update or delete, the ids of an input and the payload are read through
 * the request's filters (a hidden row is `NOT_FOUND` with the text of a missing one), and a row
 * written must be readable by its writer (`FORBIDDEN`, nothing written).
 *
 * Constraints (the workspace example, its JWT viewers and policies): a database constraint sees
 * every row, as PostgreSQL's own row-level security documents for unique and foreign keys (a
 * "covert channel"). A unique constraint scoped to what the writer sees (a project name per
 * organization) answers exactly as if the hidden rows did not exist; a constraint across tenants
 * (a name unique over all projects) cannot (the write would succeed without the hidden row, and
 * must not): its error is the one a visible row gives, carrying nothing of the hidden row and
 * writing nothing. The workspace's delete rules ask for an OWNER, who sees every row that
 * references the deleted one, so "other rows still reference" concerns visible rows only.
 */
import { assert, assertEquals, assertMatch } from "@std/assert";
import { Comment } from "../../examples/blog/entities/comment.ts";
import { Post } from "../../examples/blog/entities/post.ts";
import { User } from "../../examples/blog/entities/user.ts";
import { encodeGlobalId } from "../../runtime/plan/global_id.ts";
import { entities as workspaceEntities } from "../../examples/workspace/entities.ts";
import { seed as seedWorkspace } from "../../examples/workspace/seed.ts";
import { workspaceSchema } from "../../examples/workspace/schema.ts";
import { DEV_SECRET, signToken, viewerOf } from "../../examples/workspace/auth.ts";
import { dialects, openTestOrm, type TestOrm } from "../support/databases.ts";
import { testOwnPostsRules } from "../support/own_posts.ts";
import { startServer } from "../support/server.ts";

type Answer = {
  data?: Record<string, unknown> | null;
  errors?: { message: string; path?: (string | number)[]; extensions?: { code?: string } }[];
};

/** Posts `query` as the viewer `viewer` (a user id). */
async function ask(
  url: string,
  viewer: number,
  query: string,
  variables: Record<string, unknown> = {},
): Promise<Answer> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", "x-viewer": String(viewer) },
    body: JSON.stringify({ query, variables }),
  });
  return await response.json();
}

function codes(answer: Answer): (string | undefined)[] {
  return (answer.errors ?? []).map((e) => e.extensions?.code);
}

async function mutationLeaks(db: TestOrm, url: string): Promise<void> {
  const em = db.orm.em.fork();
  const [me, other] = await em.find(User, {}, { orderBy: { id: "asc" }, limit: 2 });
  const all = { filters: false, orderBy: { id: "asc" } } as const;
  const mine = await em.findOneOrFail(Post, { author: me }, all);
  const theirs = await em.findOneOrFail(Post, { author: other }, all);
  const theirComment = await em.findOneOrFail(Comment, { post: theirs }, all);
  const id = (type: string, pk: number) => encodeGlobalId(type, pk);
  const missing = id("Post", 999_999);
  const notFound = (answer: Answer, gid: string) => {
    assertEquals(codes(answer), ["NOT_FOUND"], JSON.stringify(answer));
    assertEquals(
      answer.errors![0].message,
      `Could not resolve to a node with the global id of '${gid}'`,
    );
    assertEquals(answer.data, null);
  };
  const count = () => db.orm.em.fork().count(Post, {}, { filters: false });
  const before = await count();

  // updatePost of another user's post: NOT_FOUND as a missing id, its title nowhere.
  for (const gid of [id("Post", theirs.id), missing]) {
    const r = await ask(
      url,
      me.id,
      `mutation($id: ID!) { updatePost(id: $id, input: { title: "mine now" }) { title } }`,
      { id: gid },
    );
    notFound(r, gid);
    assert(!JSON.stringify(r).includes(theirs.title));
  }
  // deletePost of another user's referenced post: NOT_FOUND, not "other rows still reference".
  for (const gid of [id("Post", theirs.id), missing]) {
    notFound(await ask(url, me.id, `mutation($id: ID!) { deletePost(id: $id) }`, { id: gid }), gid);
  }
  // createComment on another user's post: its id is not found, as a missing one.
  for (const gid of [id("Post", theirs.id), missing]) {
    const r = await ask(
      url,
      me.id,
      `mutation($input: CreateCommentInput!) { createComment(input: $input) { id } }`,
      { input: { text: "hi", postID: gid, authorID: id("User", me.id) } },
    );
    assertEquals(codes(r), ["NOT_FOUND"]);
    assertEquals(r.errors![0].message, `input.postID: no Post has the global id "${gid}"`);
  }
  // Moving another user's comment onto one's own post: the comment is not found.
  const moved = await ask(
    url,
    me.id,
    `mutation($id: ID!, $c: ID!) { updatePost(id: $id, input: { addCommentIDs: [$c] }) { id } }`,
    { id: id("Post", mine.id), c: id("Comment", theirComment.id) },
  );
  assertEquals(codes(moved), ["NOT_FOUND"]);
  // createPost in another user's name: the post would not be readable by its writer.
  const forged = await ask(
    url,
    me.id,
    `mutation($input: CreatePostInput!) { createPost(input: $input) { id title } }`,
    { input: { title: "forged", body: "b", authorID: id("User", other.id) } },
  );
  assertEquals(codes(forged), ["FORBIDDEN"]);
  assertEquals(forged.data, null);
  // Handing one's own post to another user: the same.
  const handed = await ask(
    url,
    me.id,
    `mutation($id: ID!, $a: ID!) { updatePost(id: $id, input: { authorID: $a }) { id } }`,
    { id: id("Post", mine.id), a: id("User", other.id) },
  );
  assertEquals(codes(handed), ["FORBIDDEN"]);
  // Payloads read through the filters: another user's posts are not in updateUser's payload.
  const payload = await ask(
    url,
    me.id,
    `mutation($id: ID!) { updateUser(id: $id, input: { name: "renamed" }) { name posts { totalCount edges { node { title } } } } }`,
    { id: id("User", other.id) },
  );
  assertEquals(payload.errors, undefined);
  assertEquals(payload.data, {
    updateUser: { name: "renamed", posts: { totalCount: 0, edges: [] } },
  });
  // Nothing of the refused mutations was written.
  const check = db.orm.em.fork();
  assertEquals(await count(), before);
  assertEquals(
    (await check.findOneOrFail(Post, theirs.id, { filters: false })).title,
    theirs.title,
  );
  assertEquals(
    (await check.findOneOrFail(Post, mine.id, { filters: false, populate: ["author"] })).author.id,
    me.id,
  );
  assertEquals(
    (await check.findOneOrFail(Comment, theirComment.id, { filters: false, populate: ["post"] }))
      .post.id,
    theirs.id,
  );
  // The viewer's own rows: read, updated, deleted as before (no INTERNAL_SERVER_ERROR).
  const own = await ask(
    url,
    me.id,
    `mutation($id: ID!) { updatePost(id: $id, input: { title: "still mine" }) { title author { id } comments { totalCount } } }`,
    { id: id("Post", mine.id) },
  );
  assertEquals(own.errors, undefined);
  assertEquals((own.data!.updatePost as { title: string }).title, "still mine");
  const created = await ask(
    url,
    me.id,
    `mutation($input: CreatePostInput!) { createPost(input: $input) { id title } }`,
    { input: { title: "new", body: "b", authorID: id("User", me.id) } },
  );
  assertEquals(created.errors, undefined);
  const gone = await ask(url, me.id, `mutation($id: ID!) { deletePost(id: $id) }`, {
    id: (created.data!.createPost as { id: string }).id,
  });
  assertEquals(gone.errors, undefined);
  assertMatch(String(gone.data!.deletePost), /./);
}

testOwnPostsRules("leaks: mutations read through the request's filter", mutationLeaks);

/** Posts `query` to the workspace server as `viewer` (a seeded username), with a real JWT. */
async function askAs(
  url: string,
  viewer: string,
  query: string,
  variables: Record<string, unknown> = {},
): Promise<Answer> {
  const secret = new TextEncoder().encode(DEV_SECRET);
  const response = await fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      authorization: `Bearer ${await signToken(viewer, secret)}`,
    },
    body: JSON.stringify({ query, variables }),
  });
  return await response.json();
}

const CREATE_PROJECT =
  `mutation($input: CreateProjectInput!) { createProject(input: $input) { name organization { name } } }`;
const RENAME_PROJECT =
  `mutation($id: ID!, $name: String!) { updateProject(id: $id, input: { name: $name }) { name } }`;

/** The workspace's projects as the database holds them, `organization/name` sorted. */
async function projectRows(db: TestOrm): Promise<string[]> {
  const rows: { organization_id: number; name: string }[] = await db.orm.em.fork()
    .getConnection().execute("select organization_id, name from project");
  return rows.map((r) => `${r.organization_id}/${r.name}`).sort();
}

/** The workspace server on a fresh seeded database, with `constraint` (SQL) added when given. */
async function workspaceServer(
  dialect: Parameters<typeof openTestOrm>[0],
  constraint?: string,
): Promise<{ db: TestOrm; url: string; close: () => Promise<void> }> {
  const db = await openTestOrm(dialect, workspaceEntities);
  await seedWorkspace(db.orm.em.fork());
  if (constraint) await db.orm.em.fork().getConnection().execute(constraint);
  const secret = new TextEncoder().encode(DEV_SECRET);
  const server = startServer(db.orm, workspaceSchema(), [], {
    context: async ({ request }: { request: Request }) => ({
      em: db.orm.em.fork(),
      viewer: await viewerOf(request, secret),
    }),
  } as never);
  return {
    db,
    url: server.url,
    close: async () => {
      await server.close();
      await db.close();
    },
  };
}

const ACME = encodeGlobalId("Organization", 1);
const WEBSITE = encodeGlobalId("Project", 1);

for (const dialect of dialects()) {
  Deno.test({
    name:
      `leaks: a unique constraint per organization answers as if hidden rows did not exist (${dialect})`,
    sanitizeOps: false,
    sanitizeResources: false,
    fn: async () => {
      const { db, url, close } = await workspaceServer(
        dialect,
        "create unique index project_organization_name on project (organization_id, name)",
      );
      try {
        // "Apollo" is Globex's, which ann (OWNER of Acme) cannot see: the create and the rename
        // succeed, as on a database without Globex.
        const created = await askAs(url, "ann", CREATE_PROJECT, {
          input: { name: "Apollo", organizationID: ACME },
        });
        assertEquals(created, {
          data: { createProject: { name: "Apollo", organization: { name: "Acme" } } },
        });
        const renamed = await askAs(url, "ann", RENAME_PROJECT, { id: WEBSITE, name: "Apollo 2" });
        assertEquals(renamed, { data: { updateProject: { name: "Apollo 2" } } });
        // A name ann can see taken is refused, and nothing is written.
        const before = await projectRows(db);
        const taken = await askAs(url, "ann", CREATE_PROJECT, {
          input: { name: "Launch", organizationID: ACME },
        });
        assertEquals(taken.data, null);
        assertEquals(taken.errors?.map((e) => [e.extensions?.code, e.message]), [[
          "BAD_USER_INPUT",
          "cannot create Project: another Project already has the same value of a unique field",
        ]]);
        assertEquals(await projectRows(db), before);
        assertEquals(before, ["1/Apollo", "1/Apollo 2", "1/Launch", "2/Apollo"]);
      } finally {
        await close();
      }
    },
  });

  Deno.test({
    name:
      `leaks: a unique constraint across organizations tells a hidden row only as a visible one (${dialect})`,
    sanitizeOps: false,
    sanitizeResources: false,
    fn: async () => {
      const { db, url, close } = await workspaceServer(
        dialect,
        "create unique index project_name on project (name)",
      );
      try {
        const before = await projectRows(db);
        const answers = [];
        for (
          const [query, variables] of [
            [CREATE_PROJECT, { input: { name: "Apollo", organizationID: ACME } }], // Globex's
            [CREATE_PROJECT, { input: { name: "Launch", organizationID: ACME } }], // Acme's
            [RENAME_PROJECT, { id: WEBSITE, name: "Apollo" }],
            [RENAME_PROJECT, { id: WEBSITE, name: "Launch" }],
          ] as const
        ) {
          const answer = await askAs(url, "ann", query, variables);
          assertEquals(answer.data, null);
          answers.push(answer.errors);
          // Nothing of the hidden row: not its organization, its id or the constraint's name.
          for (const secret of ["Globex", "project_name", encodeGlobalId("Project", 3)]) {
            assert(!JSON.stringify(answer).includes(secret), secret);
          }
        }
        assertEquals(answers[0], answers[1]);
        assertEquals(answers[2], answers[3]);
        assertEquals(answers[0]?.map((e) => e.extensions?.code), ["BAD_USER_INPUT"]);
        // The write rule is asked before the database: cat (a VIEWER of Acme, who may not create
        // projects) learns nothing from the constraint (Hasura's issue 9838 is this the other way).
        for (const name of ["Apollo", "Launch", "Free"]) {
          const refused = await askAs(url, "cat", CREATE_PROJECT, {
            input: { name, organizationID: ACME },
          });
          assertEquals(refused.errors?.map((e) => [e.extensions?.code, e.message]), [[
            "FORBIDDEN",
            "cannot create Project: the create rule of its policy refuses this viewer",
          ]]);
        }
        assertEquals(await projectRows(db), before);
      } finally {
        await close();
      }
    },
  });

  Deno.test({
    name:
      `leaks: the rows that keep an OWNER's delete from happening are rows the OWNER sees (${dialect})`,
    sanitizeOps: false,
    sanitizeResources: false,
    fn: async () => {
      // No constraint added: the workspace's own foreign keys.
      const { db, url, close } = await workspaceServer(dialect);
      try {
        const seen = await askAs(
          url,
          "ann",
          `query($id: ID!) { node(id: $id) { ... on Project { tasks { totalCount } } } }`,
          { id: WEBSITE },
        );
        const [{ count }]: { count: number }[] = await db.orm.em.fork().getConnection()
          .execute("select count(*) as count from task where project_id = 1");
        assertEquals(seen, { data: { node: { tasks: { totalCount: Number(count) } } } });
        assert(Number(count) > 0);
        const refused = await askAs(url, "ann", `mutation($id: ID!) { deleteProject(id: $id) }`, {
          id: WEBSITE,
        });
        assertEquals(refused.errors?.map((e) => [e.extensions?.code, e.message]), [[
          "BAD_USER_INPUT",
          "cannot delete Project: other rows still reference this Project",
        ]]);
      } finally {
        await close();
      }
    },
  });
}
