/**
 * Keyset pagination, ordering, node/nodes and bad input, over HTTP against a real Yoga server on
 * SQLite, PostgreSQL and MariaDB, with the generated blog schema.
 */
import { assert, assertEquals, assertMatch } from "@std/assert";
import { encodeBase64Url } from "@std/encoding/base64url";
import { entities } from "../../examples/blog/entities.ts";
import { User } from "../../examples/blog/entities/user.ts";
import { Post } from "../../examples/blog/entities/post.ts";
import { createSchema } from "../../examples/blog/generated/mod.ts";
import { dialects, openTestOrm } from "../support/databases.ts";
import { type Response, startServer, type TestServer } from "../support/server.ts";

const ROWS = 32;
const BASE = Date.UTC(2026, 0, 1);
/** Row i (id i+1): names repeat every 8 rows, creation times every 5, so both orders have ties. */
const rows = Array.from({ length: ROWS }, (_, i) => ({
  id: i + 1,
  name: `name${(i * 5) % 8}`,
  createdAt: new Date(BASE + ((i * 3) % 5) * 1000),
}));

interface Page {
  edges: { cursor: string; node: { id: string; name: string } }[];
  pageInfo: {
    hasNextPage: boolean;
    hasPreviousPage: boolean;
    startCursor: string | null;
    endCursor: string | null;
  };
  totalCount?: number;
}

const USERS =
  `query($first: Int, $last: Int, $after: Cursor, $before: Cursor, $orderBy: UserOrder) {
  users(first: $first, last: $last, after: $after, before: $before, orderBy: $orderBy) {
    edges { cursor node { id name } }
    pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
  }
}`;

async function page(
  server: TestServer,
  variables: Record<string, unknown>,
): Promise<Page> {
  const response = await server.query<{ users: Page }>(USERS, variables);
  assertEquals(response.errors, undefined);
  return response.data!.users;
}

function expected(
  field: "name" | "createdAt" | "id",
  direction: "ASC" | "DESC",
): string[] {
  const sign = direction === "ASC" ? 1 : -1;
  return rows.toSorted((a, b) => {
    const x = a[field], y = b[field];
    const c = x < y ? -1 : x > y ? 1 : 0;
    return (c || a.id - b.id) * sign;
  }).map((r) => r.name + "#" + r.id);
}

function names(p: Page, ids: Map<string, number>): string[] {
  return p.edges.map((e) => `${e.node.name}#${ids.get(e.node.id)}`);
}

