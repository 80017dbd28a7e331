import { defineEntity, p } from "@mikro-orm/core";
import {
  annotate,
  Mutations,
  OrderField,
  QueryField,
  RelayConnection,
  Subscriptions,
} from "@mikrogql/ext";
import { Comment } from "./comment.ts";
import { User } from "./user.ts";

/** Publication state of a post. */
export const PostStatus = ["draft", "published", "archived"] as const;

/** A blog post written by a user. */
export const Post = defineEntity({
  name: "Post",
  properties: {
    id: p.integer().primary(),
    /** The headline. */
    title: p.string(),
    /** The post itself, in Markdown. */
    body: p.text(),
    /** Whether the post is a draft, published or archived. */
    status: p.enum(PostStatus).default("draft"),
    /** How many times the post was read. */
    views: p.integer().default(0),
    /** When the post was published; null while it is a draft. */
    publishedAt: p.datetime().nullable(),
    /** Free-form metadata (JSON). */
    meta: p.json<Record<string, unknown>>().nullable(),
    /** Who wrote the post. */
    author: () => p.manyToOne(User).index(),
    /** The comments on the post. */
    comments: () => p.oneToMany(Comment).mappedBy("post"),
  },
});

annotate(Post, {
  entity: [QueryField(), Mutations(), Subscriptions()],
  fields: {
    title: [OrderField("TITLE")],
    views: [OrderField("VIEWS")],
    publishedAt: [OrderField("PUBLISHED_AT")],
    comments: [RelayConnection()],
  },
});
