/**
 * Write rules judge the database as it was before the write, on the blog over HTTP with the
 * Transactioner: a create rule counting its own entity does not see the row being created, an
 * update rule reading its own row sees the stored values, a connect (`addPostIDs`) is not yet in
 * the table the rule counts, a delete rule still finds the row; the `check` rule sees the row
 * written and its refusal leaves nothing behind. Deny by default (a type without a write rule
 * refuses, a type without a read rule reads nothing, `allowAll` opens one), column permissions
 * (a field outside `columns` is `FORBIDDEN` naming it) and presets (the server's value applied,
 * another value in the input refused naming the field). sqlite, postgresql, mariadb.
 */
import { assertEquals, assertStringIncludes } from "@std/assert";
import type { InferEntity } from "@mikro-orm/core";
import { allowAll, definePolicy, type WritePermission, type WriteRule } from "@mikrogql/ext";
import { Comment } from "../../examples/blog/entities/comment.ts";
import { Post } from "../../examples/blog/entities/post.ts";
import { User } from "../../examples/blog/entities/user.ts";
import { entities } from "../../examples/blog/entities.ts";
import { createSchema } from "../../examples/blog/generated/mod.ts";
import { seed } from "../../examples/blog/seed.ts";
import { encodeGlobalId } from "../../runtime/plan/global_id.ts";
import { dialects, openTestOrm } from "../support/databases.ts";
import { startServer } from "../support/server.ts";

type Answer = {
  data?: Record<string, unknown> | null;
  errors?: { message: string; extensions?: { code?: string } }[];
};
type Viewer = number | undefined;

const gid = (type: string, id: number) => encodeGlobalId(type, id);
const codes = (a: Answer) => (a.errors ?? []).map((e) => e.extensions?.code);

/** What each rule saw of the database, in the order the rules ran. */
const seen: unknown[] = [];

/** A rule of no entity in particular: rules compose across policies. */
const signedIn: WriteRule<object, Viewer> = ({ viewer }) => viewer !== undefined;

const comments = definePolicy(Comment, {
  read: allowAll,
  create: {
    allow: async ({ em, after }) => {
      seen.push(await em.count(Comment, { post: after!.post }));
      return true;
    },
    columns: ["text", "postID"],
    preset: ({ viewer }) => ({ author: viewer }),
  },
});
const postUpdate: WritePermission<InferEntity<typeof Post>, Viewer> = {
  allow: async ({ em, before }) => {
    seen.push((await em.findOneOrFail(Post, before!.id!)).title);
    return true;
  },
  columns: ["title", "body"],
};
const posts = definePolicy(Post, {
  read: allowAll,
  create: signedIn,
  update: postUpdate,
  delete: async ({ em, before }) => {
    seen.push(await em.count(Post, { id: before!.id }));
    return true;
  },
  check: async ({ em, after }) => {
    seen.push(await em.count(Post, { title: after.title }));
    return after.title !== "refused after";
  },
});
const users = definePolicy(User, {
  read: allowAll,
  update: async ({ em, before }) => {
    seen.push(await em.count(Post, { author: before!.id }));
    return true;
  },
});
// Photo: no policy, so with policies on it reads no row and takes no write.

