import { defineEntity, p } from "@mikro-orm/core";
import { annotate, OrderField } from "@mikrogql/ext";
import { User } from "./user.ts";

/** A photo uploaded by a user. */
export const Photo = defineEntity({
  name: "Photo",
  properties: {
    id: p.integer().primary(),
    url: p.string(),
    caption: p.string().nullable(),
    user: () => p.manyToOne(User),
  },
});

annotate(Photo, { fields: { url: [OrderField("URL")] } });
