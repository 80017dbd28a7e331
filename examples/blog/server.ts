/**
 * The blog example server: GraphQL Yoga over `Deno.serve` on 127.0.0.1 with GraphiQL, on an
 * embedded SQLite database (or `DATABASE_URL`), seeded on start.
 *
 * ```sh
 * deno task example                                   # SQLite in memory
 * DATABASE_URL=postgres://postgres@127.0.0.1:5432/test deno run -A examples/blog/server.ts
 * ```
 *
 * @module
 */
import { createYoga } from "graphql-yoga";
import { openDatabase } from "../database.ts";
import { Comment } from "./entities/comment.ts";
import { Photo } from "./entities/photo.ts";
import { Post } from "./entities/post.ts";
import { User } from "./entities/user.ts";
import { createSchema } from "./generated/mod.ts";
import { seed } from "./seed.ts";

/** The blog's entities. */
export const entities = [User, Photo, Post, Comment];

const SAMPLE = `{
  users(first: 2, orderBy: { field: NAME, direction: DESC }) {
    totalCount
    pageInfo { hasNextPage endCursor }
    edges { cursor node { id name posts(first: 2) { edges { node { title status comments(first: 1) { totalCount } } } } } }
  }
}`;

if (import.meta.main) {
  const orm = await openDatabase({
    entities,
    url: Deno.env.get("DATABASE_URL"),
  });
  await orm.schema.refresh();
  const rows = await seed(orm.em.fork());
  const yoga = createYoga({
    schema: createSchema(),
    context: () => ({ em: orm.em.fork() }),
    graphiql: true,
  });
  const port = Number(Deno.env.get("PORT") ?? 8000);
  Deno.serve({
    hostname: "127.0.0.1",
    port,
    onListen: ({ port }) => {
      console.log(
        `seeded ${rows} rows; GraphiQL at http://127.0.0.1:${port}/graphql`,
      );
      console.log(
        `try:\ncurl -s http://127.0.0.1:${port}/graphql -H 'content-type: application/json' \\\n  -d '${
          JSON.stringify({ query: SAMPLE.replace(/\s+/g, " ") })
        }'`,
      );
    },
  }, yoga.fetch);
}
