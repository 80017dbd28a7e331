/**
 * A policy's read filter inside edge order terms (`CHILDREN_COUNT`, `TODOS_COUNT`: subqueries
 * counting only the rows a viewer may read) goes out as bound parameters, not as SQL text, though
 * MikroORM formats a raw `ORDER BY` fragment's values into its text: recorded at the driver on
 * PostgreSQL and SQLite, the filter's value is among some statement's parameters and in no
 * statement's text, through the first page, the keyset page after its cursor (the terms in the
 * `WHERE`) and the cursor values' read (the terms selected). The answers are checked against an
 * oracle: the same queries on a database without the hidden row, served without policies.
 */
import { assert, assertEquals } from "@std/assert";
import type { MikroORM } from "@mikro-orm/core";
import { definePolicy } from "@mikrogql/ext";
import { Todo } from "../../examples/todo/entities/todo.ts";
import { entities } from "../../examples/todo/entities.ts";
import { createSchema } from "../../examples/todo/generated/mod.ts";
import { seed } from "../../examples/todo/seed.ts";
import { dialects, openTestOrm, type TestOrm } from "../support/databases.ts";
import { recordingOptions, type Sent } from "../support/sent_statements.ts";
import { openPolicies } from "../support/open_policies.ts";
import { startServer, type TestServer } from "../support/server.ts";

/** The hidden todo's text, and the policy's value: it cannot appear in SQL text by chance. */
const HIDDEN = "Hq'9\\ ünïq ?x";

const hideMarked = definePolicy(Todo, { read: () => ({ text: { $ne: HIDDEN } }) });

const FIRST =
  `{ todos(orderBy: [{ field: CHILDREN_COUNT, direction: DESC }, { field: ID }], first: 2)
  { edges { cursor node { id } } pageInfo { endCursor hasNextPage } } }`;
const AFTER = `query ($after: Cursor) {
  todos(orderBy: [{ field: CHILDREN_COUNT, direction: DESC }, { field: ID }], first: 3, after: $after)
  { edges { cursor node { id children { totalCount } } } } }`;
const CATEGORIES = `{ categories(orderBy: [{ field: TODOS_COUNT, direction: DESC }])
  { edges { cursor node { id todos { totalCount } } } } }`;

/** Seeds the todo example and, under the todo with the most children, the hidden child. */
async function seedWithHidden(orm: MikroORM): Promise<void> {
  await seed(orm.em.fork());
  const em = orm.em.fork();
  const todos = await em.find(Todo, {}, { populate: ["children"], orderBy: { id: "asc" } });
  const parent = todos.reduce((a, b) => b.children.length > a.children.length ? b : a);
  em.create(Todo, {
    status: "PENDING",
    text: HIDDEN,
    parent,
    category: todos.find((t) => t.category)?.category,
  });
  await em.flush();
}

/** The three requests' answers: the first page, the page after its cursor, the categories. */
async function answers(server: TestServer): Promise<unknown[]> {
  const first = await server.query<{ todos: { pageInfo: { endCursor: string } } }>(FIRST);
  assertEquals(first.errors, undefined);
  const after = await server.query(AFTER, { after: first.data!.todos.pageInfo.endCursor });
  assertEquals(after.errors, undefined);
  const categories = await server.query(CATEGORIES);
  assertEquals(categories.errors, undefined);
  return [first.data, after.data, categories.data];
}

for (const dialect of dialects(["postgresql", "sqlite"])) {
  Deno.test({
    name: `a policy's values in edge order terms are bound parameters (${dialect})`,
    sanitizeOps: false,
    sanitizeResources: false,
    fn: async () => {
      const sent: Sent[] = [];
      const opened: TestOrm[] = [];
      const servers: TestServer[] = [];
      try {
        const guardedDb = await openTestOrm(
          dialect,
          entities,
          recordingOptions(dialect, sent) as never,
        );
        opened.push(guardedDb);
        await seedWithHidden(guardedDb.orm);
        const oracleDb = await openTestOrm(dialect, entities);
        opened.push(oracleDb);
        await seed(oracleDb.orm.em.fork());
        const guarded = startServer(
          guardedDb.orm,
          createSchema(
            { policies: openPolicies(entities, [hideMarked]), viewer: () => 1 } as never,
          ),
        );
        servers.push(guarded);
        const plain = startServer(oracleDb.orm, createSchema());
        servers.push(plain);

        sent.length = 0;
        const actual = await answers(guarded);
        assertEquals(actual, await answers(plain));
        const reads = sent.filter((s) => /^\s*(select|with)\b/i.test(s.text));
        const texts = reads.map((s) => s.text).join("\n");
        // The terms are in the statements (order, keyset and cursor values), the value is not.
        assert(/count\(\*\)/i.test(texts), texts);
        for (const form of [HIDDEN, HIDDEN.replaceAll("'", "''"), "ünïq"]) {
          assert(!texts.includes(form), `${form} in SQL text:\n${texts}`);
        }
        const bound = reads.filter((s) => s.values.includes(HIDDEN));
        assert(bound.length >= 3, `the policy's value is a parameter of ${bound.length} reads`);
        for (const s of reads) {
          if (dialect === "postgresql") {
            const numbers = [...s.text.matchAll(/\$(\d+)/g)].map((m) => Number(m[1]));
            assertEquals(numbers.length ? Math.max(...numbers) : 0, s.values.length, s.text);
          } else {
            assertEquals(s.text.split("?").length - 1, s.values.length, s.text);
          }
          assert(!s.text.includes("mikrogql.value"), s.text);
        }
      } finally {
        for (const server of servers) await server.close();
        for (const db of opened) await db.close();
      }
    },
  });
}
