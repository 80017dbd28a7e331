import { defineEntity, p } from "@mikro-orm/core";
import { annotate, Mutations, OrderField, QueryField, RelayConnection } from "@mikrogql/ext";
import { BookCopy } from "./book_copy.ts";
import { Member } from "./member.ts";

/** A branch of the library, keyed by a natural composite key: its country and its code. */
export const Branch = defineEntity({
  name: "Branch",
  properties: {
    /** The ISO 3166 country code of the branch (the first part of the key). */
    country: p.string().length(2).primary(),
    /** The branch's code within its country (the second part of the key). */
    code: p.string().length(8).primary(),
    /** The branch's name. */
    name: p.string(),
    /** The copies shelved here (a foreign key of two text columns on `book_copy`). */
    copies: () => p.oneToMany(BookCopy).mappedBy("branch"),
    /** Owning side of a many-to-many between two composite keys. */
    members: () => p.manyToMany(Member).inversedBy("branches"),
  },
  primaryKeys: ["country", "code"],
});

annotate(Branch, {
  entity: [QueryField(), Mutations()],
  fields: { name: [OrderField("NAME")], copies: [RelayConnection()] },
});
