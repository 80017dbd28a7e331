import { defineEntity, p } from "@mikro-orm/core";
import {
  annotate,
  CollectedFor,
  Mutations,
  OrderField,
  QueryField,
  RelayConnection,
} from "@mikrogql/ext";
import { Photo } from "./photo.ts";
import { Post } from "./post.ts";

/** A blog user with photos and posts. */
export const User = defineEntity({
  name: "User",
  properties: {
    id: p.integer().primary(),
    name: p.string(),
    email: p.string().unique(),
    createdAt: p.datetime().onCreate(() => new Date()),
    photos: () => p.oneToMany(Photo).mappedBy("user"),
    posts: () => p.oneToMany(Post).mappedBy("author"),
  },
});

annotate(User, {
  entity: [QueryField(), Mutations()],
  fields: {
    // `displayName` is a user resolver (see tests): selecting it loads `name`, not every column.
    name: [OrderField("NAME"), CollectedFor("displayName")],
    createdAt: [OrderField("CREATED_AT")],
    photos: [RelayConnection()],
    posts: [RelayConnection()],
  },
});
