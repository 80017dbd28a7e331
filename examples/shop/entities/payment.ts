import type { Opt, Ref } from "@mikro-orm/core";
import { Entity, ManyToOne, PrimaryKey, Property } from "@mikro-orm/decorators/es";
import { Mutations, OrderField, QueryField } from "@mikrogql/ext";
import { Order } from "./order.ts";

/**
 * A payment of an order: the abstract root of a single-table inheritance (one `payment` table,
 * the `method` column tells the class). GraphQL: the interface `Payment`, implemented by
 * `CardPayment` and `TransferPayment`.
 */
@Entity({ abstract: true, discriminatorColumn: "method" })
@QueryField()
@Mutations()
export abstract class Payment {
  @PrimaryKey({ type: "integer" })
  id!: number;

  /** The amount paid, a decimal. */
  @OrderField("AMOUNT")
  @Property({ type: "decimal", precision: 10, scale: 2 })
  amount!: string;

  /** When the payment was made. */
  @Property({ type: "datetime" })
  paidAt: Opt<Date> = new Date();

  /** The order paid for. */
  @ManyToOne({ entity: () => Order, ref: true, index: true })
  order!: Ref<Order>;
}

/** A card payment. */
@Entity({ discriminatorValue: "card" })
export class CardPayment extends Payment {
  /** Required on cards: non-null in GraphQL, although the shared column is nullable. */
  @Property({ type: "string", length: 4 })
  cardLast4!: string;
}

/** A bank transfer. */
@Entity({ discriminatorValue: "transfer" })
export class TransferPayment extends Payment {
  /** The IBAN of the account the transfer came from. */
  @Property({ type: "string" })
  iban!: string;

  /** The reference the payer gave the transfer, if any. */
  @Property({ type: "string", nullable: true })
  reference?: string;
}
