/**
 * The N+1 baseline of the field-collection benchmark: a hand-written GraphQL Yoga + MikroORM
 * server over the blog entities whose resolvers load every edge per parent, the way a naive
 * implementation without field collection (and without DataLoader) does.
 *
 * @module
 */
import type { EntityManager } from "@mikro-orm/core";
import type { GraphQLSchema } from "graphql";
import { createSchema } from "graphql-yoga";
import { Comment } from "../examples/blog/entities/comment.ts";
import { Post } from "../examples/blog/entities/post.ts";
import { User } from "../examples/blog/entities/user.ts";

type Ctx = { em: EntityManager };
type Args = { first?: number };

const connection = (rows: object[]) => ({ edges: rows.map((node) => ({ node })) });

/** The naive schema: same query shape as the generated one for `users { posts { comments } }`. */
export function naiveSchema(): GraphQLSchema {
  return createSchema<Ctx>({
    typeDefs: `
      type Query { users(first: Int): UserConnection! }
      type User { id: ID! name: String! posts(first: Int): PostConnection! }
      type Post { id: ID! title: String! comments(first: Int): CommentConnection! }
      type Comment { id: ID! text: String! }
      type UserConnection { edges: [UserEdge] }
      type UserEdge { node: User }
      type PostConnection { edges: [PostEdge] }
      type PostEdge { node: Post }
      type CommentConnection { edges: [CommentEdge] }
      type CommentEdge { node: Comment }
    `,
    resolvers: {
      Query: {
        users: async (_: unknown, { first }: Args, { em }: Ctx) =>
          connection(await em.find(User, {}, { orderBy: { id: "asc" }, limit: first })),
      },
      User: {
        posts: async (user: { id: number }, { first }: Args, { em }: Ctx) =>
          connection(
            await em.find(Post, { author: user.id }, { orderBy: { id: "asc" }, limit: first }),
          ),
      },
      Post: {
        comments: async (post: { id: number }, { first }: Args, { em }: Ctx) =>
          connection(
            await em.find(Comment, { post: post.id }, { orderBy: { id: "asc" }, limit: first }),
          ),
      },
    },
  });
}
