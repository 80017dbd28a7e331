/**
 * Policies' write rules and field read rules over HTTP, on the blog with the Transactioner: the
 * viewer (the `x-viewer` header, a user id) reads only their own posts; a post is updated only
 * while not archived and deleted only below 5 views; a comment is created only in the viewer's
 * name; a user's email is readable only by that user. Checked against the database after each
 * refusal (nothing written), on sqlite, postgresql, mariadb. On the todo example, a field rule
 * that lets a viewer read `status` on some rows only makes every order (`STATUS`, the unique
 * edge's `PARENT_STATUS`) and predicate on it `FORBIDDEN`, at the root and nested.
 */
import { assert, assertEquals, assertThrows } from "@std/assert";
import type { MikroContext } from "@mikrogql/ext";
import { definePolicy, fromContext } from "@mikrogql/ext";
import { Comment } from "../../examples/blog/entities/comment.ts";
import { Post } from "../../examples/blog/entities/post.ts";
import { User } from "../../examples/blog/entities/user.ts";
import { entities } from "../../examples/blog/entities.ts";
import { createSchema } from "../../examples/blog/generated/mod.ts";
import { seed } from "../../examples/blog/seed.ts";
import { encodeGlobalId } from "../../runtime/plan/global_id.ts";
import { Todo } from "../../examples/todo/entities/todo.ts";
import { entities as todoEntities } from "../../examples/todo/entities.ts";
import { createSchema as todoSchema } from "../../examples/todo/generated/mod.ts";
import { seed as seedTodo } from "../../examples/todo/seed.ts";
import { dialects, openTestOrm } from "../support/databases.ts";
import { openPolicies } from "../support/open_policies.ts";
import { startServer } from "../support/server.ts";

type Answer = {
  data?: Record<string, unknown> | null;
  errors?: { message: string; path?: (string | number)[]; extensions?: { code?: string } }[];
};

type Viewer = number | undefined;

const posts = definePolicy(Post, {
  read: (viewer: Viewer) => viewer === undefined ? false : { author: viewer },
  update: ({ before }) => before!.status !== "archived",
  delete: ({ before }) => before!.views! < 5,
});
const comments = definePolicy(Comment, {
  create: ({ viewer, after }) => after!.author.id === viewer,
});
const users = definePolicy(User, {
  fields: { email: (viewer: Viewer) => viewer === undefined ? false : { id: viewer } },
});
const POLICIES = [posts, comments, users];

const viewerOf = (ctx: MikroContext & { request: Request }) => {
  const header = ctx.request.headers.get("x-viewer");
  return header === null ? undefined : Number(header);
};

const gid = (type: string, id: number) => encodeGlobalId(type, id);
const codes = (a: Answer) => (a.errors ?? []).map((e) => e.extensions?.code);

Deno.test("policies: a field rule naming no field is a type error and an error of createSchema", () => {
  // @ts-expect-error `emial` is no property of User
  definePolicy(User, { fields: { emial: () => true } });
  const typo = definePolicy(User as never, { fields: { emial: () => true } as never });
  assertThrows(
    () => createSchema({ policies: [typo] }),
    Error,
    `the policy of User has a read rule for "emial", which is no field of User`,
  );
});

