/**
 * The shop's `Order.lines` (examples/shop/entities/order_line.ts): a connection to `OrderLine`,
 * keyed by its order and a line number, and collections' declared order (MikroORM `orderBy` on
 * the property: `Order.lines` largest quantity first, `Order.payments` latest first). Over HTTP on
 * SQLite, PostgreSQL and MariaDB, on random rows (the seed is printed; `LINES_SEED=<n>` replays),
 * each answer checked against `em.find` on the same database: the declared order (then the key)
 * without `orderBy`, the `orderBy` argument over it, cursors both ways, `node`/`nodes` of
 * composite ids, nested batching over many orders (one statement per level), grouped counts and
 * pages of many customers' orders under where predicates on the inverse one-to-one `shipment` and
 * on `lines`, create and update.
 */
import { assertEquals } from "@std/assert";
import type { EntityManager } from "@mikro-orm/core";
import { entities } from "../../examples/shop/entities.ts";
import { Customer } from "../../examples/shop/entities/customer.ts";
import { Order } from "../../examples/shop/entities/order.ts";
import { OrderStatus } from "../../examples/shop/entities/enums.ts";
import { OrderLine } from "../../examples/shop/entities/order_line.ts";
import { CardPayment, Payment, TransferPayment } from "../../examples/shop/entities/payment.ts";
import { Shipment } from "../../examples/shop/entities/shipment.ts";
import { createSchema, graph } from "../../examples/shop/generated/mod.ts";
import { globalIdOf } from "../../runtime/plan/global_id.ts";
import { primaryKeyOf } from "../../runtime/keys.ts";
import { nodeTypeOf } from "../../runtime/graph.ts";
import { dialects, openTestOrm } from "../support/databases.ts";
import { random } from "../support/random_data.ts";
import { startServer, type TestServer } from "../support/server.ts";
import { testSeed } from "../support/test_seed.ts";

type Data = Record<string, unknown>;
type Page = { edges: { node: Data; cursor: string }[]; pageInfo: Data; totalCount: number };

const SEED = testSeed("LINES_SEED", 20_261_129);

async function ok<T = Data>(
  server: TestServer,
  query: string,
  variables?: Record<string, unknown>,
): Promise<T> {
  const response = await server.query<T>(query, variables);
  assertEquals(response.errors, undefined, `${query} (seed ${SEED})`);
  return response.data as T;
}

function idOf(row: object): string {
  const type = nodeTypeOf(graph, row)!;
  return globalIdOf(graph, type, primaryKeyOf(type, row));
}

/** Random orders, each with 0 to 6 lines (quantities and SKUs tie often) and payments. */
async function seedOrders(em: EntityManager, seed: number): Promise<void> {
  const rand = random(seed);
  const pick = <T>(list: readonly T[]) => list[Math.floor(rand() * list.length)];
  const customer = em.create(Customer, {
    name: "ada",
    email: "ada@example.com",
    createdAt: new Date(Date.UTC(2026, 0, 1)),
  });
  for (let o = 0; o < 6; o++) {
    const order = em.create(Order, {
      customer,
      status: OrderStatus.Placed,
      notes: [],
      placedAt: new Date(Date.UTC(2026, 1, 1 + o)),
    });
    const lines = Math.floor(rand() * 7);
    for (let n = 1; n <= lines; n++) {
      em.create(OrderLine, {
        order,
        lineNo: n * 10 + Math.floor(rand() * 3),
        sku: pick(["a", "b", "c"]),
        quantity: 1 + Math.floor(rand() * 3),
      });
    }
    for (let p = Math.floor(rand() * 4); p > 0; p--) {
      const paidAt = new Date(Date.UTC(2026, 1, 1 + Math.floor(rand() * 3)));
      if (rand() < 0.5) {
        em.create(CardPayment, { order, amount: "1.00", cardLast4: "4242", paidAt });
      } else em.create(TransferPayment, { order, amount: "2.00", iban: "FR76", paidAt });
    }
  }
  await em.flush();
}

