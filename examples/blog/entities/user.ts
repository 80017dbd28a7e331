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
    /** The name shown with the user's posts. */
    name: p.string(),
    /** The user's e-mail address, unique. */
    email: p.string().unique(),
    /** When the user signed up. */
    createdAt: p.datetime().onCreate(() => new Date()),
    /** The photos the user uploaded. */
    photos: () => p.oneToMany(Photo).mappedBy("user"),
    /** The posts the user wrote. */
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
