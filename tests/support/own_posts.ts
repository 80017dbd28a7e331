/**
 * The blog as a viewer sees it when a viewer (a user id; `undefined`: anonymous) reads only their
 * own posts: the seed with a secret post of user 2, the oracle database's restriction to the
 * viewer's rows, and queries over every read path (the read leaks of issue 26 among them). Shared
 * by the policy test (application rules) and the row-level security test (database rules); the
 * ways such a rule is set, and the tests run once per way and database, by the mutation tests.
 *
 * @module
 */
import type { EntityManager, MikroORM } from "@mikro-orm/core";
import { definePolicy } from "@mikrogql/ext";
import type { GraphQLSchema } from "graphql";
import { Comment } from "../../examples/blog/entities/comment.ts";
import { Post } from "../../examples/blog/entities/post.ts";
import { User } from "../../examples/blog/entities/user.ts";
import { entities } from "../../examples/blog/entities.ts";
import { createSchema } from "../../examples/blog/generated/mod.ts";
import { seed } from "../../examples/blog/seed.ts";
import { encodeGlobalId } from "../../runtime/plan/global_id.ts";
import { dialects, openTestOrm, type TestOrm } from "./databases.ts";
import { openPolicies } from "./open_policies.ts";
import { startServer } from "./server.ts";

const gid = (type: string, id: number) => encodeGlobalId(type, id);

/** The blog seed plus "SECRET message", a post of user 2. */
export async function seedOwnPosts(em: EntityManager): Promise<void> {
  await seed(em);
  const other = await em.findOneOrFail(User, 2);
  em.create(Post, { title: "SECRET message", body: "hidden", author: other });
  await em.flush();
}

/** Deletes from `orm`'s database every post (and its comments) `viewer` may not read. */
export async function restrictToOwnPosts(orm: MikroORM, viewer: number | undefined): Promise<void> {
  const em = orm.em.fork();
  const hidden = viewer === undefined ? {} : { author: { $ne: viewer } };
  await em.nativeDelete(Comment, { post: hidden });
  await em.nativeDelete(Post, hidden);
}

/** Queries over every read path of the blog. */
export const OWN_POSTS_QUERIES: string[] = [
  // hidden text read out character by character
  `{ users(where: { hasPostsWith: [{ titleHasPrefix: "SECRET m" }] }) { totalCount } }`,
  `{ users(where: { hasPostsWith: [{ titleHasPrefix: "SECRET x" }] }) { totalCount } }`,
  `{ users(where: { hasPosts: true }) { totalCount edges { node { id name } } } }`,
  `{ users(where: { hasPosts: false }) { totalCount edges { node { id } } } }`,
  `{ users(where: { hasPostsWith: [{ hasCommentsWith: [{ textContains: "o" }] }] }) { totalCount } }`,
  `{ users(where: { not: { hasPostsWith: [{ titleContains: "1" }] } }) { totalCount } }`,
  `{ users(first: 3) { edges { node { id posts(first: 2, orderBy: { field: TITLE, direction: DESC }) { totalCount edges { node { title comments { totalCount edges { node { text } } } } } pageInfo { hasNextPage } } } } } }`,
  `{ users(last: 2) { edges { node { id posts(last: 1) { totalCount edges { node { id title } } } } } } }`,
  `{ posts { totalCount edges { node { id title author { id } comments(first: 1) { totalCount } } } } }`,
  `{ posts(where: { titleHasPrefix: "SECRET" }) { totalCount } }`,
  `{ posts(where: { authorID: "${gid("User", 2)}" }) { totalCount edges { node { id } } } }`,
  `{ posts(orderBy: { field: VIEWS, direction: DESC }, first: 4) { totalCount edges { node { id views } } } }`,
  `{ node(id: "${gid("Post", 4)}") { id ... on Post { title } } }`,
  `{ nodes(ids: ["${gid("Post", 1)}", "${gid("Post", 4)}", "${gid("Post", 16)}"]) { id } }`,
  `{ node(id: "${
    gid("User", 2)
  }") { ... on User { posts { totalCount edges { node { title } } } } } }`,
];

/**
 * The ways a request's read rule "own posts only" is set: a policy (`definePolicy`, the viewer
 * read from the context by `createSchema({ viewer })`), `em.addFilter` on the request's fork, and
 * config filter parameters: the ORM `config`, how a request's fork is bound to `viewer`, and the
 * schema when not the blog's default one.
 */
export const OWN_POSTS_RULES: Record<string, {
  config: object;
  bind: (em: EntityManager, viewer: number) => EntityManager;
  schema?: () => GraphQLSchema;
}> = {
  "definePolicy": {
    config: {},
    bind: (em) => em,
    schema: () =>
      createSchema({
        policies: openPolicies(entities, [definePolicy(Post, {
          read: (viewer: number | undefined) => viewer === undefined ? false : { author: viewer },
        })]),
        viewer: ((ctx: { viewer: number }) => ctx.viewer) as never,
      }),
  },
  "em.addFilter": {
    config: {},
    bind: (em: EntityManager, viewer: number) => {
      em.addFilter({ name: "ownPosts", cond: { author: viewer }, entity: [Post], default: true });
      return em;
    },
  },
  "config filter + setFilterParams": {
    config: {
      filters: {
        ownPosts: {
          cond: (args: { viewer: number }) => ({ author: args.viewer }),
          entity: ["Post"],
          default: true,
        },
      },
    },
    bind: (em: EntityManager, viewer: number) => {
      em.setFilterParams("ownPosts", { viewer });
      return em;
    },
  },
};

/**
 * Registers the test `<name>, <way> (<dialect>)` for every way of {@linkcode OWN_POSTS_RULES} on
 * every database: `check` gets the blog's database, seeded, and the URL of a server whose requests
 * read as the viewer their `x-viewer` header names (a user id).
 */
export function testOwnPostsRules(
  name: string,
  check: (db: TestOrm, url: string) => Promise<void>,
): void {
  for (const dialect of dialects()) {
    for (const [way, { config, bind, schema }] of Object.entries(OWN_POSTS_RULES)) {
      Deno.test({
        name: `${name}, ${way} (${dialect})`,
        sanitizeOps: false,
        sanitizeResources: false,
        fn: async () => {
          const db = await openTestOrm(dialect, entities, config as never);
          await seed(db.orm.em.fork());
          const viewer = (request: Request) => Number(request.headers.get("x-viewer"));
          const server = startServer(db.orm, schema?.() ?? createSchema(), [], {
            context: ({ request }: { request: Request }) => ({
              em: bind(db.orm.em.fork(), viewer(request)),
              viewer: viewer(request),
            }),
          } as never);
          try {
            await check(db, server.url);
          } finally {
            await server.close();
            await db.close();
          }
        },
      });
    }
  }
}
