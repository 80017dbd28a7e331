import type { Ref } from "@mikro-orm/core";
import { Entity, OneToOne, Property } from "@mikro-orm/decorators/es";
import { Mutations, QueryField } from "@mikrogql/ext";
import { Order } from "./order.ts";

/**
 * The shipment of an order: its primary key is the order (a 1:1 relation primary key), so its
 * global id encodes the order's key.
 */
@Entity()
@QueryField()
@Mutations()
export class Shipment {
  /** The order shipped (the shipment's key). */
  @OneToOne({ entity: () => Order, primary: true, owner: true, inversedBy: "shipment", ref: true })
  order!: Ref<Order>;

  /** The company carrying the shipment. */
  @Property({ type: "string" })
  carrier!: string;

  /** The carrier's tracking code, once known. */
  @Property({ type: "string", nullable: true })
  trackingCode?: string;
}
