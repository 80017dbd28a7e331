import { defineEntity, p } from "@mikro-orm/core";
import { annotate, Mutations, OrderField, QueryField, RelayConnection } from "@mikrogql/ext";
import { BookCopy } from "./book_copy.ts";
import { Publisher } from "./publisher.ts";

/** A title of the catalogue: its copies are keyed by the title and a copy number. */
export const Title = defineEntity({
  name: "Title",
  properties: {
    id: p.integer().primary(),
    /** The title's name, as printed on its copies. */
    name: p.string(),
    /** The publisher's key (`mapToPk`): the property holds the key, GraphQL an edge. */
    publisher: () => p.manyToOne(Publisher).mapToPk().nullable().index(),
    /** The copies of the title the library holds. */
    copies: () => p.oneToMany(BookCopy).mappedBy("title"),
  },
});

annotate(Title, {
  entity: [QueryField(), Mutations()],
  fields: { name: [OrderField("NAME")], copies: [RelayConnection()] },
});
