/**
 * The shop's entity classes, for servers, tests and benchmarks (without the example server's
 * imports: GraphiQL, the seed).
 *
 * @module
 */
import { Customer } from "./entities/customer.ts";
import { Order } from "./entities/order.ts";
import { OrderLine } from "./entities/order_line.ts";
import { Author } from "./entities/author.ts";
import { Contribution } from "./entities/contribution.ts";
import { CardPayment, Payment, TransferPayment } from "./entities/payment.ts";
import { Book, Gadget, Product } from "./entities/product.ts";
import { Shipment } from "./entities/shipment.ts";
import { Clerk, Manager, Owner, Staff } from "./entities/staff.ts";

/** The shop's entities. */
export const entities = [
  Customer,
  Order,
  OrderLine,
  Shipment,
  Payment,
  CardPayment,
  TransferPayment,
  Product,
  Book,
  Gadget,
  Author,
  Contribution,
  Staff,
  Clerk,
  Manager,
  Owner,
];
