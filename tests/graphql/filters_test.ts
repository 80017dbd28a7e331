/**
 * MikroORM filters: every read of the runtime honours the filters enabled on the request's
 * EntityManager (default filters of the ORM config, and a filter added to the request's fork with
 * `em.addFilter`), as `em.find`/`em.count` do. The blog runs with a default filter hiding archived
 * posts and one hiding the second comment of every post; each answer is checked against an
 * oracle computed with `em.find`/`em.count` on a fork with the same filters: root pages and
 * `totalCount`, nested connections with and without pagination arguments, `node`/`nodes` of a
 * hidden row (`NOT_FOUND`, as a missing row), a comment whose required post is hidden (MikroORM
 * joins the post and drops the comment), and `has<Edge>With` predicates, whose related rows are
 * the filtered ones (stricter than em.find's `$some`, which leaves the target's filters out). The
 * todo example adds a filtered nullable relation (a todo's parent): the edge is `null`, and
 * `hasParentWith`/`hasParent` do not match a hidden parent.
 */
import { assertEquals } from "@std/assert";
import type { EntityManager, InferEntity } from "@mikro-orm/core";
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
import { startServer, type TestServer } from "../support/server.ts";

/** The seed's comments are created at `BASE + c * 1000`: the filter keeps comment 0 of a post. */
const BASE = Date.UTC(2026, 0, 1);

const FILTERS = {
  visiblePosts: { cond: { status: { $ne: "archived" } }, entity: ["Post"], default: true },
  firstComments: {
    cond: { createdAt: { $lt: new Date(BASE + 500) } },
    entity: ["Comment"],
    default: true,
  },
};

/** A filter a request adds to its own fork (on top of the config's). */
function addRequestFilter(em: EntityManager): EntityManager {
  em.addFilter({ name: "fewViews", cond: { views: { $lt: 6 } }, entity: [Post], default: true });
  return em;
}

type PostRow = InferEntity<typeof Post>;

type Page = { totalCount: number; edges: { cursor: string; node: Record<string, unknown> }[] };

/** Post ids by id order, as the oracle sees them. */
async function postsOf(em: EntityManager, where: object = {}): Promise<PostRow[]> {
  return await em.find(Post, where as never, { orderBy: { id: "asc" } });
}

