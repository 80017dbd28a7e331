/**
 * Seed data of the shop example: customers (with a referrer and friends) and their orders.
 *
 * @module
 */
import { Buffer } from "node:buffer";
import type { EntityManager } from "@mikro-orm/core";
import { Customer } from "./entities/customer.ts";
import { Interest, OrderStatus, Priority, Tier } from "./entities/enums.ts";
import { Order } from "./entities/order.ts";
import { ParcelSize } from "./entities/parcel.ts";
import { Author } from "./entities/author.ts";
import { Contribution, ContributorRole } from "./entities/contribution.ts";
import { CardPayment, TransferPayment } from "./entities/payment.ts";
import { Book, Gadget } from "./entities/product.ts";
import { Shipment } from "./entities/shipment.ts";
import { OrderLine } from "./entities/order_line.ts";
import { Clerk, Manager, Owner } from "./entities/staff.ts";

/**
 * Inserts deterministic data: `ada` (gold, high priority, 2 orders), `bob` (referred by ada,
 * friend of ada, 1 order) and `cy` (all defaults, no order).
 *
 * @returns the number of rows inserted
 */
export async function seed(em: EntityManager): Promise<number> {
  const ada = em.create(Customer, {
    name: "Ada",
    email: "ada@example.com",
    passwordHash: "hash-ada",
    bio: "Reads a lot.",
    nicknames: ["ace", "countess"],
    tier: Tier.Gold,
    priority: Priority.High,
    interests: [Interest.Books, Interest.Music],
    points: 4_294_967_296n,
    balance: "12.50",
    rating: 4.5,
    birthday: "1990-12-10",
    wakeUpAt: "06:30:00",
    preferences: { newsletter: true },
    createdAt: new Date(Date.UTC(2026, 0, 1)),
    address: { street: "1 Main St", city: "Paris", zip: "75001", geo: { lat: 48.86, lng: 2.35 } },
  });
  const bob = em.create(Customer, {
    name: "Bob",
    email: "bob@example.com",
    passwordHash: "hash-bob",
    referrer: ada,
    createdAt: new Date(Date.UTC(2026, 0, 2)),
    address: { street: "2 Side St", city: "Lyon" },
  });
  em.create(Customer, {
    name: "Cy",
    email: "cy@example.com",
    passwordHash: "hash-cy",
    createdAt: new Date(Date.UTC(2026, 0, 3)),
  });
  bob.friends.add(ada);
  const orders = [
    {
      customer: ada,
      status: OrderStatus.Shipped,
      tier: Tier.Gold,
      day: 5,
      notes: ["gift"],
      shippingAddress: { street: "9 Dock Rd", city: "Le Havre", geo: { lat: 49.49, lng: 0.1 } },
      parcels: [{ weightGrams: 1200, label: "books", size: ParcelSize.Large }, {
        weightGrams: 300,
        size: ParcelSize.Small,
      }],
    },
    { customer: ada, status: OrderStatus.Paid, tier: Tier.Gold, day: 6, notes: [] },
    { customer: bob, status: OrderStatus.Placed, tier: undefined, day: 7, notes: [] },
  ].map(({ day, ...o }) => em.create(Order, { ...o, placedAt: new Date(Date.UTC(2026, 1, day)) }));
  em.create(Shipment, { order: orders[0], carrier: "La Poste", trackingCode: "LP123" });
  const paidAt = new Date(Date.UTC(2026, 1, 5, 12));
  em.create(CardPayment, { order: orders[0], amount: "30.00", cardLast4: "4242", paidAt });
  em.create(TransferPayment, { order: orders[0], amount: "12.50", iban: "FR76 3000", paidAt });
  em.create(CardPayment, { order: orders[1], amount: "8.00", cardLast4: "1881", paidAt });
  const dune = em.create(Book, {
    name: "Dune",
    price: "9.99",
    isbn: "978-0441172719",
    pages: 412,
  });
  const emma = em.create(Book, { name: "Emma", price: "4.50", isbn: "978-0141439587" });
  const frank = em.create(Author, { name: "Frank Herbert" });
  const jane = em.create(Author, { name: "Jane Austen" });
  const brian = em.create(Author, { name: "Brian Herbert", mentor: frank });
  // The books' own rows (table per type) before the pivot rows pointing at them.
  await em.flush();
  em.create(Contribution, { book: dune, author: frank, role: ContributorRole.Author, position: 1 });
  em.create(Contribution, { book: dune, author: brian, role: ContributorRole.Editor, position: 2 });
  em.create(Contribution, { book: emma, author: jane, role: ContributorRole.Author, position: 1 });
  em.create(Gadget, { name: "Lamp", price: "25.00", warrantyMonths: 24 });
  orders[0].invoice = Buffer.from("%PDF-1.7");
  // Order lines (keyed by order and line number), largest quantity first in `Order.lines`.
  em.create(OrderLine, { order: orders[0], lineNo: 1, sku: "dune", quantity: 1 });
  em.create(OrderLine, { order: orders[0], lineNo: 2, sku: "emma", quantity: 3 });
  em.create(OrderLine, { order: orders[1], lineNo: 1, sku: "lamp", quantity: 2 });
  // Staff: a single-table inheritance whose root has no rows of its own.
  const clerk = em.create(Clerk, { name: "Dee", desk: "front" });
  em.create(Manager, { name: "Eli", budget: 500, assistant: clerk });
  em.create(Owner, { name: "Fay", budget: 900, shares: 60 });
  await em.flush();
  return 3 + orders.length + 1 + 3 + 3 + 3 + 3 + 3 + 3;
}