for (const dialect of dialects()) {
  Deno.test({
    name: `policies: write rules and field rules over HTTP (${dialect})`,
    sanitizeOps: false,
    sanitizeResources: false,
    fn: async () => {
      const db = await openTestOrm(dialect, entities);
      await seed(db.orm.em.fork());
      const schema = createSchema({
        policies: openPolicies(entities, POLICIES),
        viewer: viewerOf as never,
        typeDefs: "extend type Query { postCount: Int! }",
        resolvers: {
          Query: {
            // A resolver of the user's own reads through the read rules too.
            postCount: (_root: unknown, _args: unknown, ctx: MikroContext) =>
              fromContext(ctx).count(Post),
          },
        } as never,
      });
      const server = startServer(db.orm, schema, [], {
        context: ({ request }: { request: Request }) => ({ em: db.orm.em.fork(), request }),
      } as never);
      const ask = async (viewer: Viewer, query: string, variables = {}): Promise<Answer> => {
        const response = await fetch(server.url, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            ...(viewer === undefined ? {} : { "x-viewer": String(viewer) }),
          },
          body: JSON.stringify({ query, variables }),
        });
        return await response.json();
      };
      const fresh = () => db.orm.em.fork();
      try {
        // Field rule: the schema makes the field nullable.
        const type = await ask(1, `{ __type(name: "User") { fields { name type { kind } } } }`);
        const fields = (type.data!.__type as { fields: { name: string; type: { kind: string } }[] })
          .fields;
        assertEquals(fields.find((f) => f.name === "email")!.type.kind, "SCALAR");
        assertEquals(fields.find((f) => f.name === "name")!.type.kind, "NON_NULL");
        // The viewer's own email; every other one null with FORBIDDEN at its path.
        const all = await fresh().find(User, {}, { orderBy: { id: "asc" } });
        for (const viewer of [1, 3, undefined]) {
          const listed = await ask(viewer, `{ users { edges { node { id name email } } } }`);
          assertEquals(
            listed.data!.users,
            {
              edges: all.map((u) => ({
                node: {
                  id: gid("User", u.id),
                  name: u.name,
                  email: u.id === viewer ? u.email : null,
                },
              })),
            },
          );
          assertEquals(
            listed.errors?.map((e) => [e.path, e.extensions?.code]),
            all.flatMap((u, i) =>
              u.id === viewer ? [] : [[["users", "edges", i, "node", "email"], "FORBIDDEN"]]
            ),
          );
        }
        // Nested (through a comment's author) and through node(): the same rule.
        const nested = await ask(
          2,
          `{ node(id: "${
            gid("Post", 4)
          }") { ... on Post { comments { edges { node { author { id email } } } } } } }`,
        );
        const authors = await fresh().find(Comment, { post: 4 }, {
          populate: ["author"],
          orderBy: { id: "asc" },
        });
        assertEquals(
          nested.data!.node,
          {
            comments: {
              edges: authors.map((c) => ({
                node: {
                  author: {
                    id: gid("User", c.author.id),
                    email: c.author.id === 2 ? c.author.email : null,
                  },
                },
              })),
            },
          },
        );
        assert(authors.some((c) => c.author.id !== 2));
        assert(codes(nested).every((c) => c === "FORBIDDEN"));
        // A predicate on a field not readable on every row: FORBIDDEN, no data.
        for (const viewer of [1, undefined]) {
          const filtered = await ask(
            viewer,
            `{ users(where: { emailHasPrefix: "user1" }) { totalCount } }`,
          );
          assertEquals(codes(filtered), ["FORBIDDEN"]);
          assertEquals(filtered.errors![0].path, ["users"]);
          assert(!JSON.stringify(filtered).includes("@example.com"));
        }

        // A user resolver reads through the read rules.
        assertEquals((await ask(1, `{ postCount }`)).data, { postCount: 3 });
        assertEquals((await ask(undefined, `{ postCount }`)).data, { postCount: 0 });

        // Update rule: the viewer's archived post is refused, the published one is updated.
        const own = await fresh().find(Post, { author: 1 }, { orderBy: { id: "asc" } });
        const archived = own.find((p) => p.status === "archived")!;
        const published = own.find((p) => p.status === "published")!;
        const refused = await ask(
          1,
          `mutation($id: ID!) { updatePost(id: $id, input: { title: "changed" }) { title } }`,
          { id: gid("Post", archived.id) },
        );
        assertEquals(codes(refused), ["FORBIDDEN"]);
        assertEquals(refused.data, null);
        assertEquals((await fresh().findOneOrFail(Post, archived.id)).title, archived.title);
        const updated = await ask(
          1,
          `mutation($id: ID!) { updatePost(id: $id, input: { title: "changed" }) { title } }`,
          { id: gid("Post", published.id) },
        );
        assertEquals(updated, { data: { updatePost: { title: "changed" } } });
        // Another's post: NOT_FOUND exactly as a missing one.
        for (const id of [gid("Post", 4), gid("Post", 999)]) {
          const hidden = await ask(
            1,
            `mutation($id: ID!) { updatePost(id: $id, input: { title: "x" }) { title } }`,
            { id },
          );
          assertEquals(hidden.errors!.map((e) => [e.message, e.extensions?.code]), [[
            `Could not resolve to a node with the global id of '${id}'`,
            "NOT_FOUND",
          ]]);
        }

        // Delete rule: 6 views refused; a new post of 0 views deleted.
        assert(archived.views >= 5);
        const kept = await ask(1, `mutation($id: ID!) { deletePost(id: $id) }`, {
          id: gid("Post", archived.id),
        });
        assertEquals(codes(kept), ["FORBIDDEN"]);
        assert(await fresh().findOne(Post, archived.id));
        const created = await ask(
          1,
          `mutation($input: CreatePostInput!) { createPost(input: $input) { id views } }`,
          { input: { title: "new", body: "b", authorID: gid("User", 1) } },
        );
        assertEquals(codes(created), []);
        const newId = (created.data!.createPost as { id: string }).id;
        assertEquals(
          await ask(1, `mutation($id: ID!) { deletePost(id: $id) }`, { id: newId }),
          { data: { deletePost: newId } },
        );

        // Create rule: a comment in another's name is refused, in one's own name created.
        const before = await fresh().count(Comment);
        const forged = await ask(
          1,
          `mutation($input: CreateCommentInput!) { createComment(input: $input) { id } }`,
          { input: { text: "hi", postID: gid("Post", published.id), authorID: gid("User", 2) } },
        );
        assertEquals(codes(forged), ["FORBIDDEN"]);
        assertEquals(await fresh().count(Comment), before);
        const mine = await ask(
          1,
          `mutation($input: CreateCommentInput!) { createComment(input: $input) { text author { email } } }`,
          { input: { text: "hi", postID: gid("Post", published.id), authorID: gid("User", 1) } },
        );
        assertEquals(mine, {
          data: { createComment: { text: "hi", author: { email: all[0].email } } },
        });
        assertEquals(await fresh().count(Comment), before + 1);
      } finally {
        await server.close();
        await db.close();
      }
    },
  });
}