async function check(server: TestServer, oracle: () => EntityManager): Promise<void> {
  const em = oracle();
  const posts = await postsOf(em);
  const titles = posts.map((p) => p.title);
  // Root pages and totalCount.
  const all = await server.query<{ posts: Page }>(
    `{ posts { totalCount edges { cursor node { title } } } }`,
  );
  assertEquals(all.errors, undefined);
  assertEquals(all.data!.posts.edges.map((e) => e.node.title), titles);
  assertEquals(all.data!.posts.totalCount, await em.count(Post, {}));
  const cursor = all.data!.posts.edges[1].cursor;
  for (
    const [args, expected] of [
      ["first: 3", titles.slice(0, 3)],
      ["last: 2", titles.slice(-2)],
      [`first: 2, after: "${cursor}"`, titles.slice(2, 4)],
      [`last: 5, before: "${cursor}"`, titles.slice(0, 1)],
    ] as const
  ) {
    const page = await server.query<{ posts: Page }>(
      `{ posts(${args}) { totalCount edges { node { title } } } }`,
    );
    assertEquals(page.errors, undefined, args);
    assertEquals(page.data!.posts.edges.map((e) => e.node.title), expected, args);
    assertEquals(page.data!.posts.totalCount, titles.length, args);
  }
  const desc = await server.query<{ posts: Page }>(
    `{ posts(first: 4, orderBy: { field: TITLE, direction: DESC }) { edges { node { title } } } }`,
  );
  assertEquals(
    desc.data!.posts.edges.map((e) => e.node.title),
    (await em.find(Post, {}, { orderBy: { title: "desc" }, limit: 4 })).map((p) => p.title),
  );

  // Nested connections, batched over every user, with and without pagination arguments.
  const users = await em.find(User, {}, { orderBy: { id: "asc" } });
  const expected = async (slice: (rows: PostRow[]) => PostRow[]) =>
    await Promise.all(users.map(async (user) => {
      const own = await postsOf(em, { author: user });
      return {
        name: user.name,
        posts: {
          totalCount: own.length,
          edges: await Promise.all(
            slice(own).map(async (post) => ({
              node: {
                title: post.title,
                comments: {
                  totalCount: await em.count(Comment, { post }),
                  edges: (await em.find(Comment, { post }, { orderBy: { id: "asc" } })).map((
                    c,
                  ) => ({
                    node: { text: c.text },
                  })),
                },
              },
            })),
          ),
        },
      };
    }));
  for (
    const [args, slice] of [
      ["", (rows: PostRow[]) => rows],
      ["(first: 1)", (rows: PostRow[]) => rows.slice(0, 1)],
      ["(last: 1)", (rows: PostRow[]) => rows.slice(-1)],
      ["(first: 5)", (rows: PostRow[]) => rows.slice(0, 5)],
    ] as const
  ) {
    const nested = await server.query<{ users: { edges: { node: unknown }[] } }>(
      `{ users { edges { node { name posts${args} { totalCount edges { node { title
          comments { totalCount edges { node { text } } } } } } } } } }`,
    );
    assertEquals(nested.errors, undefined, args);
    assertEquals(nested.data!.users.edges.map((e) => e.node), await expected(slice), args);
  }
  // A nested page after a cursor (positions are valid for any parent), comments paginated.
  const after = await server.query<{ users: { edges: { node: { posts: Page } }[] } }>(
    `{ users { edges { node { posts(first: 1, after: "${cursor}") { totalCount edges { node {
        title comments(first: 1) { totalCount } } } } } } } }`,
  );
  assertEquals(after.errors, undefined);
  for (const [i, { node }] of after.data!.users.edges.entries()) {
    const own = await postsOf(em, { author: users[i], id: { $gt: posts[1].id } });
    assertEquals(node.posts.totalCount, await em.count(Post, { author: users[i] }));
    assertEquals(
      await Promise.all(node.posts.edges.map((e) => e.node)),
      await Promise.all(
        own.slice(0, 1).map(async (post) => ({
          title: post.title,
          comments: { totalCount: await em.count(Comment, { post }) },
        })),
      ),
    );
  }

  // node/nodes of a hidden post: NOT_FOUND, as a missing row; a visible one is found.
  const hidden = (await oracle().find(Post, {}, { filters: false, orderBy: { id: "asc" } }))
    .find((p) => !titles.includes(p.title))!;
  assertEquals(await em.findOne(Post, { id: hidden.id }), null);
  for (const fields of ["id", "title", "title meta"]) {
    const one = await server.query<{ node: unknown }>(
      `query($id: ID!) { node(id: $id) { ... on Post { ${fields} } } }`,
      { id: encodeGlobalId("Post", hidden.id) },
    );
    assertEquals(one.data?.node, null, fields);
    assertEquals(one.errors?.map((e) => e.extensions?.code), ["NOT_FOUND"], fields);
  }
  const many = await server.query<{ nodes: unknown[] }>(
    `query($ids: [ID!]!) { nodes(ids: $ids) { ... on Post { title } } }`,
    { ids: [encodeGlobalId("Post", posts[0].id), encodeGlobalId("Post", hidden.id)] },
  );
  assertEquals(many.data!.nodes, [{ title: posts[0].title }, null]);
  assertEquals(many.errors?.map((e) => [e.path, e.extensions?.code]), [[
    ["nodes", 1],
    "NOT_FOUND",
  ]]);
  // A comment passing its own filter on a hidden post: MikroORM joins the required post with its
  // filter and drops the comment (em.findOne gives null); so does node(id).
  const orphan = (await oracle().find(Comment, { post: hidden.id }, {
    filters: { visiblePosts: false, fewViews: false },
    orderBy: { id: "asc" },
  }))[0];
  assertEquals(await em.findOne(Comment, { id: orphan.id }), null);
  for (const fields of ["text", "text post { title }", "text createdAt"]) {
    const comment = await server.query<{ node: unknown }>(
      `query($id: ID!) { node(id: $id) { ... on Comment { ${fields} } } }`,
      { id: encodeGlobalId("Comment", orphan.id) },
    );
    assertEquals(comment.data?.node, null, fields);
    assertEquals(comment.errors?.map((e) => e.extensions?.code), ["NOT_FOUND"], fields);
  }
  // A visible comment's post (a unique edge) is its visible post.
  const visible = (await em.find(Comment, {}, { orderBy: { id: "asc" }, populate: ["post"] }))[0];
  const withPost = await server.query<{ node: unknown }>(
    `query($id: ID!) { node(id: $id) { ... on Comment { post { title } } } }`,
    { id: encodeGlobalId("Comment", visible.id) },
  );
  assertEquals(withPost.data?.node, { post: { title: visible.post.title } });

  // has<Edge>With: only rows the filters let through are related rows. (em.find's `$some`
  // subquery leaves the target's filters out, so the oracle writes them in: the seed's comment 1
  // of a post is hidden, an archived post is hidden.)
  const firstComment = FILTERS.firstComments.cond;
  for (
    const [where, oracleWhere] of [
      [`{ hasCommentsWith: [{ textContains: "Comment 1 " }] }`, {
        comments: { $some: { text: { $like: "%Comment 1 %" }, ...firstComment } },
      }],
      [`{ hasCommentsWith: [{ textContains: "Comment 0 " }] }`, {
        comments: { $some: { text: { $like: "%Comment 0 %" }, ...firstComment } },
      }],
      [`{ hasComments: true }`, { comments: { $some: firstComment } }],
    ] as const
  ) {
    const filtered = await server.query<{ posts: Page }>(
      `{ posts(where: ${where}, first: 20) { totalCount edges { node { title } } } }`,
    );
    assertEquals(filtered.errors, undefined, where);
    const rows = await postsOf(em, oracleWhere);
    assertEquals(filtered.data!.posts.edges.map((e) => e.node.title), rows.map((p) => p.title));
    assertEquals(filtered.data!.posts.totalCount, rows.length, where);
  }
  const authors = await server.query<{ users: Page }>(
    `{ users(where: { hasPostsWith: [{ status: ARCHIVED }] }) { totalCount } }`,
  );
  assertEquals(authors.data!.users.totalCount, 0);
  const published = await server.query<{ users: Page }>(
    `{ users(where: { hasPostsWith: [{ status: PUBLISHED }] }) { totalCount } }`,
  );
  // The oracle: the authors of the posts em.find reads (its filters on the posts themselves).
  const publishedPosts = await em.find(Post, { status: "published" }, { populate: ["author"] });
  assertEquals(
    published.data!.users.totalCount,
    new Set(publishedPosts.map((p) => p.author.id)).size,
  );
}

