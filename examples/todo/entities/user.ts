import { defineEntity, p } from "@mikro-orm/core";
import { annotate, Mutations, OrderField, QueryField, RelayConnection } from "@mikrogql/ext";
import { Group } from "./group.ts";

/** A user, member of groups. */
export const User = defineEntity({
  name: "User",
  properties: {
    id: p.integer().primary(),
    /** The user's display name ("Anonymous" by default). */
    name: p.string().default("Anonymous"),
    /** The user's unique name, a UUID given on creation. */
    username: p.uuid().unique().onCreate(() => crypto.randomUUID()),
    /** Hidden: never in the schema (entgql's todo marks it `Sensitive()`). */
    password: p.string().nullable().hidden(),
    /** Whether the user is an administrator. */
    admin: p.boolean().default(false),
    /** The groups the user is a member of. */
    groups: () => p.manyToMany(Group).inversedBy("users"),
  },
});

annotate(User, {
  entity: [QueryField(), Mutations({ delete: false })],
  fields: {
    name: [OrderField("NAME")],
    groups: [RelayConnection(), OrderField("GROUPS_COUNT")],
  },
});
