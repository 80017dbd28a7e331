/**
 * Policies' read rules on every read path, against an oracle: for each viewer, every query's
 * answer through the policies (viewer from the `x-viewer` header) equals the answer of the same
 * query without policies on a second database holding only the rows that viewer may read (a
 * nullable reference to a hidden row set to null, as the policies show it). Closes the read
 * leaks of issue 26: `has<Edge>With` reading hidden text character by character, `has<Edge>`
 * counting hidden rows, `<EDGE>_COUNT` orders counting them, plus `<EDGE>_<FIELD>` orders,
 * `<edge>ID` predicates, nested connections and their counts, `node`/`nodes`.
 *
 * - blog: a viewer reads only their own posts (and the comments on them);
 * - todo: a viewer (a number) reads the todos of at most that priority.
 */
import { assertEquals } from "@std/assert";
import type { EntityManager, MikroORM } from "@mikro-orm/core";
import { definePolicy, type Policy } from "@mikrogql/ext";
import { Post } from "../../examples/blog/entities/post.ts";
import { entities as blogEntities } from "../../examples/blog/entities.ts";
import { createSchema as blogSchema } from "../../examples/blog/generated/mod.ts";
import { OWN_POSTS_QUERIES, restrictToOwnPosts, seedOwnPosts } from "../support/own_posts.ts";
import { Todo } from "../../examples/todo/entities/todo.ts";
import { entities as todoEntities } from "../../examples/todo/entities.ts";
import { createSchema as todoSchema } from "../../examples/todo/generated/mod.ts";
import { seed as seedTodo } from "../../examples/todo/seed.ts";
import { encodeGlobalId } from "../../runtime/plan/global_id.ts";
import { dialects, openTestOrm, type TestOrm } from "../support/databases.ts";
import { openPolicies } from "../support/open_policies.ts";
import { startServer } from "../support/server.ts";
import type { GraphQLSchema } from "graphql";

/** Posts `query` as `viewer` (the `x-viewer` header; none: anonymous). */
async function ask(url: string, viewer: number | undefined, query: string): Promise<unknown> {
  const response = await fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      ...(viewer === undefined ? {} : { "x-viewer": String(viewer) }),
    },
    body: JSON.stringify({ query }),
  });
  return await response.json();
}

// deno-lint-ignore no-explicit-any
type AnyPolicy = Policy<any, any>;

const viewerOf = (ctx: { request: Request }) => {
  const header = ctx.request.headers.get("x-viewer");
  return header === null ? undefined : Number(header);
};

interface Case {
  name: string;
  entities: typeof blogEntities;
  seed(em: EntityManager): Promise<unknown>;
  schema(policies?: AnyPolicy[]): GraphQLSchema;
  policies: AnyPolicy[];
  viewers: (number | undefined)[];
  /** Leaves in `orm` only what `viewer` may read. */
  restrict(orm: MikroORM, viewer: number | undefined): Promise<void>;
  queries: string[];
}

const blogPosts = definePolicy(Post, {
  read: (viewer: number | undefined) => viewer === undefined ? false : { author: viewer },
});
const todos = definePolicy(Todo, {
  read: (viewer: number | undefined) =>
    viewer === undefined ? false : { priority: { $lte: viewer } },
});

const gid = (type: string, id: number) => encodeGlobalId(type, id);

const CASES: Case[] = [{
  name: "blog",
  entities: blogEntities,
  seed: seedOwnPosts,
  schema: (policies) => blogSchema(policies ? { policies, viewer: viewerOf as never } : {}),
  policies: [blogPosts],
  viewers: [1, 2, undefined],
  restrict: restrictToOwnPosts,
  queries: OWN_POSTS_QUERIES,
}, {
  name: "todo",
  entities: todoEntities as never,
  seed: seedTodo,
  schema: (policies) => todoSchema(policies ? { policies, viewer: viewerOf as never } : {}),
  policies: [todos],
  viewers: [2, 3, 0, undefined],
  restrict: async (orm, viewer) => {
    const em = orm.em.fork();
    const hidden = viewer === undefined ? {} : { priority: { $gt: viewer } };
    // A visible todo whose parent is hidden shows no parent.
    await em.nativeUpdate(Todo, { parent: hidden }, { parent: null });
    await em.nativeDelete(Todo, hidden);
  },
  queries: [
    `{ todos(orderBy: [{ field: CHILDREN_COUNT, direction: DESC }]) { edges { node { id } cursor } } }`,
    `{ todos(orderBy: [{ field: CHILDREN_COUNT }], first: 2) { edges { node { id } } pageInfo { endCursor hasNextPage } } }`,
    `{ todos(orderBy: [{ field: PARENT_STATUS }, { field: ID, direction: DESC }]) { edges { node { id parent { id } } } } }`,
    `{ todos(where: { hasChildren: true }) { totalCount edges { node { id } } } }`,
    `{ todos(where: { hasChildren: false }) { totalCount } }`,
    `{ todos(where: { hasChildrenWith: [{ textContains: "draft" }] }) { totalCount } }`,
    `{ todos(where: { hasParent: false }) { totalCount edges { node { id } } } }`,
    `{ todos(where: { hasParent: true }) { totalCount edges { node { id } } } }`,
    `{ todos(where: { hasParentWith: [{ priority: 5 }] }) { totalCount } }`,
    `{ todos(where: { parentID: "${gid("Todo", 6)}" }) { totalCount } }`,
    `{ todos(where: { parentIDIsNil: true }) { totalCount edges { node { id } } } }`,
    `{ todos(where: { parentIDNEQ: "${gid("Todo", 2)}" }) { totalCount } }`,
    `{ todos { totalCount edges { node { id children { totalCount edges { node { id } } } } } } }`,
    `{ categories(orderBy: [{ field: TODOS_COUNT, direction: DESC }]) { edges { node { id todos { totalCount } } } } }`,
    `{ categories(where: { hasTodosWith: [{ priority: 5 }] }) { totalCount } }`,
    `{ nodes(ids: ["${gid("Todo", 3)}", "${gid("Todo", 6)}", "${
      gid("Todo", 7)
    }"]) { id ... on Todo { parent { id } } } }`,
  ],
}];

for (const dialect of dialects()) {
  for (const c of CASES) {
    Deno.test({
      name:
        `policies: every read answers as a database of the visible rows (${c.name}, ${dialect})`,
      sanitizeOps: false,
      sanitizeResources: false,
      fn: async () => {
        const full = await openTestOrm(dialect, c.entities);
        const opened: TestOrm[] = [full];
        const servers: { close(): Promise<void> }[] = [];
        try {
          await c.seed(full.orm.em.fork());
          const guarded = startServer(
            full.orm,
            c.schema(openPolicies(c.entities, c.policies)),
            [],
            {
              context: ({ request }: { request: Request }) => ({
                em: full.orm.em.fork(),
                request,
              }),
            } as never,
          );
          servers.push(guarded);
          for (const viewer of c.viewers) {
            const oracle = await openTestOrm(dialect, c.entities);
            opened.push(oracle);
            await c.seed(oracle.orm.em.fork());
            await c.restrict(oracle.orm, viewer);
            const plain = startServer(oracle.orm, c.schema());
            servers.push(plain);
            for (const query of c.queries) {
              const expected = await ask(plain.url, undefined, query);
              const actual = await ask(guarded.url, viewer, query);
              assertEquals(actual, expected, `viewer ${viewer}: ${query}`);
            }
          }
        } finally {
          for (const server of servers) await server.close();
          for (const db of opened) await db.close();
        }
      },
    });
  }
}
