import { defineEntity, type Opt, p } from "@mikro-orm/core";
import { annotate, Mutations, OrderField, QueryField, RelayConnection } from "@mikrogql/ext";
import { Address } from "./address.ts";
import { CouponCodeType } from "./coupon_code.ts";
import { Interest, Priority, Tier } from "./enums.ts";
import { Order } from "./order.ts";

/**
 * A customer (`defineEntity` style): every scalar type, nullable and defaulted properties, a
 * hidden password, a lazy text, a formula, self-references (m:1, 1:m, unidirectional m:n).
 */
export const Customer = defineEntity({
  name: "Customer",
  properties: {
    id: p.integer().primary(),
    /** The customer's full name. */
    name: p.string(),
    /** The customer's unique email address. */
    email: p.string().unique(),
    /** Never exposed (`hidden`); set by the application, not through GraphQL. */
    passwordHash: p.string().hidden().nullable(),
    /** Loaded only when selected (`lazy`). */
    bio: p.text().lazy().nullable(),
    /** Other names the customer goes by. */
    nicknames: p.array().default([]),
    /** The customer's loyalty tier. */
    tier: p.enum(() => Tier).default(Tier.Bronze),
    /** How urgently the customer's requests are handled. */
    priority: p.enum(() => Priority).default(Priority.Normal),
    /** The product categories the customer follows. */
    interests: p.enum(() => Interest).array().default([]),
    /** Whether the customer's account is open. */
    active: p.boolean().default(true),
    /** A custom type (`Type` subclass): stored upper-cased. */
    couponCode: p.type(CouponCodeType).nullable(),
    /** Loyalty points collected (a 64-bit integer). */
    points: p.bigint().default(0),
    /** Store credit, a decimal amount. */
    balance: p.decimal().precision(10).scale(2).default("0.00"),
    /** The customer's average review score, if any. */
    rating: p.double().nullable(),
    /** The customer's date of birth, if given. */
    birthday: p.date().nullable(),
    /** The time of day the customer prefers to be contacted from. */
    wakeUpAt: p.time().nullable(),
    /** Free-form settings of the customer's account (JSON). */
    preferences: p.json<Record<string, unknown>>().nullable(),
    /** When the customer signed up. */
    createdAt: p.datetime().onCreate(() => new Date()),
    /** Inline embeddable: flattened `address_*` columns. */
    address: () => p.embedded(Address).nullable(),
    /** Number of orders: an SQL formula, read-only. */
    orderCount: p.formula<Opt<number>>((cols) =>
      `(select count(*) from orders o where o.customer_id = ${cols.id})`
    ).type("integer"),
    /** The customer who referred this one, if any. */
    referrer: () => p.manyToOne(Customer).nullable().index(),
    /** The customers this one referred. */
    referrals: () => p.oneToMany(Customer).mappedBy("referrer"),
    /** Unidirectional self-referencing m:n. */
    friends: () => p.manyToMany(Customer),
    /** The customer's orders. */
    orders: () => p.oneToMany(Order).mappedBy("customer"),
  },
});

annotate(Customer, {
  entity: [QueryField(), Mutations()],
  fields: {
    name: [OrderField("NAME")],
    points: [OrderField("POINTS")],
    orders: [RelayConnection()],
    friends: [RelayConnection()],
  },
});
