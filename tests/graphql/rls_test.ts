/**
 * PostgreSQL row-level security as a second wall (`ctx.databaseSession`, PostGraphile's
 * `pgSettings`): the blog with no application rule at all and a real RLS policy only the database
 * enforces ("a viewer reads and writes only their own posts", through `current_setting('app.viewer')`
 * under a role that is not the tables' owner). Every read path answers as the oracle database
 * holding only the viewer's rows (the same queries as policy_read_test.ts), with the Transactioner
 * (one transaction per query applying the session) and without (MikroORM's transaction per
 * statement); a resolver of the user's own that applies no rule reads through it; and the
 * Transactioner's mutation transactions carry the session: another's post is NOT_FOUND for update
 * and delete, a post in another's name is FORBIDDEN with nothing written, one's own is written.
 * Through PgBouncer in transaction mode (when `.ci/replica.sh` started it; required under CI),
 * every viewer's queries at once over two server connections answer as their oracle.
 */
import { assert, assertEquals } from "@std/assert";
import { fromContext, type MikroContext } from "@mikrogql/ext";
import { Post } from "../../examples/blog/entities/post.ts";
import { entities } from "../../examples/blog/entities.ts";
import { createSchema } from "../../examples/blog/generated/mod.ts";
import { encodeGlobalId } from "../../runtime/plan/global_id.ts";
import { databasePrefix, dialects, openTestOrm, type TestOrm } from "../support/databases.ts";
import { OWN_POSTS_QUERIES, restrictToOwnPosts, seedOwnPosts } from "../support/own_posts.ts";
import { startServer } from "../support/server.ts";
import { openOrm } from "../../server/open_orm.ts";

type Answer = {
  data?: Record<string, unknown> | null;
  errors?: { message: string; extensions?: { code?: string } }[];
};

async function ask(
  url: string,
  viewer: number | undefined,
  query: string,
  variables = {},
): Promise<Answer> {
  const response = await fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      ...(viewer === undefined ? {} : { "x-viewer": String(viewer) }),
    },
    body: JSON.stringify({ query, variables }),
  });
  return await response.json();
}

const gid = (type: string, id: number) => encodeGlobalId(type, id);

/** PgBouncer's port (transaction mode, set up by `.ci/replica.sh`). */
const BOUNCER = 6432;

/** Whether something accepts TCP connections on 127.0.0.1:`port`. */
async function reachable(port: number): Promise<boolean> {
  try {
    (await Deno.connect({ hostname: "127.0.0.1", port })).close();
    return true;
  } catch {
    return false;
  }
}

