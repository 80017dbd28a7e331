/**
 * Seed data of the RealWorld example: users following each other, tagged and favorited
 * articles, comments.
 *
 * @module
 */
import type { EntityManager } from "@mikro-orm/core";
import { Article } from "./entities/article.ts";
import { Comment } from "./entities/comment.ts";
import { Tag } from "./entities/tag.ts";
import { User } from "./entities/user.ts";

/**
 * Inserts `articles` articles by `users` users, each tagged with two of `tags` tags, favorited
 * by up to three users, with two comments. Deterministic.
 *
 * @returns the inserted articles
 */
export async function seed(
  em: EntityManager,
  size = { users: 6, tags: 5, articles: 12 },
): Promise<Article[]> {
  const base = Date.UTC(2026, 0, 1);
  const users = Array.from(
    { length: size.users },
    (_, i) =>
      em.create(User, {
        username: `writer${i}`,
        email: `writer${i}@conduit.example`,
        password: "x",
        bio: null,
      }),
  );
  users.forEach((user, i) =>
    user.following.add(
      users[(i + 1) % users.length],
      users[(i + 2) % users.length],
    )
  );
  const tags = Array.from(
    { length: size.tags },
    (_, i) => em.create(Tag, { name: `tag${i}` }),
  );
  const articles = Array.from({ length: size.articles }, (_, i) => {
    const article = em.create(Article, {
      slug: `article-${i}`,
      title: `Article ${i}`,
      description: `About ${i}`,
      body: `# Article ${i}\n\nBody.`,
      createdAt: new Date(base + i * 60_000),
      updatedAt: new Date(base + i * 60_000),
      author: users[i % users.length],
    });
    article.tagList.add(tags[i % tags.length], tags[(i + 1) % tags.length]);
    for (let f = 0; f < i % 4; f++) {
      article.favoritedBy.add(users[(i + f) % users.length]);
    }
    for (let c = 0; c < 2; c++) {
      em.create(Comment, {
        body: `Comment ${c} on article ${i}`,
        createdAt: new Date(base + i * 60_000 + c),
        author: users[(i + c + 1) % users.length],
        article,
      });
    }
    return article;
  });
  await em.flush();
  return articles;
}
