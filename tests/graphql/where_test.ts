/**
 * Where inputs over HTTP on the todo example (entgql's todo model): every operator on every
 * property type, foreign keys and ids as global ids, edge predicates (`has<Edge>`,
 * `has<Edge>With` on m:1, 1:m and m:n edges), `and`/`or`/`not`, escaping of LIKE and GLOB
 * wildcards, case folding, a user-registered extension field, the shared filter of a page and
 * its `totalCount`, and every bad input: on SQLite, PostgreSQL and MariaDB.
 */
import { assert, assertEquals, assertMatch } from "@std/assert";
import { encodeGlobalId } from "../../mod.ts";
import { createSchema } from "../../examples/todo/generated/mod.ts";
import { BASE, seed, USERS } from "../../examples/todo/seed.ts";
import { entities } from "../../examples/todo/entities.ts";
import { dialects, openTestOrm } from "../support/databases.ts";
import { startServer, type TestServer } from "../support/server.ts";

type Where = Record<string, unknown>;

const todo = (id: number) => encodeGlobalId("Todo", id);
const category = (id: number) => encodeGlobalId("Category", id);
const time = (id: number) => new Date(BASE + (id - 1) * 1000).toISOString();

const EXTENSION = `
extend input TodoWhereInput {
  "Priority 3 or more (true), or less (false)."
  urgent: Boolean
  "Declared, but no filter function is registered for it."
  unregistered: Boolean
}`;

/** The ids (numbers) of the rows of the root connection `field` matching `where`. */
async function ids(
  server: TestServer,
  field: "todos" | "categories" | "users" | "groups",
  where: Where,
): Promise<number[]> {
  const type = { todos: "Todo", categories: "Category", users: "User", groups: "Group" }[field];
  const r = await server.query<Record<string, { edges: { node: { id: string } }[] }>>(
    `query($w: ${type}WhereInput) { ${field}(where: $w) { edges { node { id } } } }`,
    { w: where },
  );
  assertEquals(r.errors, undefined, JSON.stringify(where));
  return r.data![field].edges.map((e) => {
    const text = atob(e.node.id.replaceAll("-", "+").replaceAll("_", "/"));
    return Number(text.slice(text.indexOf(":") + 1));
  }).sort((a, b) => a - b);
}

/** Asserts the error of `where` on `todos`: its code and a message matching `message`. */
async function rejects(
  server: TestServer,
  where: Where | string,
  code: string | undefined,
  message: RegExp,
): Promise<void> {
  const r = typeof where === "string"
    ? await server.query(`{ todos(where: ${where}) { totalCount } }`)
    : await server.query(`query($w: TodoWhereInput) { todos(where: $w) { totalCount } }`, {
      w: where,
    });
  assert(r.errors?.length, `expected an error for ${JSON.stringify(where)}`);
  assertEquals(r.errors[0].extensions?.code, code, JSON.stringify(r.errors));
  assertMatch(r.errors[0].message, message);
}

