/**
 * Seed data of the blog example: users with photos, posts and comments.
 *
 * @module
 */
import type { EntityManager } from "@mikro-orm/core";
import { Comment } from "./entities/comment.ts";
import { Photo } from "./entities/photo.ts";
import { Post, PostStatus } from "./entities/post.ts";
import { User } from "./entities/user.ts";

/** How much to seed. */
export interface SeedSize {
  users: number;
  photosPerUser: number;
  postsPerUser: number;
  commentsPerPost: number;
}

/**
 * Inserts deterministic data: user `i` is `user{i}`, each post gets comments by the next user.
 *
 * @returns the number of rows inserted
 */
export async function seed(
  em: EntityManager,
  size: SeedSize = {
    users: 5,
    photosPerUser: 2,
    postsPerUser: 3,
    commentsPerPost: 2,
  },
): Promise<number> {
  const base = Date.UTC(2026, 0, 1);
  const users = Array.from({ length: size.users }, (_, i) =>
    em.create(User, {
      name: `user${String(i).padStart(3, "0")}`,
      email: `user${i}@example.com`,
      createdAt: new Date(base + i * 3_600_000),
    }));
  let rows = users.length;
  users.forEach((user, u) => {
    for (let i = 0; i < size.photosPerUser; i++) {
      em.create(Photo, {
        url: `https://photos.example/${u}/${i}.jpg`,
        caption: i % 2 ? null : `photo ${i}`,
        user,
      });
      rows++;
    }
    for (let i = 0; i < size.postsPerUser; i++) {
      const post = em.create(Post, {
        title: `Post ${i} by ${user.name}`,
        body: `Body of post ${i}.`,
        status: PostStatus[i % PostStatus.length],
        views: (u * 7 + i * 3) % 10,
        publishedAt: i % 3 === 0 ? null : new Date(base + (u * size.postsPerUser + i) * 60_000),
        author: user,
      });
      rows++;
      for (let c = 0; c < size.commentsPerPost; c++) {
        em.create(Comment, {
          text: `Comment ${c} on ${post.title}`,
          createdAt: new Date(base + c * 1000),
          post,
          author: users[(u + c + 1) % users.length],
        });
        rows++;
      }
    }
  });
  await em.flush();
  return rows;
}
