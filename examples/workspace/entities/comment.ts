import { defineEntity, p } from "@mikro-orm/core";
import { annotate, Mutations, QueryField, Skip, SkipMutationUpdateInput } from "@mikrogql/ext";
import { Task } from "./task.ts";
import { User } from "./user.ts";

/** A comment on a task. */
export const Comment = defineEntity({
  name: "Comment",
  properties: {
    id: p.integer().primary(),
    /** The task commented on. */
    task: () => p.manyToOne(Task).index(),
    /** Who wrote the comment: always the viewer who created it. */
    author: () => p.manyToOne(User).index(),
    /** The comment's text. */
    body: p.text(),
  },
});

annotate(Comment, {
  entity: [QueryField(), Mutations()],
  fields: { task: [Skip(SkipMutationUpdateInput)], author: [Skip(SkipMutationUpdateInput)] },
});
