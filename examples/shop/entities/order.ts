import type { Buffer } from "node:buffer";
import { Collection, type Opt, type Ref } from "@mikro-orm/core";
import {
  Embedded,
  Entity,
  Enum,
  ManyToOne,
  OneToMany,
  OneToOne,
  PrimaryKey,
  Property,
} from "@mikro-orm/decorators/es";
import { Mutations, OrderField, QueryField, RelayConnection } from "@mikrogql/ext";
import { Address } from "./address.ts";
import { Customer } from "./customer.ts";
import { OrderStatus, Tier } from "./enums.ts";
import { Parcel } from "./parcel.ts";
import { OrderLine } from "./order_line.ts";
import { Payment } from "./payment.ts";
import { Shipment } from "./shipment.ts";

/** An order (decorator style): UUID key, enums shared with the customer, a computed getter. */
@Entity({ tableName: "orders" })
@QueryField()
@Mutations()
export class Order {
  @PrimaryKey({ type: "uuid" })
  id: string = crypto.randomUUID();

  /** The customer who placed the order. */
  @ManyToOne({ entity: () => Customer, ref: true, index: true })
  customer!: Ref<InstanceType<typeof Customer.class>>;

  /** Where the order is in its life cycle. */
  @Enum({ items: () => OrderStatus })
  status: OrderStatus = OrderStatus.Placed;

  /** The customer's tier when ordering: the same TypeScript enum, the same GraphQL enum. */
  @Enum({ items: () => Tier, nullable: true })
  tier?: Tier;

  /** When the order was placed. */
  @OrderField("PLACED_AT")
  @Property({ type: "datetime" })
  placedAt: Date = new Date();

  /** Defaulted by the class initializer: optional in `CreateOrderInput`. */
  @Property({ type: "string[]" })
  notes: string[] = [];

  /** Object-mode embeddable: one JSON column. */
  @Embedded({ entity: () => Address, object: true, nullable: true })
  shippingAddress?: InstanceType<typeof Address.class>;

  /** An array of embeddables (a JSON column). */
  @Embedded({ entity: () => Parcel, array: true })
  parcels: Opt<Parcel[]> = [];

  /** Inverse side of the shipment keyed by this order. */
  @OneToOne({ entity: () => Shipment, mappedBy: "order", nullable: true })
  shipment?: Shipment;

  /**
   * Payments of the order: edges to the single-table inheritance root (the `Payment` interface),
   * latest first (the collection's declared order).
   */
  @OneToMany({ entity: () => Payment, mappedBy: "order", orderBy: { paidAt: "desc" } })
  payments = new Collection<Payment>(this);

  /**
   * The order's lines, a connection over a composite key; without `orderBy` in the order MikroORM
   * declares (largest quantity first), then by key.
   */
  @RelayConnection()
  @OneToMany({ entity: () => OrderLine, mappedBy: "order", orderBy: { quantity: "desc" } })
  lines = new Collection<OrderLine>(this);

  /** A gift message, loaded only when selected, held in a scalar reference (`ref: true`). */
  @Property({ type: "text", lazy: true, ref: true, nullable: true })
  giftMessage?: Ref<string> | null;

  /** The invoice document: a binary column (`blob`), `Bytes` in GraphQL (base64). */
  @Property({ type: "blob", nullable: true })
  invoice?: Buffer | null;

  /** A binary column read as a `Uint8Array`. */
  @Property({ type: "uint8array", nullable: true })
  signature?: Uint8Array | null;

  /** The number of notes: a `persist: false` getter typed by its declared `type`. */
  @Property({ type: "integer", persist: false })
  get noteCount(): number & Opt {
    return this.notes.length;
  }

  /** Computed from `status` and `placedAt` when selected (`persist: false`). */
  @Property({ type: "string", persist: false })
  get summary(): Opt<string> {
    return `${this.status} on ${this.placedAt.toISOString().slice(0, 10)}`;
  }
}
