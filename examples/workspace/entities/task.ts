import { defineEntity, p } from "@mikro-orm/core";
import {
  annotate,
  Mutations,
  OrderField,
  QueryField,
  RelayConnection,
  Skip,
  SkipMutationCreateInput,
  SkipMutationUpdateInput,
  Subscriptions,
} from "@mikrogql/ext";
import { Comment } from "./comment.ts";
import { Project } from "./project.ts";
import { User } from "./user.ts";

/** Where a task stands. */
export const TaskStatus = ["TODO", "DOING", "DONE"] as const;

/** A task of a project. */
export const Task = defineEntity({
  name: "Task",
  properties: {
    id: p.integer().primary(),
    /** The project the task belongs to. */
    project: () => p.manyToOne(Project).index(),
    /** The task's title. */
    title: p.string(),
    /** Where the task stands. */
    status: p.enum(TaskStatus).default("TODO"),
    /** Visible only to its assignee and the organization's OWNERs. */
    confidential: p.boolean().default(false),
    /** Who works on the task, if anyone. */
    assignee: () => p.manyToOne(User).index().nullable(),
    /** Who created the task: set by the server to the viewer (no input sets it). */
    createdBy: () => p.manyToOne(User).index().nullable(),
    /** The discussion of the task. */
    comments: () => p.oneToMany(Comment).mappedBy("task"),
  },
});

annotate(Task, {
  entity: [QueryField(), Mutations(), Subscriptions()],
  fields: {
    title: [OrderField("TITLE")],
    createdBy: [Skip(SkipMutationCreateInput | SkipMutationUpdateInput)],
    // Comments are written through createComment, where the comment's rules are asked.
    comments: [
      RelayConnection(),
      OrderField("COMMENTS_COUNT"),
      Skip(SkipMutationCreateInput | SkipMutationUpdateInput),
    ],
  },
});
