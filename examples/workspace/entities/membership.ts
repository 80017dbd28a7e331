import { defineEntity, p } from "@mikro-orm/core";
import { annotate, Mutations } from "@mikrogql/ext";
import { Organization } from "./organization.ts";
import { User } from "./user.ts";

/** What a member may do in an organization. */
export const Role = ["OWNER", "EDITOR", "VIEWER"] as const;

/** A user's role in an organization. */
export const Membership = defineEntity({
  name: "Membership",
  properties: {
    id: p.integer().primary(),
    /** The organization. */
    organization: () => p.manyToOne(Organization).index(),
    /** The member. */
    user: () => p.manyToOne(User).index(),
    /** OWNER: everything; EDITOR: projects and tasks; VIEWER: reads and comments. */
    role: p.enum(Role),
  },
});

annotate(Membership, { entity: [Mutations()] });
