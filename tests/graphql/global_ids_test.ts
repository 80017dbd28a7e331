/**
 * Every global id format over HTTP, with `node`, `nodes`, nested edges and where inputs:
 *
 * - `opaque` (the todo example): base64url of type and key;
 * - `universal` (examples/todo/variants/universal): integer keys in one 2^32 range per type,
 *   set up by `setupUniversalIds` on SQLite, PostgreSQL and MariaDB, honouring a type table
 *   that already exists;
 * - `raw` (examples/todo/variants/raw): prefixed ULIDs typed by their `IdPrefix`, UUIDs typed
 *   by the server's `nodeType(id)` hook.
 *
 * `nodes(ids)` runs one query per type, keeps input order and duplicates, and answers null plus
 * a `NOT_FOUND` error at the index of each id that names no row.
 */
import { assertEquals, assertMatch } from "@std/assert";
import { encodeGlobalId, setupUniversalIds } from "../../mod.ts";
import { createSchema as todoSchema } from "../../examples/todo/generated/mod.ts";
import { seed } from "../../examples/todo/seed.ts";
import { entities as todoEntities } from "../../examples/todo/entities.ts";
import { Category as UCategory } from "../../examples/todo/variants/universal/entities/category.ts";
import { Todo as UTodo } from "../../examples/todo/variants/universal/entities/todo.ts";
import {
  createSchema as universalSchema,
  graph as universalGraph,
} from "../../examples/todo/variants/universal/generated/mod.ts";
import { Category as RCategory } from "../../examples/todo/variants/raw/entities/category.ts";
import { Todo as RTodo } from "../../examples/todo/variants/raw/entities/todo.ts";
import { User as RUser } from "../../examples/todo/variants/raw/entities/user.ts";
import { createSchema as rawSchema } from "../../examples/todo/variants/raw/generated/mod.ts";
import { dialects, openTestOrm, type TestOrm } from "../support/databases.ts";
import { type Response, startServer, type TestServer } from "../support/server.ts";

const NODES = `query($ids: [ID!]!) { nodes(ids: $ids) { __typename id } }`;
const NODE = `query($id: ID!) { node(id: $id) { __typename id } }`;

/**
 * Asserts `nodes(ids)`: the nodes in input order (`null` where missing), a `NOT_FOUND` error
 * at each missing index, and one SQL statement per type of the found ids.
 */
async function assertNodes(
  server: TestServer,
  db: TestOrm,
  ids: string[],
  types: (string | null)[],
  statements: number,
): Promise<void> {
  db.log.length = 0;
  const r = await server.query<{ nodes: ({ __typename: string; id: string } | null)[] }>(NODES, {
    ids,
  });
  assertEquals(
    r.data!.nodes,
    types.map((type, i) => type && { __typename: type, id: ids[i] }),
  );
  assertEquals(
    (r.errors ?? []).map((e) => [e.path, e.extensions?.code]),
    types.flatMap((type, i) => type ? [] : [[["nodes", i], "NOT_FOUND"]]),
  );
  assertEquals(db.log.filter((s) => s.startsWith("select")).length, statements, db.log.join("\n"));
}

async function assertNode(server: TestServer, id: string, type: string | null): Promise<void> {
  const r = await server.query<{ node: { __typename: string; id: string } | null }>(NODE, { id });
  if (type) assertEquals(r.data!.node, { __typename: type, id });
  else {
    assertEquals(r.data?.node ?? null, null);
    assertEquals(r.errors?.[0].extensions?.code, "NOT_FOUND");
  }
}

function assertCode(r: Response, code: string, message: RegExp): void {
  assertEquals(r.errors?.[0].extensions?.code, code, JSON.stringify(r.errors));
  assertMatch(r.errors![0].message, message);
}