for (const dialect of dialects()) {
  Deno.test({
    name: `Order.lines and declared collection orders on ${dialect} (seed ${SEED})`,
    sanitizeOps: false,
    sanitizeResources: false,
    fn: async (t) => {
      const db = await openTestOrm(dialect, entities);
      await seedOrders(db.orm.em.fork(), SEED);
      const server = startServer(db.orm, createSchema());
      const em = () => db.orm.em.fork();
      const orders = async () => await em().find(Order, {}, { orderBy: { id: "asc" } });
      const lineIds = async (order: Order, orderBy: object[]) =>
        (await em().find(OrderLine, { order }, { orderBy: orderBy as never })).map(idOf);
      const declared = [{ quantity: "desc" }, { order: "asc" }, { lineNo: "asc" }];
      try {
        await t.step(
          "without orderBy: the declared order, then the key; nested, batched",
          async () => {
            db.log.length = 0;
            const data = await ok<{ orders: { edges: { node: Data }[] } }>(
              server,
              `{ orders(first: 100) { edges { node { id lines { totalCount edges { node { id
              lineNo quantity order { id } } } } payments { id ... on CardPayment { paidAt }
              ... on TransferPayment { paidAt } } } } } }`,
            );
            // One statement per level: orders, their lines (for every order at once, counted
            // from the rows), the lines' orders, payments (a list: no cursor values read).
            assertEquals(
              db.log.filter((s) => /^\s*select/i.test(s)).length,
              4,
              db.log.join("\n"),
            );
            for (const { node } of data.orders.edges) {
              const order = (await orders()).find((o) => idOf(o) === node.id)!;
              const lines = node.lines as Page;
              assertEquals(lines.edges.map((e) => e.node.id), await lineIds(order, declared));
              assertEquals(lines.totalCount, await em().count(OrderLine, { order }));
              for (const e of lines.edges) assertEquals((e.node.order as Data).id, node.id);
              const payments = await em().find(Payment, { order }, {
                orderBy: [{ paidAt: "desc" }, { id: "asc" }],
              });
              assertEquals((node.payments as Data[]).map((p) => p.id), payments.map(idOf));
            }
          },
        );

        await t.step("cursors page both ways, in the declared order and by orderBy", async () => {
          for (const order of await orders()) {
            for (
              const [orderBy, mikro] of [
                ["", declared],
                ["orderBy: { field: SKU, direction: DESC }", [{ sku: "desc" }, { order: "desc" }, {
                  lineNo: "desc",
                }]],
              ] as const
            ) {
              const want = await lineIds(order, [...mikro]);
              const forward: string[] = [];
              let after: string | null = null;
              for (let i = 0; i < 20; i++) {
                const data: { node: { lines: Page } } = await ok(
                  server,
                  `query($id: ID!, $after: Cursor) { node(id: $id) { ... on Order {
                    lines(first: 2, after: $after ${orderBy}) { edges { node { id } cursor }
                    pageInfo { hasNextPage endCursor } } } } }`,
                  { id: idOf(order), after },
                );
                forward.push(...data.node.lines.edges.map((e) => e.node.id as string));
                if (!data.node.lines.pageInfo.hasNextPage) break;
                after = data.node.lines.pageInfo.endCursor as string;
              }
              assertEquals(forward, want, `forward ${orderBy}`);
              const backward: string[] = [];
              let before: string | null = null;
              for (let i = 0; i < 20; i++) {
                const data: { node: { lines: Page } } = await ok(
                  server,
                  `query($id: ID!, $before: Cursor) { node(id: $id) { ... on Order {
                    lines(last: 2, before: $before ${orderBy}) { edges { node { id } }
                    pageInfo { hasPreviousPage startCursor } } } } }`,
                  { id: idOf(order), before },
                );
                backward.unshift(...data.node.lines.edges.map((e) => e.node.id as string));
                if (!data.node.lines.pageInfo.hasPreviousPage) break;
                before = data.node.lines.pageInfo.startCursor as string;
              }
              assertEquals(backward, want, `backward ${orderBy}`);
            }
          }
        });

        await t.step("node and nodes of composite OrderLine ids", async () => {
          const lines = await em().find(OrderLine, {}, {
            orderBy: [{ order: "asc" }, { lineNo: "asc" }],
          });
          const ids = lines.map(idOf);
          const data = await ok<{ nodes: Data[] }>(
            server,
            `query($ids: [ID!]!) { nodes(ids: $ids) { id ... on OrderLine { lineNo sku quantity
              order { id } } } }`,
            { ids },
          );
          assertEquals(
            data.nodes,
            lines.map((l) => ({
              id: idOf(l),
              lineNo: l.lineNo,
              sku: l.sku,
              quantity: l.quantity,
              order: { id: idOf(l.order.unwrap()) },
            })),
          );
        });

        await t.step("a payment reached again below its order keeps each selection", async () => {
          // The same managed payment is a node (its `order` selected without parcels) and a row
          // of that order's `payments` (an interface: edges not collected), whose `order`
          // selects parcels: each path gets the order it selected.
          const payment = await em().findOneOrFail(Payment, { order: { $ne: null } }, {
            orderBy: { id: "asc" },
          });
          const data = await ok<{ node: Data }>(
            server,
            `query($id: ID!) { node(id: $id) { ... on Payment { order { status payments {
              id order { id parcels { weightGrams } } } } } } }`,
            { id: idOf(payment) },
          );
          const order = data.node.order as Data;
          for (const p of order.payments as Data[]) {
            assertEquals((p.order as Data).parcels, [], `payment ${p.id}`);
          }
        });

        await t.step(
          "grouped counts and pages under has<Edge> predicates on an inverse one-to-one",
          async () => {
            // Two customers (a grouped count over several parents), some orders shipped. A
            // condition on `shipment` (inverse 1:1) joins the shipment; `shipment: null` once
            // also selected its key, a column the count's GROUP BY does not name (PostgreSQL).
            const seeded = em();
            const bob = seeded.create(Customer, {
              name: "bob",
              email: "bob@example.com",
              createdAt: new Date(Date.UTC(2026, 0, 2)),
            });
            for (let o = 0; o < 4; o++) {
              const order = seeded.create(Order, {
                customer: bob,
                status: OrderStatus.Placed,
                notes: [],
                placedAt: new Date(Date.UTC(2026, 2, 1 + o)),
              });
              if (o < 2) seeded.create(OrderLine, { order, lineNo: 1, sku: "a", quantity: 1 });
            }
            await seeded.flush();
            const all = await orders();
            for (const [i, order] of all.entries()) {
              if (i % 3 !== 1) {
                seeded.create(Shipment, { order: order.id, carrier: i % 2 ? "ups" : "dhl" });
              }
            }
            await seeded.flush();
            const customers = await em().find(Customer, {}, { orderBy: { id: "asc" } });
            const cases: [string, object][] = [
              ["{ hasShipment: false }", { shipment: null }],
              ["{ hasShipment: true }", { shipment: { $ne: null } }],
              ["{ not: { hasShipment: true } }", { shipment: null }],
              ['{ hasShipmentWith: [{ carrier: "ups" }] }', { shipment: { carrier: "ups" } }],
              ["{ hasShipment: false, hasLines: true }", {
                shipment: null,
                lines: { $some: {} },
              }],
              ['{ or: [{ hasShipment: false }, { hasLinesWith: [{ sku: "a" }] }] }', {
                $or: [{ shipment: null }, { lines: { $some: { sku: "a" } } }],
              }],
            ];
            for (const [where, filter] of cases) {
              const data = await ok<{ customers: { edges: { node: Data }[] } }>(
                server,
                `{ customers(first: 10) { edges { node { id
                  paged: orders(first: 2, where: ${where}) { totalCount edges { node { id } } }
                  counted: orders(where: ${where}) { totalCount } } } } }`,
              );
              assertEquals(data.customers.edges.length, customers.length);
              for (const [i, customer] of customers.entries()) {
                const node = data.customers.edges[i].node;
                assertEquals(node.id, idOf(customer));
                const mine = { $and: [{ customer }, filter] } as never;
                const count = await em().count(Order, mine);
                const first = await em().find(Order, mine, { orderBy: { id: "asc" }, limit: 2 });
                assertEquals((node.paged as Page).totalCount, count, `${where} (seed ${SEED})`);
                assertEquals((node.counted as Page).totalCount, count, `${where} (seed ${SEED})`);
                assertEquals(
                  (node.paged as Page).edges.map((e) => e.node.id),
                  first.map(idOf),
                  `${where} (seed ${SEED})`,
                );
              }
            }
          },
        );

        await t.step("create and update an order line", async () => {
          const [order] = await orders();
          const data = await ok<{ createOrderLine: Data }>(
            server,
            `mutation($order: ID!) { createOrderLine(input: { orderID: $order, lineNo: 999,
              sku: "z", quantity: 9 }) { id lineNo quantity order { id } } }`,
            { order: idOf(order) },
          );
          const row = await em().findOneOrFail(OrderLine, { order, lineNo: 999 });
          assertEquals(data.createOrderLine, {
            id: idOf(row),
            lineNo: 999,
            quantity: 9,
            order: { id: idOf(order) },
          });
          const updated = await ok<{ updateOrderLine: Data }>(
            server,
            `mutation($id: ID!) { updateOrderLine(id: $id, input: { quantity: 4 }) { id quantity } }`,
            { id: idOf(row) },
          );
          assertEquals(updated.updateOrderLine, { id: idOf(row), quantity: 4 });
          assertEquals((await em().findOneOrFail(OrderLine, { order, lineNo: 999 })).quantity, 4);
        });
      } finally {
        await server.close();
        await db.close();
      }
    },
  });
}
