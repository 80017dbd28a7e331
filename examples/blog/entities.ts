/**
 * The blog's entity classes, for servers, tests and benchmarks (without the example server's
 * imports: GraphiQL, the seed).
 *
 * @module
 */
import { Comment } from "./entities/comment.ts";
import { Photo } from "./entities/photo.ts";
import { Post } from "./entities/post.ts";
import { User } from "./entities/user.ts";

/** The blog's entities. */
export const entities = [User, Photo, Post, Comment];