for (const dialect of dialects(["sqlite", "postgresql"])) {
  Deno.test({
    name: `opaque global ids on ${dialect}`,
    sanitizeOps: false,
    sanitizeResources: false,
    fn: async () => {
      const db = await openTestOrm(dialect, todoEntities);
      await seed(db.orm.em.fork());
      const server = startServer(db.orm, todoSchema());
      try {
        const todo = (id: number) => encodeGlobalId("Todo", id);
        const category = encodeGlobalId("Category", 1);
        await assertNode(server, todo(3), "Todo");
        await assertNode(server, encodeGlobalId("Category", 3), "Category");
        await assertNode(server, encodeGlobalId("Todo", 99), null);
        await assertNodes(
          server,
          db,
          [todo(2), category, todo(2), todo(99), "nope", todo(5)],
          ["Todo", "Category", "Todo", null, null, "Todo"],
          2,
        );
        const r = await server.query<
          { node: { parent: { id: string }; children: { edges: unknown[] } } }
        >(
          `query($id: ID!) { node(id: $id) { ... on Todo {
              parent { id } category { id } children { edges { node { id } } } } } }`,
          { id: todo(3) },
        );
        assertEquals(r.data!.node.parent, { id: todo(2) });
      } finally {
        await server.close();
        await db.close();
      }
    },
  });
}

for (const dialect of dialects()) {
  Deno.test({
    name: `universal global ids on ${dialect}`,
    sanitizeOps: false,
    sanitizeResources: false,
    fn: async (t) => {
      const db = await openTestOrm(dialect, [UTodo, UCategory]);
      const universalIds = await setupUniversalIds(db.orm.em.fork(), universalGraph);
      assertEquals(universalIds, ["Category", "Todo"]);
      const em = db.orm.em.fork();
      const work = em.create(UCategory, { text: "Work" });
      const home = em.create(UCategory, { text: "Home" });
      const todos = ["a", "b", "c"].map((text, i) =>
        em.create(UTodo, { text, category: i < 2 ? work : home })
      );
      await em.flush();
      const server = startServer(db.orm, universalSchema({ universalIds }));
      const RANGE = 2n ** 32n;
      try {
        await t.step("each type's keys lie in its range; the id is the key", async () => {
          assertEquals([work.id, home.id], [1n, 2n]);
          assertEquals(todos.map((t) => t.id), [RANGE, RANGE + 1n, RANGE + 2n]);
          const r = await server.query<
            { todos: { edges: { node: { id: string; category: { id: string } } }[] } }
          >(`{ todos { edges { node { id category { id } } } } }`);
          assertEquals(r.data!.todos.edges.map((e) => [e.node.id, e.node.category.id]), [
            [String(RANGE), "1"],
            [String(RANGE + 1n), "1"],
            [String(RANGE + 2n), "2"],
          ]);
        });

        await t.step("node and nodes derive the type from the number", async () => {
          await assertNode(server, String(RANGE + 1n), "Todo");
          await assertNode(server, "2", "Category");
          await assertNode(server, String(RANGE + 9n), null);
          await assertNode(server, String(RANGE * 7n), null);
          await assertNodes(
            server,
            db,
            [String(RANGE), "1", String(RANGE), "3", "x1", String(RANGE * 50n), "2"],
            ["Todo", "Category", "Todo", null, null, null, "Category"],
            2,
          );
        });

        await t.step("where inputs take universal ids", async () => {
          const r = await server.query<{ todos: { totalCount: number } }>(
            `{ todos(where: { categoryID: "1", idNEQ: "${RANGE}" }) { totalCount } }`,
          );
          assertEquals(r.data!.todos.totalCount, 1);
          assertCode(
            await server.query(`{ todos(where: { categoryID: "${RANGE}" }) { totalCount } }`),
            "BAD_USER_INPUT",
            /^where\.categoryID: "4294967296" is not the global id of a Category/,
          );
        });

        await t.step("setup again: same table, sequences untouched", async () => {
          assertEquals(await setupUniversalIds(db.orm.em.fork(), universalGraph), universalIds);
          const em = db.orm.em.fork();
          const next = em.create(UTodo, { text: "d" });
          await em.flush();
          assertEquals(next.id, RANGE + 3n);
        });
      } finally {
        await server.close();
        await db.close();
      }
    },
  });

  Deno.test({
    name: `universal global ids on ${dialect}: an existing type table keeps its ranges`,
    sanitizeOps: false,
    sanitizeResources: false,
    fn: async () => {
      const db = await openTestOrm(dialect, [UTodo, UCategory]);
      const connection = db.orm.em.getConnection();
      await connection.execute(
        `create table mikrogql_types (id integer not null primary key, type varchar(255) not null unique)`,
      );
      await connection.execute(`insert into mikrogql_types (id, type) values (0, 'Todo')`);
      assertEquals(await setupUniversalIds(db.orm.em.fork(), universalGraph), ["Todo", "Category"]);
      const em = db.orm.em.fork();
      const category = em.create(UCategory, { text: "Work" });
      const todo = em.create(UTodo, { text: "a", category });
      await em.flush();
      assertEquals([todo.id, category.id], [1n, 2n ** 32n]);
      await db.close();
    },
  });
}

