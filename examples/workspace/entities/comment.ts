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
    task: () => p.manyToOne(Task),
    /** Who wrote the comment: always the viewer who created it. */
    author: () => p.manyToOne(User).index(),
    /** The comment's text. */
    body: p.text(),
  },
  // A task's comments by author: a task's comment count reads only the comments of the authors
  // the viewer may see (the read filter is `author_id in (<visible users>)`), so comments by
  // hidden authors cost nothing to count (issue 34's timing channel).
  indexes: [{ properties: ["task", "author"] }],
});

annotate(Comment, {
  entity: [QueryField(), Mutations()],
  fields: { task: [Skip(SkipMutationUpdateInput)], author: [Skip(SkipMutationUpdateInput)] },
});
