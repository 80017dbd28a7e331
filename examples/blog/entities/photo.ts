import { defineEntity, p } from "@mikro-orm/core";
import { annotate, Mutations, OrderField, RelayConnection } from "@mikrogql/ext";
import { User } from "./user.ts";

/** A photo uploaded by a user. */
export const Photo = defineEntity({
  name: "Photo",
  properties: {
    id: p.integer().primary(),
    /** Where the image is served from. */
    url: p.string(),
    /** The text shown under the photo, if any. */
    caption: p.string().nullable(),
    /** Who uploaded the photo. */
    user: () => p.manyToOne(User).index(),
    /** Unidirectional m:n (no inverse on User): loaded through the pivot table. */
    likedBy: () => p.manyToMany(User),
  },
});

annotate(Photo, {
  entity: [Mutations({ delete: false })],
  fields: { url: [OrderField("URL")], likedBy: [RelayConnection()] },
});
