/**
 * The data set of the peer benchmark: the blog schema as MikroORM creates it (with the
 * foreign-key indexes of the blog entities) filled by `generate_series` in PostgreSQL: 2,000
 * users, 20,000 posts (10 per user), 200,000 comments (10 per post, authors spread over the
 * users), 6,000 photos (3 per user); then `analyze`.
 *
 * @module
 */
import { openOrm } from "../../server/open_orm.ts";
import { entities } from "../../examples/blog/entities.ts";

/** Row counts of the data set. */
export const SIZE = { users: 2_000, posts: 20_000, comments: 200_000, photos: 6_000 } as const;

/** The statements filling the data set, with `users` users (the first 2,000 write the posts). */
const fill = (users: number) => [
  `insert into "user" (id, name, email, created_at)
     select i, 'user' || lpad(i::text, 4, '0'), 'user' || i || '@bench.example',
            timestamptz '2026-01-01 00:00:00+00' + i * interval '1 minute 1.000001 second'
     from generate_series(1, ${users}) i`,
  `insert into post (id, title, body, status, views, published_at, meta, author_id)
     select i, 'Post ' || i, 'Body of post ' || i || '.', 'published', i % 100,
            timestamptz '2026-02-01 00:00:00+00' + i * interval '1.000001 second', null,
            (i - 1) / 10 + 1
     from generate_series(1, ${SIZE.posts}) i`,
  `insert into comment (id, text, created_at, post_id, author_id)
     select i, 'Comment ' || i, timestamptz '2026-03-01 00:00:00+00' + i * interval '1.000001 second',
            (i - 1) / 10 + 1, i % ${SIZE.users} + 1
     from generate_series(1, ${SIZE.comments}) i`,
  `insert into photo (id, url, caption, user_id)
     select i, 'https://photos.example/' || i || '.jpg', null, (i - 1) / 3 + 1
     from generate_series(1, ${SIZE.photos}) i`,
  ...["user", "post", "comment", "photo"].map((table) =>
    `select setval(pg_get_serial_sequence('"${table}"', 'id'), (select max(id) from "${table}"))`
  ),
  `analyze`,
];

/**
 * Creates the blog schema in the (empty) PostgreSQL database at `url` and fills it.
 *
 * @param users the users of the data set: {@linkcode SIZE}'s 2,000 (who write every post), or
 *   more (bench:growth's keyset pages deep into 200,000), the others without posts
 * @throws Error from MikroORM or PostgreSQL when the database is not empty or not reachable
 */
export async function createPeerData(url: string, users: number = SIZE.users): Promise<void> {
  const orm = await openOrm({ entities, url });
  try {
    await orm.schema.create();
    const connection = orm.em.getConnection();
    for (const sql of fill(users)) await connection.execute(sql);
  } finally {
    await orm.close();
  }
}
