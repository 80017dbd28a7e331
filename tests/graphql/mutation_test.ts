/**
 * Generated mutations and the Transactioner, over HTTP against a real Yoga server on SQLite and
 * PostgreSQL, with a schema generated at test time from `fixtures/mutations` (categories, todos,
 * tags, and a counter outside the schema): create/update/delete read back, bad inputs, fault
 * injection (rows counted in the database), the statement log of queries, and 50 concurrent
 * clients on PostgreSQL; and the blog example's generated mutations (`createPost` with two edge
 * ids, a delete the foreign keys refuse).
 */
import { type EntityManager, LockMode } from "@mikro-orm/core";
import { assert, assertEquals, assertMatch } from "@std/assert";
import { fromFileUrl, join, toFileUrl } from "@std/path";
import type { GraphQLSchema } from "graphql";
import {
  createNode,
  encodeGlobalId,
  fromContext,
  type Graph,
  type MikroContext,
  type SchemaOptions,
} from "../../mod.ts";
import { generate } from "../../gen/mod.ts";
import { createSchema as createBlogSchema } from "../../examples/blog/generated/mod.ts";
import { entities as blogEntities } from "../../examples/blog/entities.ts";
import { Category } from "./fixtures/mutations/category.ts";
import { Counter } from "./fixtures/mutations/counter.ts";
import { Tag } from "./fixtures/mutations/tag.ts";
import { Todo } from "./fixtures/mutations/todo.ts";
import type { Dialect } from "../support/databases.ts";
import { dialects, openTestOrm, type TestOrm } from "../support/databases.ts";
import {
  type Response,
  type ServerOptions,
  startServer,
  type TestServer,
} from "../support/server.ts";

const entities = [Category, Todo, Tag, Counter];

/** The generated module of the fixture. */
interface Generated {
  graph: Graph;
  createSchema(options?: SchemaOptions): GraphQLSchema;
}

/** Generates the fixture's API into a scratch directory beside it and imports it. */
async function generateFixture(): Promise<Generated> {
  const fixtures = fromFileUrl(new URL("./fixtures/", import.meta.url));
  const out = join(fixtures, `.generated-mutations-${crypto.randomUUID().slice(0, 8)}`);
  try {
    await generate({ entities: join(fixtures, "mutations"), out, format: false });
    return await import(toFileUrl(join(out, "mod.ts")).href);
  } finally {
    await Deno.remove(out, { recursive: true }).catch(() => {});
  }
}

const generated = await generateFixture();

/** User SDL and resolvers: a failing nested field, an extended input, counted creates. */
const userTypeDefs = `
extend type Todo { explode: String }
extend input CreateCategoryInput { createTodos: [CreateTodoInput!] }
extend type Mutation {
  createTodoCounted(input: CreateTodoInput!): Todo!
  stageTagUnflushed(name: String!): Boolean!
}
`;

const userResolvers: SchemaOptions["resolvers"] = {
  Todo: {
    explode: () => {
      throw new Error("explode resolver failed");
    },
  },
  Mutation: {
    createCategory: async (
      _root: unknown,
      args: { input: { createTodos?: Record<string, unknown>[] } & Record<string, unknown> },
      ctx: MikroContext,
    ) => {
      const { createTodos, ...input } = args.input;
      const em = fromContext(ctx);
      const category = await createNode<{ id: number }>(em, generated.graph, "Category")
        .set(input).save();
      for (const todo of createTodos ?? []) {
        await createNode(em, generated.graph, "Todo")
          .set(todo).set({ categoryID: encodeGlobalId("Category", category.id) }).save();
      }
      return category;
    },
    createTodoCounted: async (
      _root: unknown,
      args: { input: Record<string, unknown> },
      ctx: MikroContext,
    ) => {
      const em = fromContext(ctx);
      const todo = await createNode(em, generated.graph, "Todo").set(args.input).save();
      const counter = await em.findOneOrFail(Counter, 1, {
        lockMode: LockMode.PESSIMISTIC_WRITE,
      });
      counter.value++;
      await em.flush();
      return todo;
    },
    stageTagUnflushed: (_root: unknown, args: { name: string }, ctx: MikroContext) => {
      fromContext(ctx).create(Tag, { name: args.name });
      return true;
    },
  },
};

