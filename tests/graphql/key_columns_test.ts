/**
 * Keys checked against their column (`keyValueError` of `runtime/column_values.ts`), over HTTP on
 * SQLite, PostgreSQL and MariaDB, with the same answers on the three: a global id holding an
 * integer beyond its column's type (`Post:4294967296`, an `int` key) or a malformed UUID
 * (`Order:xyz`, a `uuid` key; `Shipment:xyz`, a key that is a relation to a `uuid` key) names
 * no row — `NOT_FOUND` for `node`, `nodes`, an update's or a delete's target and the node an
 * input connects — and is refused in a where filter (`BAD_USER_INPUT` naming the predicate and
 * its index); a cursor holding one is `INVALID_CURSOR`. PostgreSQL answered these
 * `INTERNAL_SERVER_ERROR` (`value out of range for type integer`, `invalid input syntax for type
 * uuid`) before.
 */
import { assertEquals, assertMatch } from "@std/assert";
import { encodeGlobalId, globalIdOf } from "../../mod.ts";
import { base64UrlToText, textToBase64Url } from "../../runtime/jsutils/base64url.ts";
import * as blog from "../../examples/blog/generated/mod.ts";
import { entities as blogEntities } from "../../examples/blog/entities.ts";
import { seed as seedBlog } from "../../examples/blog/seed.ts";
import * as shop from "../../examples/shop/generated/mod.ts";
import { entities as shopEntities } from "../../examples/shop/entities.ts";
import { dialects, openTestOrm } from "../support/databases.ts";
import { type Response, startServer, type TestServer } from "../support/server.ts";

/**
 * Ids whose key no row can have, on every database: beyond `int` and MariaDB's `int unsigned`
 * (its auto-increment keys, which hold 2^31 to 2^32 - 1: such an id there is merely of no row).
 */
const BIG_POST = encodeGlobalId("Post", 4294967296);
const SMALL_POST = encodeGlobalId("Post", -2147483649);
const BAD_ORDER = encodeGlobalId("Order", "xyz");
const BAD_SHIPMENT = encodeGlobalId("Shipment", "not-a-uuid");

/** The codes and paths of a response's errors, as `<code> <message prefix up to ":">`. */
function codes(response: Response): string[] {
  return (response.errors ?? []).map((e) =>
    `${e.extensions?.code} ${e.path?.join(".") ?? ""}`.trim()
  );
}

async function expectCode(
  server: TestServer,
  query: string,
  variables: Record<string, unknown>,
  code: string,
  message?: RegExp,
): Promise<void> {
  const response = await server.query(query, variables);
  const error = response.errors?.[0];
  assertEquals(error?.extensions?.code, code, `${query} ${JSON.stringify(response)}`);
  if (message) assertMatch(error!.message, message);
}

