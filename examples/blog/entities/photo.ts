import { defineEntity, p } from "@mikro-orm/core";
import { annotate, Mutations, OrderField } from "@mikrogql/ext";
import { User } from "./user.ts";

/** A photo uploaded by a user. */
export const Photo = defineEntity({
  name: "Photo",
  properties: {
    id: p.integer().primary(),
    url: p.string(),
    caption: p.string().nullable(),
    user: () => p.manyToOne(User).index(),
  },
});

annotate(Photo, { entity: [Mutations({ delete: false })], fields: { url: [OrderField("URL")] } });
