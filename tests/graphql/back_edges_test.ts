/**
 * Unique edges selected under a nested connection or list of several parents (a former bug:
 * `users(first: 3) { posts(first: 2) { author { name } } }` answered `Cannot return null for
 * non-nullable field Post.author`): the batched page hydrates the foreign key of every collected
 * unique edge, including the one it joins the parent through, on SQLite, PostgreSQL and MariaDB.
 */
import { assertEquals } from "@std/assert";
import { entities as blogEntities } from "../../examples/blog/entities.ts";
import { seed as seedBlog } from "../../examples/blog/seed.ts";
import { createSchema as blogSchema } from "../../examples/blog/generated/mod.ts";
import { entities as realworldEntities } from "../../examples/realworld/entities.ts";
import { seed as seedRealworld } from "../../examples/realworld/seed.ts";
import { createSchema as realworldSchema } from "../../examples/realworld/generated/mod.ts";
import { entities as todoEntities } from "../../examples/todo/entities.ts";
import { seed as seedTodo } from "../../examples/todo/seed.ts";
import { createSchema as todoSchema } from "../../examples/todo/generated/mod.ts";
import { dialects, openTestOrm } from "../support/databases.ts";
import { startServer } from "../support/server.ts";

type Page<T> = { edges: { node: T }[] };

for (const dialect of dialects()) {
  Deno.test({
    name: `unique edges back to the parent under nested pages of many parents (${dialect})`,
    sanitizeOps: false,
    sanitizeResources: false,
    fn: async (t) => {
      const blog = await openTestOrm(dialect, blogEntities);
      await seedBlog(blog.orm.em.fork(), {
        users: 4,
        photosPerUser: 1,
        postsPerUser: 3,
        commentsPerPost: 2,
      });
      const server = startServer(blog.orm, blogSchema());
      try {
        await t.step("users(first: 3) { posts(first: 2) { author { name } } }", async () => {
          for (
            const args of ["(first: 2)", "(last: 2)", "", "(first: 2, orderBy: {field: TITLE})"]
          ) {
            blog.log.length = 0;
            const r = await server.query<
              {
                users: Page<
                  { name: string; posts: Page<{ title: string; author: { name: string } }> }
                >;
              }
            >(
              `{ users(first: 3) { edges { node { name posts${args} { edges { node { title author { name } } } } } } } }`,
            );
            assertEquals(r.errors, undefined, args);
            assertEquals(r.data!.users.edges.length, 3);
            for (const { node: user } of r.data!.users.edges) {
              assertEquals(user.posts.edges.length, args ? 2 : 3, args);
              for (const { node: post } of user.posts.edges) {
                assertEquals(post.author.name, user.name);
                assertEquals(post.title.endsWith(`by ${user.name}`), true);
              }
            }
            // users, their posts, the posts' authors
            assertEquals(blog.log.length, 3, `${args}\n${blog.log.join("\n")}`);
          }
        });

        await t.step(
          "posts { comments(first: 2) { post { title } author { name } } }",
          async () => {
            const r = await server.query<
              {
                posts: Page<
                  {
                    title: string;
                    comments: Page<{ post: { title: string }; author: { name: string } }>;
                  }
                >;
              }
            >(
              `{ posts(first: 5) { edges { node { title comments(first: 2) { edges { node { post { title } author { name } } } } } } } }`,
            );
            assertEquals(r.errors, undefined);
            assertEquals(r.data!.posts.edges.length, 5);
            for (const { node: post } of r.data!.posts.edges) {
              assertEquals(post.comments.edges.length, 2);
              for (const { node: comment } of post.comments.edges) {
                assertEquals(comment.post.title, post.title);
                assertEquals(typeof comment.author.name, "string");
              }
            }
          },
        );
      } finally {
        await server.close();
        await blog.close();
      }

      await t.step("m:n and self-referencing edges (realworld, todo)", async () => {
        const realworld = await openTestOrm(dialect, realworldEntities);
        await seedRealworld(realworld.orm.em.fork());
        const rw = startServer(realworld.orm, realworldSchema());
        const todo = await openTestOrm(dialect, todoEntities);
        await seedTodo(todo.orm.em.fork());
        const td = startServer(todo.orm, todoSchema());
        try {
          const users = await rw.query<
            {
              users: Page<
                { username: string; articles: Page<{ author: { username: string } }> }
              >;
            }
          >(
            `{ users { edges { node { username articles(first: 1) { edges { node { author { username } } } } } } } }`,
          );
          assertEquals(users.errors, undefined);
          for (const { node: user } of users.data!.users.edges) {
            assertEquals(user.articles.edges.length, 1);
            assertEquals(user.articles.edges[0].node.author.username, user.username);
          }
          const todos = await td.query<
            { todos: Page<{ text: string; children: Page<{ parent: { text: string } }> }> }
          >(
            `{ todos { edges { node { text children(first: 1) { edges { node { parent { text } } } } } } } }`,
          );
          assertEquals(todos.errors, undefined);
          const withChildren = todos.data!.todos.edges.filter((e) => e.node.children.edges.length);
          assertEquals(withChildren.length, 3);
          for (const { node } of withChildren) {
            assertEquals(node.children.edges[0].node.parent.text, node.text);
          }
          const categories = await td.query<
            { categories: Page<{ text: string; todos: Page<{ category: { text: string } }> }> }
          >(
            `{ categories { edges { node { text todos(last: 1) { edges { node { category { text } } } } } } } }`,
          );
          assertEquals(categories.errors, undefined);
          for (const { node } of categories.data!.categories.edges) {
            assertEquals(node.todos.edges[0].node.category.text, node.text);
          }
        } finally {
          await rw.close();
          await realworld.close();
          await td.close();
          await todo.close();
        }
      });
    },
  });
}
