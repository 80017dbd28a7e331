/**
 * The TypeScript enums of the shop model. Each becomes one GraphQL enum named after it, with the
 * member names as values, wherever it is used.
 *
 * @module
 */

/** Loyalty tier of a customer; also recorded on each order (one GraphQL enum `Tier`). */
export enum Tier {
  Bronze = "bronze",
  Silver = "silver",
  Gold = "gold",
}

/** A numeric enum: GraphQL keeps the member names (`Low`, `Normal`, `High`). */
export enum Priority {
  Low = 1,
  Normal = 2,
  High = 3,
}

/** What a customer is interested in: used as an enum array (`[Interest!]`). */
export enum Interest {
  Books = "books",
  Gadgets = "gadgets",
  Music = "music",
}

/** Life cycle of an order. */
export enum OrderStatus {
  Placed = "placed",
  Paid = "paid",
  Shipped = "shipped",
}
