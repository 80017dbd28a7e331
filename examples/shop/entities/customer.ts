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
    name: p.string(),
    email: p.string().unique(),
    /** Never exposed (`hidden`); set by the application, not through GraphQL. */
    passwordHash: p.string().hidden().nullable(),
    /** Loaded only when selected (`lazy`). */
    bio: p.text().lazy().nullable(),
    nicknames: p.array().default([]),
    tier: p.enum(() => Tier).default(Tier.Bronze),
    priority: p.enum(() => Priority).default(Priority.Normal),
    interests: p.enum(() => Interest).array().default([]),
    active: p.boolean().default(true),
    /** A custom type (`Type` subclass): stored upper-cased. */
    couponCode: p.type(CouponCodeType).nullable(),
    points: p.bigint().default(0),
    balance: p.decimal().precision(10).scale(2).default("0.00"),
    rating: p.double().nullable(),
    birthday: p.date().nullable(),
    wakeUpAt: p.time().nullable(),
    preferences: p.json<Record<string, unknown>>().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
    /** Inline embeddable: flattened `address_*` columns. */
    address: () => p.embedded(Address).nullable(),
    /** Number of orders: an SQL formula, read-only. */
    orderCount: p.formula<Opt<number>>((cols) =>
      `(select count(*) from orders o where o.customer_id = ${cols.id})`
    ).type("integer"),
    referrer: () => p.manyToOne(Customer).nullable().index(),
    referrals: () => p.oneToMany(Customer).mappedBy("referrer"),
    /** Unidirectional self-referencing m:n. */
    friends: () => p.manyToMany(Customer),
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
