/**
 * The RealWorld (Conduit) example server: GraphQL Yoga over `Deno.serve` on 127.0.0.1 with
 * GraphiQL, on embedded SQLite (or `DATABASE_URL`), seeded on start.
 *
 * ```sh
 * deno run -A gen/main.ts --config examples/realworld/gen.config.ts
 * deno run -A examples/realworld/server.ts
 * ```
 *
 * @module
 */
import { createYoga } from "graphql-yoga";
import { openDatabase } from "../database.ts";
import { Article } from "./entities/article.ts";
import { Comment } from "./entities/comment.ts";
import { Tag } from "./entities/tag.ts";
import { User } from "./entities/user.ts";
import { createSchema } from "./generated/mod.ts";
import { seed } from "./seed.ts";

/** The RealWorld entities. */
export const entities = [User, Article, Tag, Comment];

if (import.meta.main) {
  const orm = await openDatabase({
    entities,
    url: Deno.env.get("DATABASE_URL"),
  });
  await orm.schema.refresh();
  await seed(orm.em.fork());
  const yoga = createYoga({
    schema: createSchema(),
    context: () => ({ em: orm.em.fork() }),
    graphiql: true,
  });
  Deno.serve({
    hostname: "127.0.0.1",
    port: Number(Deno.env.get("PORT") ?? 8001),
    onListen: ({ port }) => {
      console.log(`GraphiQL at http://127.0.0.1:${port}/graphql`);
      console.log(
        `try: { articles(first: 3) { edges { node { title tagList { name } favoritedBy(first: 2) { totalCount } } } } }`,
      );
    },
  }, yoga.fetch);
}
