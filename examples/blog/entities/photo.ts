import { defineEntity, p } from "@mikro-orm/core";
import { annotate, Mutations, OrderField, RelayConnection } from "@mikrogql/ext";
import { User } from "./user.ts";

/** A photo uploaded by a user. */
export const Photo = defineEntity({
  name: "Photo",
  properties: {
    id: p.integer().primary(),
    url: p.string(),
    caption: p.string().nullable(),
    user: () => p.manyToOne(User).index(),
    /** Unidirectional m:n (no inverse on User): loaded through the pivot table. */
    likedBy: () => p.manyToMany(User),
  },
});

annotate(Photo, {
  entity: [Mutations({ delete: false })],
  fields: { url: [OrderField("URL")], likedBy: [RelayConnection()] },
});
