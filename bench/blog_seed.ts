/**
 * The blog data set and nested query shared by `bench/collection.ts` and `bench/scale.ts`:
 * 100 users x 10 posts x 5 comments, read as `users(first:10){ posts(first:10){ comments(first:10) } }`.
 *
 * @module
 */
import { Comment } from "../examples/blog/entities/comment.ts";
import { Post } from "../examples/blog/entities/post.ts";
import { User } from "../examples/blog/entities/user.ts";
import { entities } from "../examples/blog/entities.ts";
import { openOrm } from "../server/open_orm.ts";

/** `users(first:10){ posts(first:10){ comments(first:10) } }` as a GraphQL document. */
export const NESTED_QUERY = `{ users(first: 10) { edges { node { name posts(first: 10) { edges {
  node { title comments(first: 10) { edges { node { text } } } } } } } } } }`;

/**
 * Creates the blog schema in the (empty) database at `url` and fills it with 100 users, each
 * with 10 posts of 5 comments.
 *
 * @param url a database URL as `openOrm` takes it
 */
export async function seedBlog(url: string): Promise<void> {
  const orm = await openOrm({ entities, url });
  try {
    await orm.schema.create();
    const em = orm.em.fork();
    for (let u = 0; u < 100; u++) {
      const author = em.create(User, { name: `user${u}`, email: `u${u}@bench.example` });
      for (let p = 0; p < 10; p++) {
        const post = em.create(Post, { title: `post ${u}.${p}`, body: "", author });
        for (let c = 0; c < 5; c++) em.create(Comment, { text: `comment ${c}`, post, author });
      }
    }
    await em.flush();
  } finally {
    await orm.close();
  }
}