for (const dialect of dialects(["sqlite", "postgresql"])) {
  Deno.test({
    name: `raw global ids (prefixed ULIDs, UUIDs) on ${dialect}`,
    sanitizeOps: false,
    sanitizeResources: false,
    fn: async (t) => {
      const db = await openTestOrm(dialect, [RTodo, RCategory, RUser]);
      const em = db.orm.em.fork();
      const work = em.create(RCategory, { text: "Work" });
      const ann = em.create(RUser, { name: "ann" });
      const todos = ["a", "b"].map((text) =>
        em.create(RTodo, { text, category: work, owner: ann })
      );
      const loose = em.create(RTodo, { text: "c" });
      await em.flush();
      /** The spec's WithFixedNodeType: UUID version 7 keys are categories, version 4 users. */
      const nodeType = (id: string) =>
        /^[0-9a-f]{8}-[0-9a-f]{4}-[47]/.test(id)
          ? (id[14] === "7" ? "Category" : "User")
          : undefined;
      const plain = startServer(db.orm, rawSchema());
      const server = startServer(db.orm, rawSchema({ nodeType }));
      try {
        await t.step("the key is the id; nested edges too", async () => {
          assertMatch(todos[0].id, /^todo_[0-9A-HJKMNP-TV-Z]{26}$/);
          const r = await server.query<
            {
              todos: {
                edges: { node: { id: string; category: { id: string }; owner: { id: string } } }[];
              };
            }
          >(`{ todos(where: { hasCategory: true }) { edges { node { id category { id } owner { id } } } } }`);
          assertEquals(
            r.data!.todos.edges.map((e) => [e.node.id, e.node.category.id, e.node.owner.id]),
            todos.map((t) => [t.id, work.id, ann.id]).sort(([a], [b]) => a < b ? -1 : 1),
          );
        });

        await t.step("IdPrefix types prefixed keys without any hook", async () => {
          await assertNode(plain, todos[1].id, "Todo");
          await assertNode(plain, "todo_01HZZZZZZZZZZZZZZZZZZZZZZZ", null);
          // Two types have UUID keys: without the hook a UUID names no type.
          await assertNode(plain, work.id, null);
        });

        await t.step("nodeType(id) types UUID keys (WithFixedNodeType)", async () => {
          await assertNode(server, work.id, "Category");
          await assertNode(server, ann.id, "User");
          await assertNode(server, crypto.randomUUID(), null);
          await assertNodes(
            server,
            db,
            [loose.id, work.id, ann.id, loose.id, "nope", crypto.randomUUID(), todos[0].id],
            ["Todo", "Category", "User", "Todo", null, null, "Todo"],
            3,
          );
        });

        await t.step("where inputs take raw ids", async () => {
          const r = await server.query<{ todos: { totalCount: number } }>(
            `query($c: ID!, $u: [ID!]) { todos(where: { categoryID: $c, ownerIDIn: $u }) { totalCount } }`,
            { c: work.id, u: [ann.id] },
          );
          assertEquals(r.data!.todos.totalCount, 2);
          assertCode(
            await server.query(
              `query($c: ID!) { todos(where: { categoryID: $c }) { totalCount } }`,
              {
                c: ann.id,
              },
            ),
            "BAD_USER_INPUT",
            /is not the global id of a Category/,
          );
          const own = await server.query<{ todos: { totalCount: number } }>(
            `query($ids: [ID!]) { todos(where: { idIn: $ids }) { totalCount } }`,
            { ids: [loose.id, todos[0].id] },
          );
          assertEquals(own.data!.todos.totalCount, 2);
        });
      } finally {
        await plain.close();
        await server.close();
        await db.close();
      }
    },
  });
}
