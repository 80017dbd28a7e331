import { defineEntity, p } from "@mikro-orm/core";
import { annotate, QueryField, RelayConnection } from "@mikrogql/ext";
import { Membership } from "./membership.ts";
import { Project } from "./project.ts";

/** A tenant: its members and their projects. */
export const Organization = defineEntity({
  name: "Organization",
  properties: {
    id: p.integer().primary(),
    /** The organization's name. */
    name: p.string(),
    /** Who belongs to the organization, and as what. */
    memberships: () => p.oneToMany(Membership).mappedBy("organization"),
    /** The organization's projects. */
    projects: () => p.oneToMany(Project).mappedBy("organization"),
  },
});

annotate(Organization, {
  entity: [QueryField()],
  fields: { memberships: [RelayConnection()], projects: [RelayConnection()] },
});
