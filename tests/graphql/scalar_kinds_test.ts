/**
 * Every scalar kind MikroORM maps that the shop's `Order` holds beyond shop_test's: a scalar
 * reference (`ref: true`, lazy: `giftMessage`), binary columns (`blob` read as a `Buffer`,
 * `uint8array`: GraphQL `Bytes`, base64) and a `persist: false` getter typed by its declared
 * `type` (`noteCount: Int`). Over HTTP on SQLite, PostgreSQL and MariaDB, read through every path
 * (a root connection's lean records, `node`'s managed entity, a mutation payload) and written by
 * create, update and clear, each answer checked against `em.findOne` on the same database; where
 * predicates on decimal and date columns compare values and refuse text that is none.
 */
import { assert, assertEquals, assertMatch } from "@std/assert";
import { Buffer } from "node:buffer";
import { entities } from "../../examples/shop/entities.ts";
import { Customer } from "../../examples/shop/entities/customer.ts";
import { Order } from "../../examples/shop/entities/order.ts";
import { createSchema, graph, typeDefs } from "../../examples/shop/generated/mod.ts";
import { globalIdOf } from "../../runtime/plan/global_id.ts";
import { dialects, openTestOrm } from "../support/databases.ts";
import { startServer, type TestServer } from "../support/server.ts";

type Data = Record<string, unknown>;

async function ok<T = Data>(
  server: TestServer,
  query: string,
  variables?: Record<string, unknown>,
): Promise<T> {
  const response = await server.query<T>(query, variables);
  assertEquals(response.errors, undefined, query);
  return response.data as T;
}

const FIELDS = "id giftMessage invoice signature noteCount";

/** Base64 of `bytes`, read in place. */
function encodeBase64(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64");
}

/** What the server should answer for `order` (read with its lazy reference loaded). */
function expected(order: Order): Data {
  const bytes = (value: Uint8Array | null | undefined) => value ? encodeBase64(value) : null;
  return {
    id: globalIdOf(graph, graph.types.Order, order.id),
    giftMessage: order.giftMessage?.unwrap() ?? null,
    invoice: bytes(order.invoice),
    signature: bytes(order.signature),
    noteCount: order.notes.length,
  };
}

Deno.test("scalar kinds SDL: Bytes, a ref scalar's own type, a getter's declared type", () => {
  assertMatch(typeDefs, /^scalar Bytes$/m);
  assertMatch(typeDefs, /^\s+giftMessage: String$/m);
  assertMatch(typeDefs, /^\s+invoice: Bytes$/m);
  assertMatch(typeDefs, /^\s+noteCount: Int$/m);
  // Binary columns have no where predicates and are not orderable.
  assertEquals(/invoiceNEQ|invoiceIn\b/.test(typeDefs), false);
});

