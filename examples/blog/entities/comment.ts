import { defineEntity, p } from "@mikro-orm/core";
import { annotate, Mutations, OrderField, Skip, SkipMutationUpdateInput } from "@mikrogql/ext";
import { Post } from "./post.ts";
import { User } from "./user.ts";

/** A comment on a post. */
export const Comment = defineEntity({
  name: "Comment",
  properties: {
    id: p.integer().primary(),
    /** The comment itself, plain text. */
    text: p.text(),
    /** When the comment was written. */
    createdAt: p.datetime().onCreate(() => new Date()),
    /** The post commented on. */
    post: () => p.manyToOne(Post).index(),
    /** Who wrote the comment. */
    author: () => p.manyToOne(User).index(),
  },
});

annotate(Comment, {
  entity: [Mutations()],
  fields: { createdAt: [OrderField("CREATED_AT")], post: [Skip(SkipMutationUpdateInput)] },
});
