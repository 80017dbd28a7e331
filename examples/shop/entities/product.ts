import { defineEntity, p } from "@mikro-orm/core";
import { annotate, OrderField, QueryField, Skip } from "@mikrogql/ext";
import { Author } from "./author.ts";
import { Contribution } from "./contribution.ts";

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
    /** The product's name. */
    name: p.string(),
    /** The product's price, a decimal. */
    price: p.decimal().precision(10).scale(2),
  },
});

annotate(Product, { entity: [QueryField()], fields: { name: [OrderField("NAME")] } });

/** A book. */
export const Book = defineEntity({
  name: "Book",
  extends: Product,
  properties: {
    /** The book's unique ISBN. */
    isbn: p.string().unique(),
    /** The number of pages, if known. */
    pages: p.integer().nullable(),
    /** m:n through the pivot entity `Contribution`, which has columns of its own (`role`). */
    authors: () => p.manyToMany(Author).pivotEntity(() => Contribution).inversedBy("books"),
    /** Who contributed to the book, and how (the pivot rows of its authors). */
    contributions: () => p.oneToMany(Contribution).mappedBy("book"),
  },
});

// MikroORM 7.2.1 builds a wrong join when it loads Author rows through this edge of a
// table-per-type class (`inner join product p2 on c1.id = p2.id`, c1 being the pivot table), with
// `em.find` and `Collection.matching` alike: the edge is read from the other side (`Author.books`)
// and through the pivot rows (`Book.contributions`).
annotate(Book, { fields: { authors: [Skip()] } });

/** A gadget. */
export const Gadget = defineEntity({
  name: "Gadget",
  extends: Product,
  properties: {
    /** How long the gadget's warranty lasts, in months (12 by default). */
    warrantyMonths: p.integer().default(12),
  },
});