for (const dialect of dialects()) {
  Deno.test({
    name:
      `write rules judge the state before the write; default deny; columns, presets (${dialect})`,
    sanitizeOps: false,
    sanitizeResources: false,
    fn: async (t) => {
      const db = await openTestOrm(dialect, entities);
      await seed(db.orm.em.fork());
      const schema = createSchema({
        policies: [comments, posts, users],
        viewer: ((ctx: { request: Request }) => {
          const header = ctx.request.headers.get("x-viewer");
          return header === null ? undefined : Number(header);
        }) as never,
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
        await t.step("a create rule counting its own entity sees the table as it was", async () => {
          seen.length = 0;
          const before = await fresh().count(Comment, { post: 1 });
          const answer = await ask(
            1,
            `mutation { createComment(input: { text: "new", postID: "${
              gid("Post", 1)
            }", authorID: "${gid("User", 1)}" }) { text author { id } } }`,
          );
          assertEquals(codes(answer), []);
          assertEquals(seen, [before]);
          assertEquals(await fresh().count(Comment, { post: 1 }), before + 1);
        });

        await t.step("an update rule reads the stored row, not the changed entity", async () => {
          seen.length = 0;
          const stored = (await fresh().findOneOrFail(Post, 2)).title;
          const answer = await ask(
            1,
            `mutation { updatePost(id: "${
              gid("Post", 2)
            }", input: { title: "changed" }) { title } }`,
          );
          assertEquals(answer.data, { updatePost: { title: "changed" } });
          // The update rule saw the stored title; the check saw the written row.
          assertEquals(seen, [stored, 1]);
        });

        await t.step("a connect is not in the table the rule counts", async () => {
          seen.length = 0;
          const owned = await fresh().count(Post, { author: 2 });
          const answer = await ask(
            1,
            `mutation { updateUser(id: "${gid("User", 2)}", input: { addPostIDs: ["${
              gid("Post", 1)
            }"] }) { id } }`,
          );
          assertEquals(codes(answer), []);
          assertEquals(seen, [owned]);
          assertEquals(await fresh().count(Post, { author: 2 }), owned + 1);
        });

        await t.step("a delete rule still finds the row", async () => {
          seen.length = 0;
          await fresh().nativeDelete(Comment, { post: 3 });
          const answer = await ask(1, `mutation { deletePost(id: "${gid("Post", 3)}") }`);
          assertEquals(codes(answer), []);
          assertEquals(seen, [1]);
        });

        await t.step("a check refusing the written row leaves nothing behind", async () => {
          const answer = await ask(
            1,
            `mutation { updatePost(id: "${
              gid("Post", 4)
            }", input: { title: "refused after" }) { title } }`,
          );
          assertEquals(codes(answer), ["FORBIDDEN"]);
          assertStringIncludes(answer.errors![0].message, "does not pass the check rule");
          assertEquals(await fresh().count(Post, { title: "refused after" }), 0);
        });

        await t.step("columns: a field the viewer may not set is FORBIDDEN naming it", async () => {
          const views = (await fresh().findOneOrFail(Post, 4)).views;
          const answer = await ask(
            1,
            `mutation { updatePost(id: "${gid("Post", 4)}", input: { views: 999 }) { views } }`,
          );
          assertEquals(codes(answer), ["FORBIDDEN"]);
          assertEquals(
            answer.errors![0].message,
            "cannot update Post: this viewer may not set input.views",
          );
          assertEquals((await fresh().findOneOrFail(Post, 4)).views, views);
        });

        await t.step("presets: the server's value, another one in the input refused", async () => {
          const count = await fresh().count(Comment);
          const other = await ask(
            2,
            `mutation { createComment(input: { text: "as 1", postID: "${
              gid("Post", 1)
            }", authorID: "${gid("User", 1)}" }) { text } }`,
          );
          assertEquals(codes(other), ["FORBIDDEN"]);
          assertEquals(
            other.errors![0].message,
            "cannot create Comment: input.authorID is set by the server for this viewer",
          );
          assertEquals(await fresh().count(Comment), count);
          const own = await ask(
            2,
            `mutation { createComment(input: { text: "as 2", postID: "${
              gid("Post", 1)
            }", authorID: "${gid("User", 2)}" }) { author { id } } }`,
          );
          assertEquals(own.data, { createComment: { author: { id: gid("User", 2) } } });
        });

        await t.step("deny by default: no rule, no write; no read rule, no row", async () => {
          const anonymous = await ask(
            undefined,
            `mutation { createPost(input: { title: "t", body: "b", authorID: "${
              gid("User", 1)
            }" }) { id } }`,
          );
          assertEquals(codes(anonymous), ["FORBIDDEN"]);
          assertEquals(
            anonymous.errors![0].message,
            "cannot create Post: the create rule of its policy refuses this viewer",
          );
          const deleteComment = await ask(
            1,
            `mutation { deleteComment(id: "${gid("Comment", 1)}") }`,
          );
          assertEquals(codes(deleteComment), ["FORBIDDEN"]);
          assertEquals(
            deleteComment.errors![0].message,
            "cannot delete Comment: the policy of Comment has no delete rule, so it is denied",
          );
          const photos = await ask(
            1,
            `{ users(first: 1) { edges { node { photos { totalCount } } } } }`,
          );
          assertEquals(codes(photos), []);
          assertEquals(JSON.stringify(photos.data).includes('"totalCount":0'), true);
        });
      } finally {
        await server.close();
        await db.close();
      }
    },
  });
}
