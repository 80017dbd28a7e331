/**
 * Statement texts planned once (`runtime/read/statement_cache.ts`), over HTTP on the production
 * stack: requests of one shape with other values (cursors, page sizes, where values, ids) build
 * no QueryBuilder after the first and answer with their own values; a shape whose inputs hold a
 * raw SQL fragment is built every time; and a MikroORM filter added to a request's
 * EntityManager, whose condition the cached text lacks, turns the cache off for that request.
 */
import { assertEquals, assertGreater } from "@std/assert";
import type { MikroORM } from "@mikro-orm/core";
import { mikrogqlPreset } from "@mikrogql/ext";
import { entities } from "../../examples/blog/entities.ts";
import { Post } from "../../examples/blog/entities/post.ts";
import { User } from "../../examples/blog/entities/user.ts";
import { createSchema } from "../../examples/blog/generated/mod.ts";
import { dialects, openTestOrm } from "../support/databases.ts";
import { startServer } from "../support/server.ts";

const NAMES = ["ann", "bob", "cid", "dee", "eve", "fay", "gus"];

/** Counts the QueryBuilders the ORM's driver creates. */
function countBuilders(orm: MikroORM): () => number {
  const driver = orm.em.getDriver() as unknown as {
    createQueryBuilder(...args: unknown[]): unknown;
  };
  const create = driver.createQueryBuilder.bind(driver);
  let built = 0;
  driver.createQueryBuilder = (...args: unknown[]) => {
    built++;
    return create(...args);
  };
  return () => built;
}

const PAGE = `query Page($first: Int, $after: Cursor, $from: String, $prefix: String) {
  users(first: $first, after: $after, where: { nameGTE: $from, nameHasPrefix: $prefix }) {
    pageInfo { endCursor }
    edges { node { name } }
  }
}`;

const NESTED = `query Nested($first: Int, $after: Cursor) {
  users(first: 2, after: $after) {
    edges { node { name posts(first: $first) { totalCount edges { node { title } } } } }
  }
}`;

type Nested = {
  users: {
    edges: {
      node: { name: string; posts: { totalCount: number; edges: { node: { title: string } }[] } };
    }[];
  };
};

type Page = { users: { pageInfo: { endCursor: string }; edges: { node: { name: string } }[] } };

for (const dialect of dialects(["sqlite", "postgresql", "mariadb"])) {
  Deno.test({
    name: `a shape's statement is planned once and runs with each request's values (${dialect})`,
    sanitizeOps: false,
    sanitizeResources: false,
    fn: async () => {
      const db = await openTestOrm(dialect, entities);
      const em = db.orm.em.fork();
      NAMES.forEach((name, i) => {
        const user = em.create(User, {
          id: i + 1,
          name,
          email: `${name}@x`,
          createdAt: new Date(),
        });
        for (let j = 1; j <= 3; j++) {
          em.create(Post, { id: i * 10 + j, title: `${name} ${j}`, body: "", author: user });
        }
      });
      await em.flush();
      const built = countBuilders(db.orm);
      // A request may carry `x-filter`: its EntityManager then hides every user (`name is null`).
      const server = startServer(db.orm, createSchema(), [], {
        ...mikrogqlPreset({ txOpener: db.orm }),
        context: ({ request }: { request: Request }) => {
          const em = db.orm.em.fork();
          if (request.headers.has("x-filter")) {
            em.addFilter({ name: "nobody", cond: { name: null }, entity: [User], default: true });
          }
          return { em };
        },
      } as never);
      const page = async (variables: Record<string, unknown>, filtered = false) => {
        const response = await fetch(server.url, {
          method: "POST",
          headers: { "content-type": "application/json", ...(filtered ? { "x-filter": "1" } : {}) },
          body: JSON.stringify({ query: PAGE, variables }),
        });
        const body = await response.json() as { data?: Page; errors?: unknown };
        assertEquals(body.errors, undefined);
        return body.data!.users;
      };
      const names = (users: Page["users"]) => users.edges.map((e) => e.node.name);
      try {
        // The first request of the shape builds its statement (twice: the check of the text).
        const first = await page({ first: 2 });
        assertEquals(names(first), ["ann", "bob"]);
        const before = built();
        assertGreater(before, 0);
        // Same shape, other values: another page size, a cursor, no QueryBuilder.
        assertEquals(names(await page({ first: 3 })), ["ann", "bob", "cid"]);
        const after = await page({ first: 2, after: first.pageInfo.endCursor });
        assertEquals(names(after), ["cid", "dee"]);
        const beyond = await page({ first: 2, after: after.pageInfo.endCursor });
        assertEquals(names(beyond), ["eve", "fay"]);
        assertEquals(
          built(),
          before + 2,
          "only the first cursor page (a new shape) is built: with its values, with stand-ins",
        );
        // A where value: a new shape once, then other values of it.
        assertEquals(names(await page({ first: 5, from: "eve" })), ["eve", "fay", "gus"]);
        const withWhere = built();
        assertEquals(names(await page({ first: 5, from: "fay" })), ["fay", "gus"]);
        assertEquals(names(await page({ first: 5, from: "zed" })), []);
        assertEquals(built(), withWhere);
        // A raw SQL condition (a text match is a raw fragment): built every time.
        assertEquals(names(await page({ first: 5, prefix: "g" })), ["gus"]);
        const withRaw = built();
        assertEquals(names(await page({ first: 5, prefix: "e" })), ["eve"]);
        assertGreater(built(), withRaw);
        // Nested pages (one partitioned statement for all parents) and grouped counts: another
        // page size and other parents of the same count build nothing.
        const nested = async (variables: Record<string, unknown>) => {
          const response = await fetch(server.url, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({ query: NESTED, variables }),
          });
          const body = await response.json() as { data?: Nested; errors?: unknown };
          assertEquals(body.errors, undefined);
          return body.data!.users.edges.map(({ node }) =>
            `${node.name}: ${node.posts.totalCount} ${
              node.posts.edges.map((e) => e.node.title).join(",")
            }`
          );
        };
        assertEquals(await nested({ first: 2 }), ["ann: 3 ann 1,ann 2", "bob: 3 bob 1,bob 2"]);
        const nestedBuilt = built();
        assertEquals(await nested({ first: 1, after: first.pageInfo.endCursor }), [
          "cid: 3 cid 1",
          "dee: 3 dee 1",
        ]);
        // (the root page after a cursor is the shape of the cursor pages above)
        assertEquals(built(), nestedBuilt);
        assertEquals(await nested({ first: 3, after: after.pageInfo.endCursor }), [
          "eve: 3 eve 1,eve 2,eve 3",
          "fay: 3 fay 1,fay 2,fay 3",
        ]);
        assertEquals(built(), nestedBuilt);
        // A filter on the request's EntityManager: its condition is text the cached statement
        // lacks, so the request's statement is built, and the filter applies.
        assertEquals(names(await page({ first: 2 }, true)), []);
        assertGreater(built(), withWhere);
        assertEquals(names(await page({ first: 2 })), ["ann", "bob"]);
      } finally {
        await server.close();
        await db.close();
      }
    },
  });
}