for (const dialect of dialects()) {
  Deno.test({
    name: `policies: orders and predicates on a field not readable on every row (${dialect})`,
    sanitizeOps: false,
    sanitizeResources: false,
    fn: async () => {
      const db = await openTestOrm(dialect, todoEntities);
      await seedTodo(db.orm.em.fork());
      // Viewer 1 may read every todo's status; viewer 2 only on todos of priority 1 or less.
      const todos = definePolicy(Todo, {
        fields: {
          status: (viewer: number | undefined) => viewer === 1 || { priority: { $lte: 1 } },
        },
      });
      const server = startServer(
        db.orm,
        todoSchema({
          policies: openPolicies(todoEntities, [todos]),
          viewer: ((ctx: { request: Request }) =>
            Number(ctx.request.headers.get("x-viewer"))) as never,
        }),
        [],
        {
          context: ({ request }: { request: Request }) => ({ em: db.orm.em.fork(), request }),
        } as never,
      );
      const ask = async (viewer: number, query: string): Promise<Answer> => {
        const response = await fetch(server.url, {
          method: "POST",
          headers: { "content-type": "application/json", "x-viewer": String(viewer) },
          body: JSON.stringify({ query }),
        });
        return await response.json();
      };
      try {
        for (
          const query of [
            `{ todos(orderBy: [{ field: STATUS }]) { totalCount } }`,
            `{ todos(orderBy: [{ field: PARENT_STATUS }]) { totalCount } }`,
            `{ todos(where: { status: COMPLETED }) { totalCount } }`,
            `{ todos(where: { hasChildrenWith: [{ statusNEQ: PENDING }] }) { totalCount } }`,
            `{ categories { edges { node { todos(orderBy: [{ field: STATUS }]) { totalCount } } } } }`,
          ]
        ) {
          const refused = await ask(2, query);
          assertEquals(codes(refused).slice(0, 1), ["FORBIDDEN"], query);
          assert(!JSON.stringify(refused).includes('totalCount":'), query);
          const allowed = await ask(1, query);
          assertEquals(codes(allowed), [], query);
        }
        // The field itself: viewer 2 reads it on todos of priority 1 or less only.
        const all = await db.orm.em.fork().find(Todo, {}, { orderBy: { id: "asc" } });
        const listed = await ask(2, `{ todos { edges { node { priority status } } } }`);
        assertEquals(
          (listed.data!.todos as { edges: { node: unknown }[] }).edges.map((e) => e.node),
          all.map((t) => ({ priority: t.priority, status: t.priority <= 1 ? t.status : null })),
        );
        assertEquals(codes(listed).length, all.filter((t) => t.priority > 1).length);
      } finally {
        await server.close();
        await db.close();
      }
    },
  });
}
