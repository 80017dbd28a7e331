import { defineEntity, p } from "@mikro-orm/core";
import { annotate, OrderField, QueryField } from "@mikrogql/ext";

/**
 * A product: the abstract root of a table-per-type inheritance (`product` holds the shared
 * columns, `book` and `gadget` their own). GraphQL: the interface `Product`.
 */
export const Product = defineEntity({
  name: "Product",
  abstract: true,
  inheritance: "tpt",
  properties: {
    id: p.integer().primary(),
    name: p.string(),
    price: p.decimal().precision(10).scale(2),
  },
});

annotate(Product, { entity: [QueryField()], fields: { name: [OrderField("NAME")] } });

/** A book. */
export const Book = defineEntity({
  name: "Book",
  extends: Product,
  properties: {
    isbn: p.string().unique(),
    pages: p.integer().nullable(),
  },
});

/** A gadget. */
export const Gadget = defineEntity({
  name: "Gadget",
  extends: Product,
  properties: {
    warrantyMonths: p.integer().default(12),
  },
});
