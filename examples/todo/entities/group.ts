import { defineEntity, p } from "@mikro-orm/core";
import { annotate, OrderField, QueryField, RelayConnection } from "@mikrogql/ext";
import { User } from "./user.ts";

/** A group of users. */
export const Group = defineEntity({
  name: "Group",
  properties: {
    id: p.integer().primary(),
    /** The group's name. */
    name: p.string(),
    /** The users who are members of the group. */
    users: () => p.manyToMany(User).mappedBy("groups"),
  },
});

annotate(Group, {
  entity: [QueryField()],
  fields: { users: [RelayConnection(), OrderField("USERS_COUNT")] },
});