const schema = generated.createSchema({ typeDefs: userTypeDefs, resolvers: userResolvers });

/** Rows of `table` (matching the SQL condition `where`), counted in the database. */
async function count(db: TestOrm, table: string, where = "1 = 1"): Promise<number> {
  const rows = await db.orm.em.getConnection().execute(
    `select count(*) as n from ${table} where ${where}`,
  );
  return Number(rows[0].n);
}

function ok<T>(response: Response<T>): T {
  assertEquals(response.errors, undefined);
  return response.data!;
}

function errorOf(response: Response, code: string, message: RegExp): void {
  assert(response.errors?.length, `expected an error, got ${JSON.stringify(response)}`);
  const error = response.errors.find((e) => e.extensions?.code === code);
  assert(error, `no ${code} error in ${JSON.stringify(response.errors)}`);
  assertMatch(error.message, message);
}

async function withServer(
  dialect: Dialect,
  preset: (db: TestOrm) => ServerOptions["preset"],
  fn: (server: TestServer, db: TestOrm) => Promise<void>,
): Promise<void> {
  const db = await openTestOrm(dialect, entities);
  const server = startServer(db.orm, schema, [], { preset: preset(db) });
  try {
    await fn(server, db);
  } finally {
    await server.close();
    await db.close();
  }
}

const TODO = `id text status priority pinned dueAt category { name } tags { name }`;

interface TodoNode {
  id: string;
  text: string;
  status: string;
  priority: number;
  pinned: boolean;
  dueAt: string | null;
  category: { name: string } | null;
  tags: { name: string }[];
}

