import { defineEntity, p } from "@mikro-orm/core";
import {
  annotate,
  OrderField,
  QueryField,
  RelayConnection,
  Skip,
  SkipWhereInput,
} from "@mikrogql/ext";
import { Group } from "./group.ts";

/** A user, member of groups. */
export const User = defineEntity({
  name: "User",
  properties: {
    id: p.integer().primary(),
    name: p.string().default("Anonymous"),
    username: p.uuid().unique().onCreate(() => crypto.randomUUID()),
    /** Not filterable: left out of `UserWhereInput`. */
    password: p.string().nullable(),
    admin: p.boolean().default(false),
    groups: () => p.manyToMany(Group).inversedBy("users"),
  },
});

annotate(User, {
  entity: [QueryField()],
  fields: {
    name: [OrderField("NAME")],
    password: [Skip(SkipWhereInput)],
    groups: [RelayConnection(), OrderField("GROUPS_COUNT")],
  },
});
