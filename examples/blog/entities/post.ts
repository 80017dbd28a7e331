import { defineEntity, p } from "@mikro-orm/core";
import { annotate, Mutations, OrderField, QueryField, RelayConnection } from "@mikrogql/ext";
import { Comment } from "./comment.ts";
import { User } from "./user.ts";

/** Publication state of a post. */
export const PostStatus = ["draft", "published", "archived"] as const;

/** A blog post written by a user. */
export const Post = defineEntity({
  name: "Post",
  properties: {
    id: p.integer().primary(),
    title: p.string(),
    body: p.text(),
    status: p.enum(PostStatus).default("draft"),
    views: p.integer().default(0),
    publishedAt: p.datetime().nullable(),
    meta: p.json<Record<string, unknown>>().nullable(),
    author: () => p.manyToOne(User).index(),
    comments: () => p.oneToMany(Comment).mappedBy("post"),
  },
});

annotate(Post, {
  entity: [QueryField(), Mutations()],
  fields: {
    title: [OrderField("TITLE")],
    views: [OrderField("VIEWS")],
    publishedAt: [OrderField("PUBLISHED_AT")],
    comments: [RelayConnection()],
  },
});