for (const dialect of dialects()) {
  Deno.test({
    name: `where inputs on ${dialect}`,
    sanitizeOps: false,
    sanitizeResources: false,
    fn: async (t) => {
      const db = await openTestOrm(dialect, entities);
      await seed(db.orm.em.fork());
      const server = startServer(
        db.orm,
        createSchema({
          typeDefs: EXTENSION,
          where: {
            TodoWhereInput: {
              urgent: (value) => ({ priority: value ? { $gte: 3 } : { $lt: 3 } }),
            },
          },
        }),
      );
      const all = [1, 2, 3, 4, 5, 6, 7];
      const except = (...out: number[]) => all.filter((id) => !out.includes(id));
      const check = async (field: Parameters<typeof ids>[1], cases: [Where, number[]][]) => {
        for (const [where, expected] of cases) {
          assertEquals(await ids(server, field, where), expected, JSON.stringify(where));
        }
      };
      try {
        await t.step("id: global ids, EQ ... LTE", () =>
          check("todos", [
            [{ id: todo(3) }, [3]],
            [{ idNEQ: todo(3) }, except(3)],
            [{ idIn: [todo(1), todo(2), todo(1)] }, [1, 2]],
            [{ idNotIn: [todo(1), todo(2)] }, [3, 4, 5, 6, 7]],
            [{ idGT: todo(5) }, [6, 7]],
            [{ idGTE: todo(5) }, [5, 6, 7]],
            [{ idLT: todo(2) }, [1]],
            [{ idLTE: todo(2) }, [1, 2]],
          ]));

        await t.step("time: EQ ... LTE", () =>
          check("todos", [
            [{ createdAt: time(3) }, [3]],
            [{ createdAtNEQ: time(3) }, except(3)],
            [{ createdAtIn: [time(1), time(2)] }, [1, 2]],
            [{ createdAtNotIn: [time(1), time(2)] }, [3, 4, 5, 6, 7]],
            [{ createdAtGT: time(6) }, [7]],
            [{ createdAtGTE: time(6) }, [6, 7]],
            [{ createdAtLT: time(2) }, [1]],
            [{ createdAtLTE: time(2) }, [1, 2]],
          ]));

        await t.step("enum: EQ, NEQ, In, NotIn", async () => {
          await check("todos", [
            [{ status: "COMPLETED" }, [2, 5]],
            [{ statusNEQ: "COMPLETED" }, [1, 3, 4, 6, 7]],
            [{ statusIn: ["PENDING", "COMPLETED"] }, [2, 3, 5, 6]],
            [{ statusNotIn: ["PENDING", "COMPLETED"] }, [1, 4, 7]],
          ]);
          await check("categories", [[{ status: "ENABLED" }, [1, 3]]]);
        });

        await t.step("int: EQ ... LTE", () =>
          check("todos", [
            [{ priority: 2 }, [2, 7]],
            [{ priorityNEQ: 2 }, [1, 3, 4, 5, 6]],
            [{ priorityIn: [0, 5] }, [4, 6]],
            [{ priorityNotIn: [0, 5] }, [1, 2, 3, 5, 7]],
            [{ priorityGT: 2 }, [3, 6]],
            [{ priorityGTE: 2 }, [2, 3, 6, 7]],
            [{ priorityLT: 1 }, [4]],
            [{ priorityLTE: 1 }, [1, 4, 5]],
          ]));

        await t.step("nullable float: EQ ... LTE, IsNil, NotNil", () =>
          check("categories", [
            [{ weight: 1.5 }, [1]],
            [{ weightNEQ: 1.5 }, [3]],
            [{ weightIn: [1.5, 3.25] }, [1, 3]],
            [{ weightNotIn: [1.5] }, [3]],
            [{ weightGT: 2 }, [3]],
            [{ weightGTE: 1.5 }, [1, 3]],
            [{ weightLT: 2 }, [1]],
            [{ weightLTE: 3.25 }, [1, 3]],
            [{ weightIsNil: true }, [2]],
            [{ weightNotNil: true }, [1, 3]],
            [{ weightIsNil: false }, [1, 2, 3]],
          ]));

        await t.step(
          "nullable 64-bit integer beyond 2^32: EQ ... LTE, IsNil, NotNil",
          () =>
            check("categories", [
              [{ count: "12884901888" }, [2]],
              [{ count: "12884901887" }, []],
              [{ countNEQ: "10" }, [2]],
              [{ countIn: ["10", "12884901888"] }, [1, 2]],
              [{ countNotIn: ["10"] }, [2]],
              [{ countGT: "10" }, [2]],
              [{ countGTE: "10" }, [1, 2]],
              [{ countLT: "12884901888" }, [1]],
              [{ countLTE: "12884901888" }, [1, 2]],
              [{ countIsNil: true }, [3]],
              [{ countNotNil: true }, [1, 2]],
            ]),
        );

        await t.step("boolean: EQ, NEQ", () =>
          check("users", [
            [{ admin: true }, [1]],
            [{ adminNEQ: true }, [2, 3]],
          ]));

        await t.step("UUID: EQ ... LTE (no string operators)", () => {
          const [u1, u2] = USERS.map((u) => u[2]);
          return check("users", [
            [{ username: u1 }, [1]],
            [{ usernameNEQ: u1 }, [2, 3]],
            [{ usernameIn: [u1, u2] }, [1, 2]],
            [{ usernameNotIn: [u1, u2] }, [3]],
            [{ usernameGT: u1 }, [2, 3]],
            [{ usernameGTE: u2 }, [2, 3]],
            [{ usernameLT: u2 }, [1]],
            [{ usernameLTE: u2 }, [1, 2]],
          ]);
        });

        await t.step("UUID: a value that is not a UUID is BAD_USER_INPUT", async () => {
          for (
            const [where, message] of [
              [`{ usernameLT: "A" }`, /^where\.usernameLT: "A" is not a UUID$/],
              [
                `{ usernameIn: ["${USERS[0][2]}", "x"] }`,
                /^where\.usernameIn\[1\]: "x" is not a UUID$/,
              ],
            ] as const
          ) {
            const r = await server.query(`{ users(where: ${where}) { totalCount } }`);
            assertEquals(r.errors?.[0].extensions?.code, "BAD_USER_INPUT", JSON.stringify(r));
            assertMatch(r.errors![0].message, message);
          }
        });

        await t.step("string: EQ ... LTE", async () => {
          await check("todos", [
            [{ text: "Buy milk" }, [1]],
            [{ textNEQ: "Buy milk" }, except(1)],
            [{ textIn: ["Buy milk", "buy Bread"] }, [1, 5]],
            [{ textNotIn: ["Buy milk", "buy Bread"] }, [2, 3, 4, 6, 7]],
          ]);
          await check("groups", [
            [{ nameGT: "b" }, [2, 3]],
            [{ nameGTE: "empty" }, [2, 3]],
            [{ nameLT: "f" }, [1, 3]],
            [{ nameLTE: "empty" }, [1, 3]],
          ]);
        });

        await t.step(
          "string: Contains, HasPrefix, HasSuffix are case-sensitive",
          () =>
            check("todos", [
              [{ textContains: "report" }, [2]],
              [{ textContains: "REPORT" }, [3]],
              [{ textHasPrefix: "write" }, [3]],
              [{ textHasPrefix: "Write" }, [2]],
              [{ textHasSuffix: "draft" }, [3]],
              [{ textHasSuffix: "DRAFT" }, []],
              [{ textContains: "" }, all],
            ]),
        );

        await t.step("string: wildcards in user text are literal", () =>
          check("todos", [
            [{ textContains: "50%" }, [2]],
            [{ textContains: "50_" }, [4]],
            [{ textHasSuffix: "%" }, [2]],
            [{ textHasPrefix: "_" }, []],
            [{ textContains: "*house?[" }, [6]],
            [{ textContains: "?" }, [6]],
            [{ textContains: "[x]" }, [6]],
            [{ textContains: "\\" }, [7]],
            [{ textContainsFold: "50%" }, [2]],
            [{ textContainsFold: "!" }, []],
          ]));

        await t.step("string: EqualFold, ContainsFold are case-insensitive", () =>
          check("todos", [
            [{ textEqualFold: "BUY MILK" }, [1]],
            [{ textEqualFold: "buy" }, []],
            [{ textContainsFold: "REPORT" }, [2, 3]],
            [{ textContainsFold: "bUy" }, [1, 5]],
          ]));

        await t.step(
          "foreign keys: EQ, NEQ, In, NotIn, IsNil, NotNil with global ids",
          () =>
            check("todos", [
              [{ categoryID: category(1) }, [2, 3]],
              [{ categoryIDNEQ: category(1) }, [1, 5, 6]],
              [{ categoryIDIn: [category(2), category(3)] }, [1, 5, 6]],
              [{ categoryIDNotIn: [category(1)] }, [1, 5, 6]],
              [{ categoryIDIsNil: true }, [4, 7]],
              [{ categoryIDNotNil: true }, [1, 2, 3, 5, 6]],
              [{ parentID: todo(2) }, [3, 4]],
              [{ parentIDIsNil: true }, [1, 2, 6]],
            ]),
        );

        await t.step("edges: has<Edge>, has<Edge>With on m:1, 1:m and m:n", async () => {
          await check("todos", [
            [{ hasParent: true }, [3, 4, 5, 7]],
            [{ hasParent: false }, [1, 2, 6]],
            [{ hasChildren: true }, [1, 2, 6]],
            [{ hasChildren: false }, [3, 4, 5, 7]],
            [{ hasCategory: false }, [4, 7]],
            [{ hasChildrenWith: [{ status: "PENDING" }] }, [2]],
            // Entries are ANDed on one related row: todo 2 has a pending child and an
            // in-progress child, but no child both in progress and of priority above 1.
            [{ hasChildrenWith: [{ status: "IN_PROGRESS" }, { priorityGT: 1 }] }, [6]],
            [{ hasParentWith: [{ textContains: "report" }] }, [3, 4]],
            [{ hasCategoryWith: [{ status: "DISABLED" }] }, [6]],
            [{ hasParentWith: [{ hasCategoryWith: [{ text: "Work" }] }] }, [3, 4]],
            [{ hasChildrenWith: [{ hasChildrenWith: [{ status: "PENDING" }] }] }, []],
            [{ hasChildrenWith: [{ hasParentWith: [{ status: "PENDING" }] }] }, [6]],
          ]);
          await check("categories", [
            [{ hasTodos: false }, []],
            [{ hasTodosWith: [{ priorityGTE: 5 }] }, [2]],
          ]);
          await check("users", [
            [{ hasGroups: false }, [3]],
            [{ hasGroupsWith: [{ name: "admins" }] }, [1]],
          ]);
          await check("groups", [
            [{ hasUsers: false }, [3]],
            [{ hasUsersWith: [{ admin: false }] }, [2]],
          ]);
        });

        await t.step(
          "and, or, not; several predicates in one object are ANDed",
          () =>
            check("todos", [
              [{ status: "IN_PROGRESS", priorityGT: 0 }, [1, 7]],
              [{ not: { status: "COMPLETED" } }, [1, 3, 4, 6, 7]],
              [{ or: [{ priority: 5 }, { textHasPrefix: "Buy" }] }, [1, 6]],
              [{ and: [{ statusIn: ["PENDING", "IN_PROGRESS"] }, { not: { hasParent: true } }] }, [
                1,
                6,
              ]],
              [{ not: { or: [{ hasParent: true }, { priorityGT: 1 }] } }, [1]],
              [{ or: [{ and: [{ status: "PENDING" }, { priority: 3 }] }, { id: todo(7) }] }, [
                3,
                7,
              ]],
              // Rows without a parent are not "with a completed parent": they stay in.
              [{ not: { hasParentWith: [{ status: "COMPLETED" }] } }, [1, 2, 5, 6, 7]],
              [{ text: null, not: { statusIn: ["COMPLETED"] }, priorityLT: 2 }, [1, 4]],
            ]),
        );

        await t.step("where: {} and null are no filter", async () => {
          assertEquals(await ids(server, "todos", {}), all);
          const r = await server.query<{ todos: { totalCount: number } }>(
            `{ todos(where: null) { totalCount } }`,
          );
          assertEquals(r.data!.todos.totalCount, 7);
        });

        await t.step("a user-registered where field, nested too", () =>
          check("todos", [
            [{ urgent: true }, [3, 6]],
            [{ urgent: false, status: "IN_PROGRESS" }, [1, 4, 7]],
            [{ not: { urgent: false } }, [3, 6]],
            [{ hasChildrenWith: [{ urgent: true }] }, [2]],
          ]));

        await t.step("the page and totalCount share the filter", async () => {
          const r = await server.query<
            { todos: { totalCount: number; edges: unknown[]; pageInfo: { hasNextPage: boolean } } }
          >(
            `{ todos(first: 1, where: { statusIn: [COMPLETED, PENDING] }) {
                 totalCount edges { node { id } } pageInfo { hasNextPage } } }`,
          );
          assertEquals(r.data!.todos.totalCount, 4);
          assertEquals(r.data!.todos.edges.length, 1);
          assertEquals(r.data!.todos.pageInfo.hasNextPage, true);
        });

        await t.step("bad input: empty nested inputs and lists name their path", async () => {
          await rejects(server, { not: {} }, "BAD_USER_INPUT", /^where\.not: empty TodoWhereInput/);
          await rejects(server, { or: [{}] }, "BAD_USER_INPUT", /^where\.or\[0\]: empty/);
          await rejects(server, { or: [] }, "BAD_USER_INPUT", /^where\.or: empty list/);
          await rejects(
            server,
            { and: [{ status: "PENDING" }, { not: { text: null } }] },
            "BAD_USER_INPUT",
            /^where\.and\[1\]\.not: empty/,
          );
          await rejects(
            server,
            { hasChildrenWith: [] },
            "BAD_USER_INPUT",
            /^where\.hasChildrenWith: empty list/,
          );
          await rejects(
            server,
            { hasParentWith: [{ hasCategoryWith: [{}] }] },
            "BAD_USER_INPUT",
            /^where\.hasParentWith\[0\]\.hasCategoryWith\[0\]: empty CategoryWhereInput/,
          );
          await rejects(
            server,
            { not: { categoryIDIsNil: false } },
            "BAD_USER_INPUT",
            /^where\.not: empty/,
          );
        });

        await t.step("bad input: ids of the wrong type or malformed", async () => {
          await rejects(
            server,
            { idIn: [todo(1), "bogus"] },
            "BAD_USER_INPUT",
            /^where\.idIn\[1\]: "bogus" is not the global id of a Todo/,
          );
          await rejects(
            server,
            { categoryID: todo(1) },
            "BAD_USER_INPUT",
            /^where\.categoryID: .* is not the global id of a Category/,
          );
          await rejects(
            server,
            { unregistered: true },
            "BAD_USER_INPUT",
            /^where\.unregistered: no filter function is registered for TodoWhereInput\.unregistered/,
          );
        });

        await t.step(
          "bad input: GraphQL validation rejects unknown values and fields",
          async () => {
            await rejects(server, `{ status: NOPE }`, "GRAPHQL_VALIDATION_FAILED", /NOPE/);
            await rejects(server, `{ textContains: 5 }`, "GRAPHQL_VALIDATION_FAILED", /String/);
            await rejects(
              server,
              `{ configIsNil: true }`,
              "GRAPHQL_VALIDATION_FAILED",
              /configIsNil/,
            );
            const r = await server.query(
              `{ users(where: { passwordContains: "x" }) { totalCount } }`,
            );
            assertMatch(r.errors![0].message, /passwordContains/);
          },
        );
      } finally {
        await server.close();
        await db.close();
      }
    },
  });
}