for (const dialect of dialects()) {
  Deno.test({
    name: `scalar kinds on ${dialect}: ref scalars, binary columns, typed getters`,
    sanitizeOps: false,
    sanitizeResources: false,
    fn: async (t) => {
      const db = await openTestOrm(dialect, entities);
      const server = startServer(db.orm, createSchema());
      const em = () => db.orm.em.fork();
      const read = async (id: string) =>
        await em().findOneOrFail(Order, id, { populate: ["giftMessage"] as never });
      try {
        const setup = em();
        const customer = setup.create(Customer, {
          name: "ada",
          email: "ada@example.com",
          createdAt: new Date(Date.UTC(2026, 0, 1)),
        });
        await setup.flush();
        const customerID = globalIdOf(graph, graph.types.Customer, customer.id);
        const bytes = new Uint8Array([0, 1, 2, 250, 255, 10, 13]);
        let id = "";

        await t.step("create writes every kind; the payload reads them back", async () => {
          const data = await ok<{ createOrder: Data }>(
            server,
            `mutation($input: CreateOrderInput!) { createOrder(input: $input) { ${FIELDS} } }`,
            {
              input: {
                customerID,
                notes: ["a", "b"],
                giftMessage: "happy birthday",
                invoice: encodeBase64(bytes),
                signature: encodeBase64(bytes.slice(2)),
              },
            },
          );
          id = data.createOrder.id as string;
          const row = await read(
            (await em().findOneOrFail(Order, { customer: customer.id })).id,
          );
          assertEquals(row.giftMessage?.unwrap(), "happy birthday");
          assertEquals([...row.invoice!], [...bytes]);
          assertEquals(data.createOrder, expected(row));
        });

        await t.step("reads: root connection (records) and node (entity) agree", async () => {
          const row = await read((await em().find(Order, {}))[0].id);
          const list = await ok<{ orders: { edges: { node: Data }[] } }>(
            server,
            `{ orders { edges { node { ${FIELDS} } } } }`,
          );
          assertEquals(list.orders.edges.map((e) => e.node), [expected(row)]);
          const node = await ok<{ node: Data }>(
            server,
            `query($id: ID!) { node(id: $id) { ... on Order { ${FIELDS} } } }`,
            { id },
          );
          assertEquals(node.node, expected(row));
        });

        await t.step("update and clear a ref scalar and a binary column", async () => {
          const updated = await ok<{ updateOrder: Data }>(
            server,
            `mutation($id: ID!) { updateOrder(id: $id, input: { giftMessage: "thanks",
              clearInvoice: true }) { ${FIELDS} } }`,
            { id },
          );
          const row = await read((await em().find(Order, {}))[0].id);
          assertEquals(row.giftMessage?.unwrap(), "thanks");
          assertEquals(row.invoice ?? null, null);
          assertEquals(updated.updateOrder, expected(row));
          const cleared = await ok<{ updateOrder: Data }>(
            server,
            `mutation($id: ID!) { updateOrder(id: $id, input: { clearGiftMessage: true }) {
              giftMessage } }`,
            { id },
          );
          assertEquals(cleared.updateOrder.giftMessage, null);
          assertEquals((await read(row.id)).giftMessage?.unwrap() ?? null, null);
        });

        await t.step("a value that is not base64 is refused before any write", async () => {
          const response = await server.query(
            `mutation($id: ID!, $bytes: Bytes) { updateOrder(id: $id, input: { invoice: $bytes }) {
              id } }`,
            { id, bytes: "not base64!" },
          );
          assertMatch(
            String(response.errors?.[0]?.message),
            /invalid value "not base64!"; Expected type Bytes/,
          );
          assertEquals((await read((await em().find(Order, {}))[0].id)).invoice ?? null, null);
        });
        await t.step("decimal and date columns compare as values, bad text refused", async () => {
          const data = await ok<{ customers: { totalCount: number } }>(
            server,
            `{ customers(where: { balanceGTE: "0.00", birthdayIsNil: true }) { totalCount } }`,
          );
          assertEquals(data.customers.totalCount, await em().count(Customer, { birthday: null }));
          for (const where of [{ balanceGT: "ba" }, { birthdayLT: "soon" }]) {
            const response = await server.query(
              `query ($w: CustomerWhereInput) { customers(where: $w) { totalCount } }`,
              { w: where },
            );
            const error = response.errors?.[0];
            assertEquals(error?.extensions?.code, "BAD_USER_INPUT", JSON.stringify(where));
            assert(error!.message.includes(`w.${Object.keys(where)[0]}`), error!.message);
          }
          // No text matching on them (`balanceContains` is not in the where input).
          const text = await server.query(
            `{ customers(where: { balanceContains: "1" }) { totalCount } }`,
          );
          assertEquals(
            (text.errors?.[0] as { extensions?: { code?: string } })?.extensions?.code,
            "GRAPHQL_VALIDATION_FAILED",
          );
        });
      } finally {
        await server.close();
        await db.close();
      }
    },
  });
}
