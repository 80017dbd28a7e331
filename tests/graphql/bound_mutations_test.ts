/**
 * No value of a mutation, nor of a read MikroORM's `em.find` makes, is ever part of the SQL text
 * the database receives: on PostgreSQL and SQLite, every statement the driver is asked to send
 * (recorded at `pg`'s `client.query` and at `node:sqlite`'s prepared statements,
 * `tests/support/sent_statements.ts`) while the shop example (examples/shop) creates, updates,
 * reads and deletes a customer, an order and a card payment (a single-table inheritance child)
 * with values of every scalar kind (strings with quotes and backslashes, bigints beyond 2^52,
 * decimals, dates, times, datetimes, JSON, an embeddable object and an embeddable array, string
 * arrays, custom types, `Bytes`, global ids and their keys) carries them beside the text; and each
 * written value reads back through `em.findOne` (the oracle) as written, on the production stack
 * (`mikrogqlPreset` as `startServer` installs it: each mutation in the Transactioner's
 * transaction).
 */
import { assert, assertEquals } from "@std/assert";
import { Buffer } from "node:buffer";
import { entities } from "../../examples/shop/entities.ts";
import { Customer } from "../../examples/shop/entities/customer.ts";
import { Order } from "../../examples/shop/entities/order.ts";
import { CardPayment } from "../../examples/shop/entities/payment.ts";
import { seed } from "../../examples/shop/seed.ts";
import { createSchema } from "../../examples/shop/generated/mod.ts";
import { dialects, openTestOrm } from "../support/databases.ts";
import { recordingOptions, type Sent } from "../support/sent_statements.ts";
import { startServer, type TestServer } from "../support/server.ts";

type Data = Record<string, unknown>;

const ADA = btoa("Customer:1").replace(/=+$/, "");
const INVOICE = Uint8Array.from([0xde, 0xad, 0xbe, 0xef, 0x51, 0x7a, 0x27, 0x5c]);
const SIGNATURE = Uint8Array.from([0x0b, 0xad, 0xf0, 0x0d, 0x77, 0x31]);
const PLACED_AT = "2031-07-19T08:09:10.000Z";
const PAID_AT = "2032-03-04T05:06:07.000Z";

/** Distinctive values: none of them can appear in SQL text by chance. */
const CUSTOMER = {
  name: `O'Brien "Qv7731" \\ ; --`,
  email: "qv7731.o'b@example.com",
  bio: "Bq'4417 \\n",
  nicknames: ["Nk'8812", 'Nk"8813'],
  tier: "Gold",
  interests: ["Books"],
  active: false,
  couponCode: "cc'5521",
  points: "4503599627370497",
  balance: "86420.13",
  rating: 0.000123456789,
  birthday: "1987-06-05",
  wakeUpAt: "07:41:13",
  preferences: { Pk5511: "Pv'6622", nested: [1, "Pn'3377"] },
  address: {
    street: "St'7744",
    city: "Cy9933",
    zip: "Zp4455",
    geo: { lat: 12.3456789, lng: -98.7654321 },
  },
  friendIDs: [ADA],
};
const UPDATE = {
  name: "Upd'5599",
  points: "-4503599627370499",
  balance: "97531.02",
  birthday: "1990-01-02",
  preferences: { Pk6611: "Pv'7722" },
  address: { street: "Su'8855", city: "Cu6644" },
};

/** What no statement's text may hold: every value above, as text the database would read. */
function forbidden(): string[] {
  const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex");
  return [
    "Qv7731",
    "Bq'4417",
    "Nk'8812",
    'Nk"8813',
    "CC'5521",
    "cc'5521",
    "4503599627370497",
    "4503599627370499",
    "86420.13",
    "97531.02",
    "0.000123456789",
    "1.23456789e-4",
    "1987-06-05",
    "1990-01-02",
    "07:41:13",
    "Pk5511",
    "Pv'6622",
    "Pn'3377",
    "Pk6611",
    "St'7744",
    "Cy9933",
    "Zp4455",
    "12.3456789",
    "98.7654321",
    "Su'8855",
    "Cu6644",
    "Upd'5599",
    "2031-07-19",
    "2032-03-04",
    String(Date.parse(PLACED_AT)),
    String(Date.parse(PAID_AT)),
    "Nt'3321",
    "Gm'4411",
    "Gm'4412",
    "Pl'9911",
    "43.21",
    "4321",
    hex(INVOICE),
    hex(SIGNATURE),
  ].flatMap((value) => [value, value.replaceAll("'", "''"), value.toUpperCase()]);
}