for (const dialect of dialects()) {
  Deno.test(`keys beyond their column: integer keys (blog, ${dialect})`, async (t) => {
    const test = await openTestOrm(dialect, blogEntities);
    await seedBlog(test.orm.em.fork());
    const server = startServer(test.orm, blog.createSchema());
    const user = globalIdOf(blog.graph, blog.graph.types.User, 1);
    try {
      await t.step("node, nodes: NOT_FOUND", async () => {
        for (const id of [BIG_POST, SMALL_POST]) {
          await expectCode(
            server,
            `query ($id: ID!) { node(id: $id) { id } }`,
            { id },
            "NOT_FOUND",
          );
        }
        const post = globalIdOf(blog.graph, blog.graph.types.Post, 1);
        const nodes = await server.query(
          `query ($ids: [ID!]!) { nodes(ids: $ids) { id } }`,
          { ids: [post, BIG_POST, SMALL_POST] },
        );
        assertEquals(codes(nodes), ["NOT_FOUND nodes.1", "NOT_FOUND nodes.2"]);
        assertEquals((nodes.data?.nodes as unknown[])[0], { id: post });
      });
      await t.step("update, delete targets and connected nodes: NOT_FOUND", async () => {
        await expectCode(
          server,
          `mutation ($id: ID!) { updatePost(id: $id, input: { title: "t" }) { id } }`,
          { id: BIG_POST },
          "NOT_FOUND",
        );
        await expectCode(
          server,
          `mutation ($id: ID!) { deletePost(id: $id) }`,
          { id: BIG_POST },
          "NOT_FOUND",
        );
        await expectCode(
          server,
          `mutation ($input: CreateCommentInput!) { createComment(input: $input) { id } }`,
          { input: { text: "x", postID: BIG_POST, authorID: user } },
          "NOT_FOUND",
          /^input\.postID: no Post has the global id/,
        );
      });
      await t.step("where filters: BAD_USER_INPUT naming the predicate", async () => {
        const posts =
          `query ($where: PostWhereInput) { posts(first: 1, where: $where) { totalCount } }`;
        for (
          const [where, path] of [
            [{ id: BIG_POST }, "where.id"],
            [
              { idIn: [globalIdOf(blog.graph, blog.graph.types.Post, 1), BIG_POST] },
              "where.idIn\\[1\\]",
            ],
            [{ idGT: SMALL_POST }, "where.idGT"],
            [{ not: { idNotIn: [BIG_POST] } }, "where.not.idNotIn\\[0\\]"],
          ] as const
        ) {
          await expectCode(
            server,
            posts,
            { where },
            "BAD_USER_INPUT",
            new RegExp(`^${path}: -?\\d+ is out of the column's range`),
          );
        }
      });
      await t.step("cursors: INVALID_CURSOR", async () => {
        // A real cursor whose key is made one beyond the column's type.
        const page = await server.query<{ posts: { edges: { cursor: string }[] } }>(
          `{ posts(first: 1) { edges { cursor } } }`,
        );
        const parsed = JSON.parse(base64UrlToText(page.data!.posts.edges[0].cursor)!);
        parsed[0] = 4294967296;
        const cursor = textToBase64Url(JSON.stringify(parsed));
        await expectCode(
          server,
          `query ($after: Cursor) { posts(first: 1, after: $after) { totalCount } }`,
          { after: cursor },
          "INVALID_CURSOR",
        );
      });
    } finally {
      await server.close();
      await test.close();
    }
  });

  Deno.test(`keys beyond their column: UUID keys (shop, ${dialect})`, async (t) => {
    const test = await openTestOrm(dialect, shopEntities as never);
    const server = startServer(test.orm, shop.createSchema());
    try {
      await t.step("node, nodes: NOT_FOUND", async () => {
        for (const id of [BAD_ORDER, BAD_SHIPMENT]) {
          await expectCode(
            server,
            `query ($id: ID!) { node(id: $id) { id } }`,
            { id },
            "NOT_FOUND",
          );
        }
        const nodes = await server.query(
          `query ($ids: [ID!]!) { nodes(ids: $ids) { id } }`,
          { ids: [BAD_SHIPMENT, BAD_ORDER] },
        );
        assertEquals(codes(nodes), ["NOT_FOUND nodes.0", "NOT_FOUND nodes.1"]);
      });
      await t.step("update, delete targets and connected nodes: NOT_FOUND", async () => {
        await expectCode(
          server,
          `mutation ($id: ID!) { updateOrder(id: $id, input: { notes: [] }) { id } }`,
          { id: BAD_ORDER },
          "NOT_FOUND",
        );
        await expectCode(
          server,
          `mutation ($id: ID!) { deleteShipment(id: $id) }`,
          { id: BAD_SHIPMENT },
          "NOT_FOUND",
        );
        await expectCode(
          server,
          `mutation ($input: CreateShipmentInput!) { createShipment(input: $input) { carrier } }`,
          { input: { carrier: "c", orderID: BAD_ORDER } },
          "NOT_FOUND",
          /^input\.orderID: no Order has the global id/,
        );
      });
      await t.step("where filters: BAD_USER_INPUT naming the predicate", async () => {
        await expectCode(
          server,
          `query ($where: OrderWhereInput) { orders(first: 1, where: $where) { totalCount } }`,
          { where: { idIn: [BAD_ORDER] } },
          "BAD_USER_INPUT",
          /^where\.idIn\[0\]: "xyz" is not a UUID/,
        );
        await expectCode(
          server,
          `query ($where: ShipmentWhereInput) { shipments(first: 1, where: $where) { totalCount } }`,
          { where: { id: BAD_SHIPMENT } },
          "BAD_USER_INPUT",
          /^where\.id: "not-a-uuid" is not a UUID/,
        );
      });
    } finally {
      await server.close();
      await test.close();
    }
  });
}
