import { defineEntity, p } from "@mikro-orm/core";
import {
  annotate,
  Mutations,
  QueryField,
  RelayConnection,
  Skip,
  SkipMutationCreateInput,
  SkipMutationUpdateInput,
} from "@mikrogql/ext";
import { Organization } from "./organization.ts";
import { Task } from "./task.ts";

/** A project of an organization. */
export const Project = defineEntity({
  name: "Project",
  properties: {
    id: p.integer().primary(),
    /** The organization the project belongs to. */
    organization: () => p.manyToOne(Organization).index(),
    /** The project's name. */
    name: p.string(),
    /** The project's tasks. */
    tasks: () => p.oneToMany(Task).mappedBy("project"),
  },
});

annotate(Project, {
  entity: [QueryField(), Mutations()],
  // Tasks move between projects through updateTask, where the task's rules are asked.
  fields: {
    tasks: [RelayConnection(), Skip(SkipMutationCreateInput | SkipMutationUpdateInput)],
  },
});