Deno.test({
  name: "row-level security: every read and write through a database policy (postgresql)",
  ignore: !dialects().includes("postgresql"),
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    const full = await openTestOrm("postgresql", entities);
    const opened: TestOrm[] = [full];
    const servers: { close(): Promise<void> }[] = [];
    const role = `${databasePrefix()}rls_${crypto.randomUUID().slice(0, 8)}`;
    const sql = (text: string) => full.orm.em.getConnection().execute(text);
    try {
      await seedOwnPosts(full.orm.em.fork());
      await sql(`create role "${role}" nologin`);
      await sql(`grant usage on schema public to "${role}"`);
      await sql(`grant select, insert, update, delete on all tables in schema public to "${role}"`);
      await sql(`grant usage, select on all sequences in schema public to "${role}"`);
      await sql(`alter table post enable row level security`);
      await sql(
        `create policy own_posts on post to "${role}" using (author_id = nullif(current_setting('app.viewer', true), '')::int)`,
      );
      const schema = createSchema({
        typeDefs: "extend type Query { postTitles: [String!]! }",
        resolvers: {
          Query: {
            // A resolver that applies no rule: the database's policy still does.
            postTitles: async (_root: unknown, _args: unknown, ctx: MikroContext) =>
              (await fromContext(ctx).find(Post, {}, { orderBy: { id: "asc" } })).map((p) =>
                p.title
              ),
          },
        } as never,
      });
      const context = ({ request }: { request: Request }) => {
        const viewer = request.headers.get("x-viewer");
        return {
          em: full.orm.em.fork(),
          databaseSession: { role, variables: viewer === null ? {} : { "app.viewer": viewer } },
        };
      };
      // With the Transactioner (the preset's) a query's statements share one transaction that
      // applies the session; without it (no preset) MikroORM wraps each statement in one of its
      // own.
      const guarded = startServer(full.orm, schema, [], { context } as never);
      const bare = startServer(full.orm, schema, [], { context, preset: false } as never);
      servers.push(guarded, bare);

      const expected: { viewer: number | undefined; query: string; answer: Answer }[] = [];
      for (const viewer of [1, 2, undefined]) {
        const oracle = await openTestOrm("postgresql", entities);
        opened.push(oracle);
        await seedOwnPosts(oracle.orm.em.fork());
        await restrictToOwnPosts(oracle.orm, viewer);
        const plain = startServer(oracle.orm, createSchema());
        servers.push(plain);
        const titles = await full.orm.em.fork().find(
          Post,
          viewer === undefined ? { id: 0 } : { author: viewer },
          { orderBy: { id: "asc" } },
        );
        for (const query of OWN_POSTS_QUERIES) {
          expected.push({ viewer, query, answer: await ask(plain.url, undefined, query) });
        }
        for (const server of [guarded, bare]) {
          for (const { query, answer } of expected.filter((e) => e.viewer === viewer)) {
            assertEquals(
              await ask(server.url, viewer, query),
              answer,
              `viewer ${viewer}: ${query}`,
            );
          }
          assertEquals(await ask(server.url, viewer, `{ postTitles }`), {
            data: { postTitles: titles.map((p) => p.title) },
          });
        }
      }

      // Through PgBouncer in transaction mode (.ci/replica.sh, 127.0.0.1:6432), with two server
      // connections for every viewer's requests at once: the settings are transaction-local, so
      // no request sees another's viewer or role.
      if (await reachable(BOUNCER)) {
        const url = new URL(full.db.url);
        url.port = String(BOUNCER);
        const pooled = await openOrm({ entities, url: url.href, extra: { pool: { max: 2 } } });
        const bounced = startServer(pooled, schema, [], {
          context: ({ request }: { request: Request }) => ({
            ...context({ request }),
            em: pooled.em.fork(),
          }),
        } as never);
        try {
          const answers = await Promise.all(
            [...expected, ...expected].map((e) => ask(bounced.url, e.viewer, e.query)),
          );
          answers.forEach((answer, i) => {
            const e = expected[i % expected.length];
            assertEquals(answer, e.answer, `PgBouncer, viewer ${e.viewer}: ${e.query}`);
          });
        } finally {
          await bounced.close();
          await pooled.close();
        }
      } else if (Deno.env.get("CI")) {
        throw new Error(`PgBouncer is not running on ${BOUNCER} (.ci/replica.sh starts it)`);
      } else {
        console.log(`PgBouncer is not running on ${BOUNCER}: its part is skipped`);
      }

      // Writes, in the Transactioner's transaction under the same session.
      const theirs = await full.orm.em.fork().findOneOrFail(Post, { author: 2 }, {
        orderBy: { id: "asc" },
      });
      for (
        const mutation of [
          `updatePost(id: $id, input: { title: "mine" }) { id }`,
          `deletePost(id: $id)`,
        ]
      ) {
        const answer = await ask(guarded.url, 1, `mutation($id: ID!) { ${mutation} }`, {
          id: gid("Post", theirs.id),
        });
        assertEquals(answer.errors?.map((e) => e.extensions?.code), ["NOT_FOUND"], mutation);
      }
      const count = () => full.orm.em.fork().count(Post);
      const before = await count();
      const forged = await ask(
        guarded.url,
        1,
        `mutation($input: CreatePostInput!) { createPost(input: $input) { id } }`,
        { input: { title: "forged", body: "b", authorID: gid("User", 2) } },
      );
      assertEquals(forged.errors?.map((e) => e.extensions?.code), ["FORBIDDEN"]);
      assertEquals(await count(), before);
      const own = await ask(
        guarded.url,
        1,
        `mutation($input: CreatePostInput!) { createPost(input: $input) { title author { id } } }`,
        { input: { title: "mine", body: "b", authorID: gid("User", 1) } },
      );
      assertEquals(own, {
        data: { createPost: { title: "mine", author: { id: gid("User", 1) } } },
      });
      assertEquals(await count(), before + 1);
      assert((await full.orm.em.fork().findOneOrFail(Post, theirs.id)).title !== "mine");
    } finally {
      for (const server of servers) await server.close();
      try {
        await sql(`drop owned by "${role}"`);
        await sql(`drop role if exists "${role}"`);
      } catch {
        // the role was never created
      }
      for (const db of opened.slice(1)) await db.close();
      // PgBouncer keeps its server connections to the database open: end them with the drop.
      await full.orm.close();
      const name = new URL(full.db.url).pathname.slice(1);
      const dropped = await new Deno.Command("psql", {
        args: ["-h", "127.0.0.1", "-U", "postgres", "-d", "postgres", "-Atqc"].concat(
          `drop database if exists "${name}" with (force)`,
        ),
      }).output();
      assert(dropped.success, new TextDecoder().decode(dropped.stderr));
    }
  },
});
