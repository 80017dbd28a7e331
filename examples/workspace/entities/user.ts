import { defineEntity, p } from "@mikro-orm/core";
import { annotate, QueryField, RelayConnection } from "@mikrogql/ext";
import { Membership } from "./membership.ts";

/** A person who signs in (the JWT's `sub` is the username). */
export const User = defineEntity({
  name: "User",
  properties: {
    id: p.integer().primary(),
    /** The sign-in name, unique. */
    username: p.string().unique(),
    /** The display name. */
    name: p.string(),
    /** Readable by the user and by OWNERs of an organization they share. */
    email: p.string(),
    /** The user's memberships of organizations. */
    memberships: () => p.oneToMany(Membership).mappedBy("user"),
  },
});

annotate(User, {
  entity: [QueryField()],
  fields: { memberships: [RelayConnection()] },
});
