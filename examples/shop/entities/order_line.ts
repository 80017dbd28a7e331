import { type Opt, PrimaryKeyProp, type Ref } from "@mikro-orm/core";
import { Entity, ManyToOne, PrimaryKey, Property } from "@mikro-orm/decorators/es";
import { Mutations, OrderField } from "@mikrogql/ext";
import { Order } from "./order.ts";

/**
 * One line of an order, keyed by its order and its line number (a composite key made of a
 * relation and a column): `Order.lines` is a connection paged over that key.
 */
@Entity()
@Mutations()
export class OrderLine {
  [PrimaryKeyProp]?: ["order", "lineNo"];

  /** The order: the first part of the key. */
  @ManyToOne({ entity: () => Order, primary: true, ref: true })
  order!: Ref<Order>;

  /** The line number within the order: the second part of the key. */
  @PrimaryKey({ type: "integer" })
  lineNo!: number;

  /** The stock-keeping unit ordered. */
  @OrderField("SKU")
  @Property({ type: "string" })
  sku!: string;

  /** How many (1 unless given). */
  @Property({ type: "integer" })
  quantity: Opt<number> = 1;
}