for (const dialect of dialects()) {
  Deno.test({
    name: `MikroORM filters hide rows from every read as from em.find (${dialect})`,
    sanitizeOps: false,
    sanitizeResources: false,
    fn: async (t) => {
      const db = await openTestOrm(dialect, entities, { filters: FILTERS });
      await seed(db.orm.em.fork());
      const schema = createSchema();
      const server = startServer(db.orm, schema);
      const perRequest = startServer(db.orm, schema, [], {
        context: () => ({ em: addRequestFilter(db.orm.em.fork()) }),
      });
      try {
        await t.step("default filters of the ORM config", async () => {
          // The filters hide something on every level the test reads.
          const em = db.orm.em.fork();
          assertEquals(await em.count(Post, {}), 10);
          assertEquals(await em.count(Post, {}, { filters: false }), 15);
          assertEquals(await em.count(Comment, {}, { filters: false }), 30);
          assertEquals(await em.count(Comment, {}), 10);
          await check(server, () => db.orm.em.fork());
        });
        await t.step("a filter added to the request's EntityManager", async () => {
          const em = addRequestFilter(db.orm.em.fork());
          assertEquals(await em.count(Post, {}), 7);
          await check(perRequest, () => addRequestFilter(db.orm.em.fork()));
        });
      } finally {
        await perRequest.close();
        await server.close();
        await db.close();
      }
    },
  });
}

for (const dialect of dialects()) {
  Deno.test({
    name: `MikroORM filters on a nullable relation as em.find: the todo example (${dialect})`,
    sanitizeOps: false,
    sanitizeResources: false,
    fn: async () => {
      // Hides todo 2 (the parent of 3 and 4) and todo 5 (the child of 1).
      const db = await openTestOrm(dialect, todoEntities, {
        filters: {
          hidden: {
            cond: { text: { $nin: ["Write report 50%", "buy Bread"] } },
            entity: ["Todo"],
            default: true,
          },
        },
      });
      await seedTodo(db.orm.em.fork());
      const server = startServer(db.orm, todoSchema());
      try {
        const em = db.orm.em.fork();
        const todos = await em.find(Todo, {}, { populate: ["parent"], orderBy: { id: "asc" } });
        assertEquals(todos.length, 5);
        const all = await server.query<{ todos: { edges: { node: unknown }[] } }>(
          `{ todos { edges { node { text parent { text } children { totalCount edges { node { text } } } } } } }`,
        );
        assertEquals(all.errors, undefined);
        assertEquals(
          all.data!.todos.edges.map((e) => e.node),
          await Promise.all(todos.map(async (todo) => {
            const children = await em.find(Todo, { parent: todo }, { orderBy: { id: "asc" } });
            return {
              text: todo.text,
              parent: todo.parent ? { text: todo.parent.text } : null,
              children: {
                totalCount: children.length,
                edges: children.map((c) => ({ node: { text: c.text } })),
              },
            };
          })),
        );
        for (
          const [where, oracle] of [
            [`{ hasParentWith: [{ textContains: "report" }] }`, {
              parent: { text: { $like: "%report%" } },
            }],
            [`{ hasParentWith: [{ textContains: "Buy" }] }`, {
              parent: { text: { $like: "%Buy%" } },
            }],
            // A hidden parent is no parent (em.find's `$ne: null` would count it).
            [`{ hasParent: true }`, { parent: { text: { $ne: null } } }],
          ] as const
        ) {
          const filtered = await server.query<
            { todos: { totalCount: number; edges: { node: { text: string } }[] } }
          >(
            `{ todos(where: ${where}) { totalCount edges { node { text } } } }`,
          );
          assertEquals(filtered.errors, undefined, where);
          const rows = await em.find(Todo, oracle as never, { orderBy: { id: "asc" } });
          assertEquals(
            filtered.data!.todos.edges.map((e) => e.node.text),
            rows.map((t) => t.text),
            where,
          );
          assertEquals(filtered.data!.todos.totalCount, rows.length, where);
        }
      } finally {
        await server.close();
        await db.close();
      }
    },
  });
}
