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

  @ManyToOne({ entity: () => Order, primary: true, ref: true })
  order!: Ref<Order>;

  @PrimaryKey({ type: "integer" })
  lineNo!: number;

  @OrderField("SKU")
  @Property({ type: "string" })
  sku!: string;

  @Property({ type: "integer" })
  quantity: Opt<number> = 1;
}