for (const dialect of dialects(["sqlite", "postgresql"])) {
  const transactional = () => ({});

  Deno.test({
    name: `mutations on ${dialect}: create, update, delete, read back; bad inputs`,
    sanitizeOps: false,
    sanitizeResources: false,
    fn: (t) =>
      withServer(dialect, transactional, async (server, db) => {
        const tags = ok(
          await server.query<Record<string, { id: string }>>(`mutation {
            a: createTag(input: { name: "a" }) { id }
            b: createTag(input: { name: "b" }) { id }
            c: createTag(input: { name: "c" }) { id }
          }`),
        );
        const home = ok(
          await server.query<{ createCategory: { id: string } }>(
            `mutation { createCategory(input: { name: "home" }) { id } }`,
          ),
        ).createCategory.id;
        let todo = "";

        await t.step("create with edges by id: defaults and edges in the result", async () => {
          const created = ok(
            await server.query<{ createTodo: TodoNode }>(
              `mutation($input: CreateTodoInput!) { createTodo(input: $input) { ${TODO} } }`,
              {
                input: {
                  text: "water plants",
                  dueAt: "2026-03-01T10:00:00.000Z",
                  categoryID: home,
                  tagIDs: [tags.a.id, tags.b.id],
                },
              },
            ),
          ).createTodo;
          todo = created.id;
          assertEquals({ ...created, id: undefined }, {
            id: undefined,
            text: "water plants",
            status: "TODO",
            priority: 0,
            pinned: false,
            dueAt: "2026-03-01T10:00:00.000Z",
            category: { name: "home" },
            tags: [{ name: "a" }, { name: "b" }],
          });
          const read = ok(
            await server.query<{ node: TodoNode }>(
              `query($id: ID!) { node(id: $id) { ... on Todo { ${TODO} } } }`,
              { id: todo },
            ),
          ).node;
          assertEquals(read, created);
          assertEquals(await count(db, "todo_tags"), 2);
        });

        await t.step("update: clear, then set, then add/remove", async () => {
          const updated = ok(
            await server.query<{ updateTodo: TodoNode }>(
              `mutation($id: ID!, $input: UpdateTodoInput!) {
                updateTodo(id: $id, input: $input) { ${TODO} }
              }`,
              {
                id: todo,
                input: {
                  text: "water the plants",
                  status: "IN_PROGRESS",
                  pinned: true,
                  clearDueAt: true,
                  dueAt: "2026-04-01T00:00:00.000Z",
                  clearCategory: true,
                  clearTags: true,
                  addTagIDs: [tags.c.id],
                },
              },
            ),
          ).updateTodo;
          assertEquals(updated.text, "water the plants");
          assertEquals(updated.status, "IN_PROGRESS");
          assertEquals(updated.pinned, true);
          assertEquals(updated.dueAt, "2026-04-01T00:00:00.000Z", "set after clear wins");
          assertEquals(updated.category, null);
          assertEquals(updated.tags, [{ name: "c" }], "add after clear");
          const again = ok(
            await server.query<{ updateTodo: TodoNode }>(
              `mutation($id: ID!, $input: UpdateTodoInput!) {
                updateTodo(id: $id, input: $input) { ${TODO} }
              }`,
              {
                id: todo,
                input: {
                  clearDueAt: true,
                  pinned: false,
                  categoryID: home,
                  addTagIDs: [tags.a.id],
                  removeTagIDs: [tags.c.id],
                },
              },
            ),
          ).updateTodo;
          assertEquals(again.dueAt, null);
          assertEquals(again.pinned, false, "false is a value, not an absent field");
          assertEquals(again.category, { name: "home" });
          assertEquals(again.tags, [{ name: "a" }]);
          assertEquals(again.priority, 0, "fields not given are unchanged");
          assertEquals(await count(db, "todo_tags"), 1);
        });

        await t.step("one-to-many and inverse many-to-many edges from the other side", async () => {
          const second = ok(
            await server.query<{ createTodo: { id: string } }>(
              `mutation { createTodo(input: { text: "second" }) { id } }`,
            ),
          ).createTodo.id;
          const category = ok(
            await server.query<{ updateCategory: { todos: { text: string }[] } }>(
              `mutation($id: ID!, $input: UpdateCategoryInput!) {
                updateCategory(id: $id, input: $input) { todos { text } }
              }`,
              { id: home, input: { addTodoIDs: [second], removeTodoIDs: [todo] } },
            ),
          ).updateCategory;
          assertEquals(category.todos, [{ text: "second" }]);
          const tag = ok(
            await server.query<{ updateTag: { todos: { text: string }[] } }>(
              `mutation($id: ID!, $todo: ID!) {
                updateTag(id: $id, input: { addTodoIDs: [$todo] }) { todos { text } }
              }`,
              { id: tags.b.id, todo: second },
            ),
          ).updateTag;
          assertEquals(tag.todos, [{ text: "second" }]);
          const cleared = ok(
            await server.query<{ updateCategory: { todos: unknown[] } }>(
              `mutation($id: ID!) { updateCategory(id: $id, input: { clearTodos: true }) { todos { id } } }`,
              { id: home },
            ),
          ).updateCategory;
          assertEquals(cleared.todos, []);
          assertEquals(await count(db, "todo"), 2, "clearing a nullable one-to-many keeps rows");
        });

        let work = "";
        await t.step("a user resolver extends an input and chains the same helpers", async () => {
          const { id, ...created } = ok(
            await server.query<
              { createCategory: { id: string; name: string; todos: { text: string }[] } }
            >(
              `mutation {
                createCategory(input: { name: "work", createTodos: [{ text: "x" }, { text: "y" }] }) {
                  id name todos { text }
                }
              }`,
            ),
          ).createCategory;
          work = id;
          assertEquals(created, { name: "work", todos: [{ text: "x" }, { text: "y" }] });
        });

        await t.step("delete: returns the id, the node is gone, cascades as modelled", async () => {
          const deleted = ok(
            await server.query<{ deleteTodo: string }>(
              `mutation($id: ID!) { deleteTodo(id: $id) }`,
              { id: todo },
            ),
          );
          assertEquals(deleted.deleteTodo, todo);
          const gone = await server.query(`query($id: ID!) { node(id: $id) { id } }`, {
            id: todo,
          });
          errorOf(gone, "NOT_FOUND", /Could not resolve to a node with the global id of '/);
          assertEquals(await count(db, "todo"), 3);
          assertEquals(await count(db, "todo_tags"), 1, "pivot rows of the todo are gone");
          errorOf(
            await server.query(`mutation($id: ID!) { deleteTodo(id: $id) }`, { id: todo }),
            "NOT_FOUND",
            /Could not resolve to a node with the global id of '/,
          );
          ok(await server.query(`mutation($id: ID!) { deleteCategory(id: $id) }`, { id: work }));
          assertEquals(await count(db, "category", "name = 'work'"), 0);
          assertEquals(await count(db, "todo"), 3, "its todos stay: the foreign key is nullable");
          assertEquals(await count(db, "todo", "category_id is null"), 3);
        });

        await t.step(
          "bad ids in inputs are BAD_USER_INPUT (NOT_FOUND for no row) naming the field",
          async () => {
            const create = (input: Record<string, unknown>) =>
              server.query(
                `mutation($input: CreateTodoInput!) { createTodo(input: $input) { id } }`,
                { input },
              );
            errorOf(
              await create({ text: "t", categoryID: tags.a.id }),
              "BAD_USER_INPUT",
              /^input\.categoryID: ".+" is not the global id of a Category$/,
            );
            // An id of no row is not found (as one of a row the request may not read).
            errorOf(
              await create({ text: "t", tagIDs: [tags.a.id, encodeGlobalId("Tag", 999)] }),
              "NOT_FOUND",
              /^input\.tagIDs\[1\]: no Tag has the global id ".+"$/,
            );
            errorOf(
              await create({ text: "t", tagIDs: ["not-an-id"] }),
              "BAD_USER_INPUT",
              /^input\.tagIDs\[0\]: "not-an-id" is not the global id of a Tag$/,
            );
            errorOf(
              await server.query(
                `mutation($id: ID!) { updateTodo(id: $id, input: { text: "x" }) { id } }`,
                { id: home },
              ),
              "NOT_FOUND",
              /Could not resolve to a node with the global id of '/,
            );
            assertEquals(await count(db, "todo"), 3, "nothing written by the failed mutations");
          },
        );

        await t.step(
          "skipped, generated and switched-off parts are not in the schema",
          async () => {
            for (
              const [operation, message] of [
                [`mutation { createTodo(input: { text: "t", secret: "s" }) { id } }`, /secret/],
                [
                  `mutation { createTodo(input: { text: "t", createdAt: "x" }) { id } }`,
                  /createdAt/,
                ],
                [`mutation { deleteTag(id: "x") }`, /deleteTag/],
              ] as const
            ) {
              const response = await server.query(operation);
              assertEquals(response.data, undefined);
              assertMatch(response.errors![0].message, message);
            }
          },
        );
      }),
  });

  Deno.test({
    name: `Transactioner on ${dialect}: rollback on any error, commit, skips, no tx for queries`,
    sanitizeOps: false,
    sanitizeResources: false,
    fn: async (t) => {
      const threeFields = `mutation Three {
        a: createTag(input: { name: "one" }) { id }
        b: createTag(input: { name: "two" }) { id }
        c: createTodo(input: { text: "t", tagIDs: ["bad"] }) { id }
      }`;

      await t.step(
        "without the Transactioner the first two root fields stay written",
        () =>
          withServer(dialect, () => false, async (server, db) => {
            const response = await server.query(threeFields);
            errorOf(response, "BAD_USER_INPUT", /input\.tagIDs\[0\]/);
            assertEquals(await count(db, "tag"), 2);
          }),
      );

      await withServer(dialect, transactional, async (server, db) => {
        await t.step("third root field fails after two wrote: nothing persisted", async () => {
          db.log.length = 0;
          const response = await server.query(threeFields);
          errorOf(response, "BAD_USER_INPUT", /input\.tagIDs\[0\]/);
          assertEquals(response.data, null);
          assertEquals(db.log.filter((s) => /^insert/i.test(s)).length, 2, "the two wrote");
          assertEquals(db.log.filter(isBegin).length, 1, "one transaction for the operation");
          assert(db.log.some(isRollback), "rolled back");
          assertEquals(await count(db, "tag"), 0);
        });

        await t.step("a nested field resolver throws after the write: rolled back", async () => {
          const response = await server.query(
            `mutation { createTodo(input: { text: "boom" }) { id explode } }`,
          );
          assertEquals(response.data, null);
          assertEquals(response.errors?.length, 1);
          assertEquals(response.errors![0].path, ["createTodo", "explode"]);
          assertEquals(await count(db, "todo"), 0);
        });

        await t.step("unique violation: a clean error, earlier fields rolled back", async () => {
          const response = await server.query(`mutation {
            a: createTag(input: { name: "same" }) { id }
            b: createTag(input: { name: "same" }) { id }
          }`);
          assertEquals(response.data, null);
          errorOf(
            response,
            "BAD_USER_INPUT",
            /^cannot create Tag: another Tag already has the same value of a unique field$/,
          );
          assertEquals(await count(db, "tag"), 0);
        });

        await t.step(
          "a failing commit is `cannot commit transaction`, without driver text",
          async () => {
            ok(await server.query(`mutation { createTag(input: { name: "taken" }) { id } }`));
            const response = await server.query(
              `mutation { stageTagUnflushed(name: "taken") }`,
            );
            assertEquals(response.data, null);
            errorOf(response, "TRANSACTION_FAILED", /^cannot commit transaction$/);
            assertEquals(await count(db, "tag"), 1);
          },
        );

        await t.step("success commits every root field of the operation", async () => {
          db.log.length = 0;
          const data = ok(
            await server.query<{ x: { name: string }; y: { name: string } }>(`mutation {
              x: createTag(input: { name: "x" }) { name }
              y: createTag(input: { name: "y" }) { name }
            }`),
          );
          assertEquals(data, { x: { name: "x" }, y: { name: "y" } });
          assertEquals(db.log.filter(isBegin).length, 1);
          assert(db.log.some((s) => /^commit/i.test(s)), "committed");
          assertEquals(await count(db, "tag"), 3);
        });

        await t.step("a query operation opens no transaction", async () => {
          db.log.length = 0;
          ok(await server.query(`{ todos(first: 5) { edges { node { id tags { id } } } } }`));
          assert(db.log.length > 0, "the query ran statements");
          assertEquals(db.log.filter((s) => isBegin(s) || isRollback(s) || /^commit/i.test(s)), []);
        });
      });

      await t.step(
        "skipOperations and skipFields run the operation without a transaction",
        () =>
          withServer(
            dialect,
            () => ({
              transactioner: { skipOperations: ["Three"], skipFields: ["createCategory"] },
            }),
            async (server, db) => {
              errorOf(await server.query(threeFields), "BAD_USER_INPUT", /tagIDs/);
              assertEquals(await count(db, "tag"), 2, "operation Three ran without a transaction");
              const response = await server.query(`mutation {
                ...F
                b: createTodo(input: { text: "t", tagIDs: ["bad"] }) { id }
              }
              fragment F on Mutation { a: createCategory(input: { name: "c1" }) { id } }`);
              errorOf(response, "BAD_USER_INPUT", /tagIDs/);
              assertEquals(await count(db, "category"), 1, "createCategory: no transaction");
            },
          ),
      );

      await t.step(
        "a failing open is `cannot create transaction`, without driver text",
        () =>
          withServer(
            dialect,
            () => ({ txOpener: { em: unopenable } }),
            async (server, db) => {
              const response = await server.query(
                `mutation { createTag(input: { name: "n" }) { id } }`,
              );
              assertEquals(response.data, null);
              errorOf(response, "TRANSACTION_FAILED", /^cannot create transaction$/);
              assertEquals(await count(db, "tag"), 0);
            },
          ),
      );
    },
  });
}

/** An EntityManager stand-in whose connection cannot be reserved (fault injection). */
const unopenable = {
  getConnection: () => ({
    ensureConnection: () => Promise.resolve(),
    getClient: () => ({
      connection: () => ({ execute: () => Promise.reject(new Error("pool is gone")) }),
    }),
  }),
} as unknown as EntityManager;

function isBegin(sql: string): boolean {
  return /^(begin|start transaction)\b/i.test(sql);
}

function isRollback(sql: string): boolean {
  return /^rollback\b/i.test(sql);
}

for (const dialect of dialects(["postgresql"])) {
  Deno.test({
    name: `Transactioner on ${dialect}: 50 clients x 20 mutations, each a row and a locked counter`,
    sanitizeOps: false,
    sanitizeResources: false,
    fn: () =>
      withServer(dialect, () => ({}), async (server, db) => {
        await db.orm.em.fork().insert(Counter, { id: 1, value: 0 });
        const failures: unknown[] = [];
        await Promise.all(Array.from({ length: 50 }, async (_, client) => {
          for (let i = 0; i < 20; i++) {
            const response = await server.query(
              `mutation($input: CreateTodoInput!) { createTodoCounted(input: $input) { id } }`,
              { input: { text: `client ${client} op ${i}` } },
            );
            if (response.errors) failures.push(response.errors);
          }
        }));
        assertEquals(failures, []);
        assertEquals(await count(db, "todo"), 1000);
        const [counter] = await db.orm.em.getConnection().execute(
          "select value from counter where id = 1",
        );
        assertEquals(counter.value, 1000);
        const open = await db.orm.em.getConnection().execute(
          `select count(*) as n from pg_stat_activity
           where datname = current_database() and state like 'idle in transaction%'`,
        );
        assertEquals(Number(open[0].n), 0, "no transaction left open");
      }),
  });
}

for (const dialect of dialects(["sqlite", "postgresql"])) {
  Deno.test({
    name: `blog example on ${dialect}: createPost with two edge ids; a referenced post stays`,
    sanitizeOps: false,
    sanitizeResources: false,
    fn: async () => {
      const db = await openTestOrm(dialect, blogEntities);
      const server = startServer(db.orm, createBlogSchema());
      try {
        const author = ok(
          await server.query<{ createUser: { id: string } }>(
            `mutation { createUser(input: { name: "ann", email: "ann@example.com" }) { id } }`,
          ),
        ).createUser.id;
        const first = ok(
          await server.query<{ createPost: { id: string } }>(
            `mutation($a: ID!) { createPost(input: { title: "one", body: "", authorID: $a }) { id } }`,
            { a: author },
          ),
        ).createPost.id;
        const comment = ok(
          await server.query<{ createComment: { id: string } }>(
            `mutation($a: ID!, $p: ID!) {
              createComment(input: { text: "hi", postID: $p, authorID: $a }) { id }
            }`,
            { a: author, p: first },
          ),
        ).createComment.id;
        const post = ok(
          await server.query<{ createPost: Record<string, unknown> & { id: string } }>(
            `mutation($input: CreatePostInput!) {
              createPost(input: $input) {
                id title status views author { name } comments(first: 5) { edges { node { text } } }
              }
            }`,
            { input: { title: "two", body: "b", authorID: author, commentIDs: [comment] } },
          ),
        ).createPost;
        assertEquals({ ...post, id: undefined }, {
          id: undefined,
          title: "two",
          status: "DRAFT",
          views: 0,
          author: { name: "ann" },
          comments: { edges: [{ node: { text: "hi" } }] },
        });
        errorOf(
          await server.query(`mutation($id: ID!) { deletePost(id: $id) }`, { id: post.id }),
          "BAD_USER_INPUT",
          /^cannot delete Post: other rows still reference this Post$/,
        );
        assertEquals(await count(db, "post"), 2);
        ok(await server.query(`mutation($id: ID!) { deleteComment(id: $id) }`, { id: comment }));
        ok(await server.query(`mutation($id: ID!) { deletePost(id: $id) }`, { id: post.id }));
        assertEquals(await count(db, "post"), 1);
      } finally {
        await server.close();
        await db.close();
      }
    },
  });
}

for (const dialect of dialects()) {
  Deno.test({
    name: `blog example on ${dialect}: a field the user's SDL adds to a generated input is theirs`,
    sanitizeOps: false,
    sanitizeResources: false,
    fn: async () => {
      const db = await openTestOrm(dialect, blogEntities);
      const server = startServer(
        db.orm,
        createBlogSchema({ typeDefs: "extend input CreateUserInput { note: String }" }),
      );
      try {
        // The generated createUser applies the generated fields and leaves `note` to the user.
        const created = ok(
          await server.query<{ createUser: { name: string; email: string } }>(
            `mutation { createUser(input: { name: "ann", email: "ann@example.com", note: "hi" }) { name email } }`,
          ),
        );
        assertEquals(created, { createUser: { name: "ann", email: "ann@example.com" } });
        assertEquals(await count(db, "user"), 1);
      } finally {
        await server.close();
        await db.close();
      }
    },
  });
}