for (const dialect of dialects()) {
  Deno.test({
    name: `pagination, ordering and node resolution on ${dialect}`,
    sanitizeOps: false,
    sanitizeResources: false,
    fn: async (t) => {
      const db = await openTestOrm(dialect, entities);
      const em = db.orm.em.fork();
      for (const row of rows) {
        em.create(User, {
          id: row.id,
          name: row.name,
          email: `u${row.id}@example.com`,
          createdAt: row.createdAt,
        });
      }
      const post = em.create(Post, { id: 1, title: "t", body: "b", author: 1 });
      await em.flush();
      const server = startServer(db.orm, createSchema());
      const all = await page(server, {});
      const ids = new Map(all.edges.map((e, i) => [e.node.id, i + 1]));
      try {
        await t.step(
          "forward first:5: six full pages, then 2, then an empty page",
          async () => {
            const sizes: number[] = [];
            const next: boolean[] = [];
            const seen: string[] = [];
            let after: string | null = null;
            for (let i = 0; i < 8; i++) {
              const p = await page(server, { first: 5, after });
              sizes.push(p.edges.length);
              next.push(p.pageInfo.hasNextPage);
              assertEquals(p.pageInfo.hasPreviousPage, i > 0);
              seen.push(...names(p, ids));
              if (p.edges.length === 0) {
                assertEquals(p.pageInfo.startCursor, null);
                assertEquals(p.pageInfo.endCursor, null);
              } else {
                assertEquals(p.pageInfo.startCursor, p.edges[0].cursor);
                assertEquals(p.pageInfo.endCursor, p.edges.at(-1)!.cursor);
              }
              after = p.pageInfo.endCursor ?? after;
            }
            assertEquals(sizes, [5, 5, 5, 5, 5, 5, 2, 0]);
            assertEquals(next, [
              true,
              true,
              true,
              true,
              true,
              true,
              false,
              false,
            ]);
            assertEquals(seen, expected("id", "ASC"));
          },
        );

        await t.step(
          "backward last:7: four full pages, then 4, then an empty page",
          async () => {
            const sizes: number[] = [];
            const previous: boolean[] = [];
            const seen: string[][] = [];
            let before: string | null = null;
            for (let i = 0; i < 6; i++) {
              const p = await page(server, { last: 7, before });
              sizes.push(p.edges.length);
              previous.push(p.pageInfo.hasPreviousPage);
              assertEquals(p.pageInfo.hasNextPage, i > 0);
              seen.unshift(names(p, ids));
              if (p.edges.length === 0) {
                assertEquals([p.pageInfo.startCursor, p.pageInfo.endCursor], [
                  null,
                  null,
                ]);
              }
              before = p.pageInfo.startCursor ?? before;
            }
            assertEquals(sizes, [7, 7, 7, 7, 4, 0]);
            assertEquals(previous, [true, true, true, true, false, false]);
            assertEquals(seen.flat(), expected("id", "ASC"));
          },
        );

        for (
          const [field, prop] of [["NAME", "name"], [
            "CREATED_AT",
            "createdAt",
          ]] as const
        ) {
          for (const direction of ["ASC", "DESC"] as const) {
            await t.step(
              `orderBy ${field} ${direction} with ties, forward and backward`,
              async () => {
                const orderBy = { field, direction };
                const forward: string[] = [];
                let after: string | null = null;
                do {
                  const p = await page(server, { first: 5, after, orderBy });
                  forward.push(...names(p, ids));
                  after = p.pageInfo.hasNextPage ? p.pageInfo.endCursor : null;
                } while (after);
                assertEquals(forward, expected(prop, direction));
                const backward: string[][] = [];
                let before: string | null = null;
                do {
                  const p = await page(server, { last: 7, before, orderBy });
                  backward.unshift(names(p, ids));
                  before = p.pageInfo.hasPreviousPage ? p.pageInfo.startCursor : null;
                } while (before);
                assertEquals(backward.flat(), expected(prop, direction));
              },
            );
          }
        }

        await t.step("totalCount", async () => {
          const r = await server.query<{ users: Page }>(
            `{ users(first: 2) { totalCount edges { cursor } } }`,
          );
          assertEquals(r.data!.users.totalCount, ROWS);
        });

        await t.step("node and nodes", async () => {
          const userId = all.edges[0].node.id;
          const postId = encodeBase64Url(
            new TextEncoder().encode(`Post:${post.id}`),
          );
          const one = await server.query<
            { node: { __typename: string; id: string } }
          >(
            `query($id: ID!) { node(id: $id) { __typename id ... on User { name } } }`,
            { id: postId },
          );
          assertEquals(one.data!.node, { __typename: "Post", id: postId });
          const missing = encodeBase64Url(new TextEncoder().encode("User:999"));
          const many = await server.query<
            { nodes: ({ id: string; __typename: string } | null)[] }
          >(
            `query($ids: [ID!]!) { nodes(ids: $ids) { __typename id } }`,
            { ids: [userId, postId, userId, missing, "not-an-id"] },
          );
          assertEquals(many.data!.nodes, [
            { __typename: "User", id: userId },
            { __typename: "Post", id: postId },
            { __typename: "User", id: userId },
            null,
            null,
          ]);
          assertEquals(many.errors!.map((e) => [e.path, e.extensions?.code]), [
            [["nodes", 3], "NOT_FOUND"],
            [["nodes", 4], "NOT_FOUND"],
          ]);
          assertMatch(many.errors![0].message, new RegExp(missing));
          for (
            const id of [
              missing,
              "not-an-id",
              encodeBase64Url(new TextEncoder().encode("Nope:1")),
            ]
          ) {
            const r = await server.query(
              `query($id: ID!) { node(id: $id) { id } }`,
              { id },
            );
            assertEquals(r.data?.node, null);
            assertEquals(r.errors?.[0].extensions?.code, "NOT_FOUND");
            assert(r.errors![0].message.includes(id), r.errors![0].message);
          }
        });

        await t.step("bad input", async () => {
          const expectError = async (
            variables: Record<string, unknown>,
            code: string,
            text: RegExp,
          ) => {
            const r: Response = await server.query(USERS, variables);
            assertEquals(
              r.errors?.[0].extensions?.code,
              code,
              JSON.stringify(r),
            );
            assertMatch(r.errors![0].message, text);
          };
          await expectError(
            { first: 1, last: 1 },
            "INVALID_PAGINATION",
            /"first" and "last"/,
          );
          await expectError({ first: -1 }, "INVALID_PAGINATION", /"first"/);
          await expectError({ last: -2 }, "INVALID_PAGINATION", /"last"/);
          await expectError({ after: "%%%" }, "INVALID_CURSOR", /"after"/);
          await expectError(
            { before: encodeBase64Url(new TextEncoder().encode("{}")) },
            "INVALID_CURSOR",
            /"before"/,
          );
          const byName = await page(server, {
            first: 1,
            orderBy: { field: "NAME" },
          });
          await expectError(
            {
              after: byName.pageInfo.endCursor,
              orderBy: { field: "CREATED_AT" },
            },
            "INVALID_CURSOR",
            /another order/,
          );
          const forged = encodeBase64Url(
            new TextEncoder().encode(
              JSON.stringify([1, ["yesterday"], "CREATED_AT", "User"]),
            ),
          );
          await expectError(
            { after: forged, orderBy: { field: "CREATED_AT" } },
            "INVALID_CURSOR",
            /order value/,
          );
          const badId = encodeBase64Url(
            new TextEncoder().encode(JSON.stringify(["1; drop", [], "", "User"])),
          );
          await expectError({ after: badId }, "INVALID_CURSOR", /bad id/);
          const r = await server.query(
            `{ users(orderBy: { field: NOPE }) { totalCount } }`,
          );
          assertMatch(r.errors![0].message, /NOPE/);
        });
      } finally {
        await server.close();
        await db.close();
      }
    },
  });
}