async function ok<T = Data>(server: TestServer, query: string, variables?: Data): Promise<T> {
  const response = await server.query<T>(query, variables);
  assertEquals(response.errors, undefined, query);
  return response.data as T;
}

const base64 = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64");

for (const dialect of dialects()) {
  Deno.test({
    name: `mutations and em.find reads send every value as a bound parameter (${dialect})`,
    sanitizeOps: false,
    sanitizeResources: false,
    fn: async () => {
      const sent: Sent[] = [];
      // MariaDB: mysql2 formats the values into the text it sends (client-side escaping), so
      // there only the values' round trip is checked.
      const recorded = dialect !== "mariadb";
      const db = await openTestOrm(
        dialect,
        entities,
        (recorded ? recordingOptions(dialect, sent) : {}) as never,
      );
      await seed(db.orm.em.fork());
      const server = startServer(db.orm, createSchema(), [], { maskedErrors: false });
      try {
        sent.length = 0;
        const { createCustomer: created } = await ok<{ createCustomer: { id: string } }>(
          server,
          `mutation($c: CreateCustomerInput!) { createCustomer(input: $c) { id } }`,
          { c: CUSTOMER },
        );
        const { createOrder: order } = await ok<{ createOrder: { id: string } }>(
          server,
          `mutation($o: CreateOrderInput!) { createOrder(input: $o) { id } }`,
          {
            o: {
              customerID: created.id,
              status: "Paid",
              placedAt: PLACED_AT,
              notes: ["Nt'3321"],
              shippingAddress: CUSTOMER.address,
              parcels: [{ weightGrams: 4321, label: "Pl'9911", size: "Small" }],
              giftMessage: "Gm'4411",
              invoice: base64(INVOICE),
              signature: base64(SIGNATURE),
            },
          },
        );
        const { createCardPayment: payment } = await ok<{ createCardPayment: { id: string } }>(
          server,
          `mutation($p: CreateCardPaymentInput!) { createCardPayment(input: $p) { id } }`,
          { p: { orderID: order.id, amount: "43.21", paidAt: PAID_AT, cardLast4: "4321" } },
        );
        await ok(
          server,
          `mutation($id: ID!, $u: UpdateCustomerInput!, $o: ID!) {
            updateCustomer(id: $id, input: $u) { id name }
            updateOrder(id: $o, input: { giftMessage: "Gm'4412", clearInvoice: true }) { id } }`,
          { id: created.id, u: UPDATE, o: order.id },
        );

        // The oracle: what MikroORM reads back is what was written.
        const em = db.orm.em.fork();
        const key = Number(atob(created.id).split(":")[1]);
        const customer = await em.findOneOrFail(Customer, key, { populate: ["bio"] as never });
        assertEquals(customer.name, UPDATE.name);
        assertEquals(String(customer.points), UPDATE.points);
        assertEquals(Number(customer.balance), Number(UPDATE.balance));
        assertEquals(customer.couponCode, "CC'5521");
        assertEquals(customer.nicknames, CUSTOMER.nicknames);
        assertEquals(customer.rating, CUSTOMER.rating);
        assertEquals(customer.wakeUpAt, CUSTOMER.wakeUpAt);
        assertEquals(customer.preferences, UPDATE.preferences);
        assertEquals(customer.address?.street, UPDATE.address.street);
        assertEquals(customer.address?.geo ?? null, null);
        assertEquals(customer.active, false);
        const saved = await em.findOneOrFail(Order, { customer: key }, {
          populate: ["giftMessage"] as never,
        });
        assertEquals(saved.placedAt.toISOString(), PLACED_AT);
        assertEquals(saved.notes, ["Nt'3321"]);
        assertEquals({ ...saved.shippingAddress?.geo } as unknown, CUSTOMER.address.geo);
        assertEquals(saved.parcels.map((p) => [p.weightGrams, p.label]), [[4321, "Pl'9911"]]);
        assertEquals(saved.giftMessage?.unwrap(), "Gm'4412");
        assertEquals(saved.invoice ?? null, null);
        assertEquals(base64(saved.signature!), base64(SIGNATURE));
        const card = await em.findOneOrFail(CardPayment, { order: saved.id });
        assertEquals([Number(card.amount), card.paidAt.toISOString()], [43.21, PAID_AT]);

        // Reads through em.find paths: the inheritance root, embeddables, a formula.
        const read = await ok<{ payments: { edges: { node: Data }[] }; node: Data }>(
          server,
          `query($o: ID!, $amount: Decimal!, $at: Time!) {
            payments(where: { amountGTE: $amount, paidAtGTE: $at }) { edges { node {
              __typename id amount ... on CardPayment { cardLast4 } order { id } } } }
            node(id: $o) { ... on Order { id placedAt shippingAddress { street geo { lat } }
              parcels { label } customer { name points balance birthday orderCount
                address { city } } payments { __typename id } } } }`,
          { o: order.id, amount: "43.21", at: PAID_AT },
        );
        assertEquals(read.payments.edges.map((e) => e.node.id), [payment.id]);
        assertEquals(read.node.placedAt, PLACED_AT);
        assertEquals(
          (read.node.customer as Data).name,
          UPDATE.name,
        );
        assertEquals((read.node.payments as Data[]).map((p) => p.id), [payment.id]);

        await ok(
          server,
          `mutation($p: ID!, $o: ID!, $c: ID!) {
            deleteCardPayment(id: $p) deleteOrder(id: $o) deleteCustomer(id: $c) }`,
          { p: payment.id, o: order.id, c: created.id },
        );
        assertEquals(await db.orm.em.fork().count(Customer, { id: key }), 0);

        // What the driver was asked to send.
        if (!recorded) return;
        assert(sent.length >= 20, `${sent.length} statements`);
        const texts = sent.map((s) => s.text).join("\n");
        for (const value of forbidden()) {
          assert(!texts.includes(value), `${value} in SQL text:\n${texts}`);
        }
        // The order's UUID key (its global id's key) is a parameter, never text.
        const uuid = saved.id;
        assert(!texts.includes(uuid), `${uuid} in SQL text`);
        const values = sent.flatMap((s) => s.values);
        const has = (test: (v: unknown) => boolean, what: string) =>
          assert(values.some(test), `${what} not among the parameters`);
        const text = (v: unknown) =>
          v instanceof Uint8Array ? Buffer.from(v).toString("hex") : String(v);
        for (
          const [value, what] of [
            ["Qv7731", "the name"],
            ["Upd'5599", "the new name"],
            ["4503599627370497", "the bigint"],
            ["86420.13", "the decimal"],
            ["1987-06-05", "the date"],
            ["07:41:13", "the time"],
            ["Pv'6622", "the JSON"],
            ["St'7744", "the embeddable"],
            ["Pl'9911", "the embeddable array"],
            ["Nk'8812", "the string array"],
            ["CC'5521", "the custom type's value"],
            [Buffer.from(INVOICE).toString("hex"), "the Bytes"],
            [uuid, "the order's key"],
            ["43.21", "the where value"],
          ]
        ) {
          has((v) => text(v).includes(value), what);
        }
        has((v) => v === key || v === String(key), "the customer's key");
        // Every statement's placeholders match its values.
        for (const s of sent) {
          const count = dialect === "postgresql"
            ? Math.max(0, ...[...s.text.matchAll(/\$(\d+)/g)].map((m) => Number(m[1])))
            : s.text.split("?").length - 1;
          assertEquals(count, s.values.length, s.text);
        }
      } finally {
        await server.close();
        await db.close();
      }
    },
  });
}
