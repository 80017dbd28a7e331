import { defineEntity, p } from "@mikro-orm/core";
import { annotate, Mutations, QueryField } from "@mikrogql/ext";

/** A publisher, referenced by titles through a `mapToPk` relation. */
export const Publisher = defineEntity({
  name: "Publisher",
  properties: {
    id: p.integer().primary(),
    /** The publisher's name. */
    name: p.string(),
  },
});

annotate(Publisher, { entity: [QueryField(), Mutations()] });
