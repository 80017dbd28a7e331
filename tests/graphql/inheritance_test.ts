/**
 * Inheritance as MikroORM defines it, on the shop example's staff (examples/shop/entities/
 * staff.ts): a single-table inheritance whose root `Staff` is not declared abstract but has no
 * discriminator value (MikroORM's `BaseUser2`), a concrete intermediate class (`Manager`, with
 * rows of its own and the subclass `Owner`: the interface `Manager` and the object type
 * `ManagerOnly`) and `QueryField()` on subclasses. Over HTTP on SQLite, PostgreSQL and MariaDB, on
 * random rows (the seed is printed; `INHERITANCE_SEED=<n>` replays), every answer is checked
 * against `em.find` on the same database: each row's `__typename` is its class's object type, it
 * has one global id whatever the path (root, subclass and intermediate connections and their where
 * inputs, edges typed by the intermediate class, `node` and `nodes` of ids typed by the root or an
 * ancestor), and only the classes that can be created have a create mutation; a policy on the
 * root covers every subclass's rows (reads and writes).
 */
import { assert, assertEquals } from "@std/assert";
import { buildSchema, type GraphQLInterfaceType, type GraphQLObjectType } from "graphql";
import type { EntityManager } from "@mikro-orm/core";
import { entities } from "../../examples/shop/entities.ts";
import { Clerk, Manager, Owner, Staff } from "../../examples/shop/entities/staff.ts";
import { createSchema, graph, typeDefs } from "../../examples/shop/generated/mod.ts";
import { globalIdOf } from "../../runtime/plan/global_id.ts";
import { definePolicy } from "../../runtime/policy.ts";
import { primaryKeyOf } from "../../runtime/keys.ts";
import { nodeTypeOf } from "../../runtime/graph.ts";
import { dialects, openTestOrm } from "../support/databases.ts";
import { random } from "../support/random_data.ts";
import { startServer, type TestServer } from "../support/server.ts";
import { testSeed } from "../support/test_seed.ts";

type Data = Record<string, unknown>;

const SEED = testSeed("INHERITANCE_SEED", 20_261_129);

async function ok<T = Data>(
  server: TestServer,
  query: string,
  variables?: Record<string, unknown>,
): Promise<T> {
  const response = await server.query<T>(query, variables);
  assertEquals(response.errors, undefined, `${query} (seed ${SEED})`);
  return response.data as T;
}

/** The global id of a row, by its own class. */
function idOf(row: object): string {
  const type = nodeTypeOf(graph, row)!;
  return globalIdOf(graph, type, primaryKeyOf(type, row));
}

/** The global id of a row written as the type `name` (an ancestor of its class). */
function idAs(name: string, row: Staff): string {
  return globalIdOf(graph, graph.types[name], row.id);
}

/** Random staff: clerks, managers and owners, managers assisted by a clerk or not. */
async function seedStaff(em: EntityManager, seed: number): Promise<void> {
  const rand = random(seed);
  const names = ["ann", "bo", "cy", "di"];
  const pick = <T>(list: readonly T[]) => list[Math.floor(rand() * list.length)];
  const clerks: Clerk[] = [];
  for (let i = 0; i < 24; i++) {
    const name = pick(names);
    const kind = rand();
    if (kind < 0.4) {
      clerks.push(em.create(Clerk, { name, desk: rand() < 0.3 ? null : pick(["d1", "d2"]) }));
    } else {
      const fields = {
        name,
        budget: Math.floor(rand() * 5) * 100,
        assistant: clerks.length && rand() < 0.7 ? pick(clerks) : null,
      };
      if (kind < 0.75) em.create(Manager, fields);
      else em.create(Owner, { ...fields, shares: Math.floor(rand() * 3) });
    }
  }
  await em.flush();
}

/** The `__typename` of a row: its class's object type (`ManagerOnly` for a manager's row). */
function typename(row: object): string {
  const type = nodeTypeOf(graph, row)!;
  return type.rows ?? type.name;
}

/** What the server should answer for a staff row selected with `staffFields("Node")`. */
function expected(row: Staff): Data {
  const base: Data = { __typename: typename(row), id: idOf(row), name: row.name };
  if (row instanceof Clerk) return { ...base, desk: row.desk ?? null };
  const manager = row as Manager;
  const assistant = manager.assistant?.unwrap();
  const fields = {
    ...base,
    budget: manager.budget,
    assistant: assistant ? { __typename: "Clerk", id: idOf(assistant) } : null,
  };
  return row instanceof Owner ? { ...fields, shares: row.shares } : fields;
}

/** The selection of a staff row where `on` is its static type (interface or class). */
function staffFields(on: "Staff" | "Node" | "Clerk" | "Manager"): string {
  const manager = "budget assistant { __typename id }";
  if (on === "Clerk") return "__typename id name desk";
  if (on === "Manager") return `__typename id name ${manager} ... on Owner { shares }`;
  return `__typename id ... on Staff { name } ... on Clerk { desk } ... on Manager { ${manager} }
    ... on Owner { ${manager} shares }`;
}

Deno.test("inheritance SDL: a class whose rows can be of several classes is an interface", () => {
  const schema = buildSchema(typeDefs);
  const staff = schema.getType("Staff") as GraphQLInterfaceType;
  assertEquals(staff.constructor.name, "GraphQLInterfaceType");
  // Manager has rows of its own and the subclass Owner: the interface Manager, whose own rows
  // are ManagerOnly.
  const manager = schema.getType("Manager") as GraphQLInterfaceType;
  assertEquals(manager.constructor.name, "GraphQLInterfaceType");
  assertEquals(manager.getInterfaces().map((i) => i.name).sort(), ["Node", "Staff"]);
  for (
    const [name, interfaces] of [
      ["Clerk", ["Node", "Staff"]],
      ["ManagerOnly", ["Manager", "Node", "Staff"]],
      ["Owner", ["Manager", "Node", "Staff"]],
    ] as const
  ) {
    const type = schema.getType(name) as GraphQLObjectType;
    assertEquals(type.constructor.name, "GraphQLObjectType", name);
    assertEquals(type.getInterfaces().map((i) => i.name).sort(), [...interfaces], name);
  }
  assertEquals(
    Object.keys((schema.getType("ManagerOnly") as GraphQLObjectType).getFields()),
    Object.keys(manager.getFields()),
  );
  assertEquals(
    String((schema.getType("Clerk") as GraphQLObjectType).getFields().assists.type),
    "[Manager!]",
  );
  const query = schema.getQueryType()!.getFields();
  // QueryField() on the subclasses is theirs, not the root's inherited one.
  assertEquals(String(query.staff.type), "StaffConnection!");
  assertEquals(String(query.clerks.type), "ClerkConnection!");
  assertEquals(String(query.managers.type), "ManagerConnection!");
  assert(!query.owners, "Owner has no QueryField of its own");
  const mutation = schema.getMutationType()!.getFields();
  assert(!mutation.createStaff, "a root without a discriminator value cannot be created");
  for (const name of ["createClerk", "createManager", "createOwner"]) assert(mutation[name], name);
  // The discriminator column is the __typename, not a field.
  assert(!staff.getFields().role);
});

for (const dialect of dialects()) {
  Deno.test({
    name:
      `inheritance on ${dialect}: one type and one global id per row, every path (seed ${SEED})`,
    sanitizeOps: false,
    sanitizeResources: false,
    fn: async (t) => {
      const db = await openTestOrm(dialect, entities);
      await seedStaff(db.orm.em.fork(), SEED);
      const server = startServer(db.orm, createSchema());
      const em = () => db.orm.em.fork();
      const all = async <T extends Staff>(entity: new (...a: never[]) => T) =>
        await em().find(entity, {}, {
          orderBy: { id: "asc" },
          populate: ((entity as unknown) === Clerk ? [] : ["assistant"]) as never,
        });
      try {
        await t.step("root and subclass connections type each row by its class", async () => {
          for (
            const [field, entity, on] of [
              ["staff", Staff, "Staff"],
              ["clerks", Clerk, "Clerk"],
              ["managers", Manager, "Manager"],
            ] as const
          ) {
            const data = await ok<Record<string, { edges: { node: Data }[] }>>(
              server,
              `{ ${field}(first: 100) { edges { node { ${staffFields(on)} } } } }`,
            );
            const rows = await all(entity as typeof Staff);
            // An owner's row in the Manager connection is an Owner, with its own id.
            assertEquals(data[field].edges.map((e) => e.node), rows.map(expected), field);
          }
        });

        await t.step(
          "where inputs of the intermediate class's connection cover its subclass",
          async () => {
            const rand = random(SEED + 1);
            for (let i = 0; i < 4; i++) {
              const budget = Math.floor(rand() * 5) * 100;
              const data = await ok<{ managers: { totalCount: number; edges: { node: Data }[] } }>(
                server,
                `query($budget: Int!) { managers(first: 100, where: { budgetGTE: $budget }) {
                totalCount edges { node { ${staffFields("Manager")} } } } }`,
                { budget },
              );
              const rows = await em().find(Manager, { budget: { $gte: budget } }, {
                orderBy: { id: "asc" },
                populate: ["assistant"],
              });
              assertEquals(data.managers.edges.map((e) => e.node), rows.map(expected), `${budget}`);
              assertEquals(data.managers.totalCount, rows.length);
            }
          },
        );

        await t.step(
          "an edge typed by the intermediate class holds its subclass's rows",
          async () => {
            const data = await ok<
              { clerks: { edges: { node: { id: string; assists: Data[] } }[] } }
            >(
              server,
              `{ clerks(first: 100) { edges { node { id assists { ${
                staffFields("Manager")
              } } } } } }`,
            );
            const clerks = await all(Clerk);
            const managers = await all(Manager);
            assertEquals(
              data.clerks.edges.map((e) => e.node),
              clerks.map((c) => ({
                id: idOf(c),
                assists: managers.filter((m) => m.assistant?.id === c.id).map(expected),
              })),
            );
          },
        );

        await t.step("root connection pages by name with cursors", async () => {
          const rows = await em().find(Staff, {}, { orderBy: [{ name: "asc" }, { id: "asc" }] });
          const seen: string[] = [];
          let after: string | null = null;
          for (let page = 0; page < 20; page++) {
            const data: { staff: { edges: { node: Data }[]; pageInfo: Data } } = await ok(
              server,
              `query($after: Cursor) { staff(first: 5, after: $after, orderBy: { field: NAME }) {
                edges { node { id } } pageInfo { hasNextPage endCursor } } }`,
              { after },
            );
            seen.push(...data.staff.edges.map((e) => e.node.id as string));
            if (!data.staff.pageInfo.hasNextPage) break;
            after = data.staff.pageInfo.endCursor as string;
          }
          assertEquals(seen, rows.map(idOf));
        });

        await t.step("node and nodes of ids typed by the root or an ancestor", async () => {
          const rows = await all(Staff);
          const ids = rows.flatMap((r) => {
            const list = [idOf(r), idAs("Staff", r)];
            if (r instanceof Owner) list.push(idAs("Manager", r));
            return list;
          });
          for (const [i, id] of ids.entries()) {
            if (i % 3 !== 0 && i !== ids.length - 1) continue; // a sample, every kind of id
            const data = await ok<{ node: Data }>(
              server,
              `query($id: ID!) { node(id: $id) { ${staffFields("Node")} } }`,
              { id },
            );
            const row = rows.find((r) =>
              idOf(r) === id || idAs("Staff", r) === id ||
              idAs("Manager", r) === id
            )!;
            assertEquals(data.node, expected(row), id);
          }
          const data = await ok<{ nodes: Data[] }>(
            server,
            `query($ids: [ID!]!) { nodes(ids: $ids) { ${staffFields("Node")} } }`,
            { ids },
          );
          assertEquals(
            data.nodes,
            rows.flatMap((r) => Array(r instanceof Owner ? 3 : 2).fill(expected(r))),
          );
        });

        await t.step("a policy on the root covers the rows of every subclass", async () => {
          // The viewer may not see staff named "ann", nor create one named "zed".
          const hidden = "ann";
          const policy = definePolicy(Staff, {
            read: () => ({ name: { $ne: hidden } }),
            create: ({ after }) => after!.name !== "zed",
          });
          const guarded = startServer(db.orm, createSchema({ policies: [policy] }));
          try {
            for (
              const [field, entity, on] of [
                ["staff", Staff, "Staff"],
                ["clerks", Clerk, "Clerk"],
                ["managers", Manager, "Manager"],
              ] as const
            ) {
              const data = await ok<
                Record<string, { totalCount: number; edges: { node: Data }[] }>
              >(
                guarded,
                `{ ${field}(first: 100) { totalCount edges { node { ${staffFields(on)} } } } }`,
              );
              const rows = (await all(entity as typeof Staff)).filter((r) => r.name !== hidden);
              // An assistant named "ann" is invisible: the edge answers null, as for a missing row.
              const shown = rows.map((r) => {
                const row = expected(r);
                const assistant = (r as Manager).assistant?.unwrap();
                return assistant?.name === hidden ? { ...row, assistant: null } : row;
              });
              assertEquals(data[field].edges.map((e) => e.node), shown, field);
              assertEquals(data[field].totalCount, rows.length, field);
            }
            const everyone = await all(Staff);
            const ids = everyone.map(idOf);
            const nodes = await guarded.query<{ nodes: (Data | null)[] }>(
              `query($ids: [ID!]!) { nodes(ids: $ids) { id } }`,
              { ids },
            );
            assertEquals(
              nodes.data!.nodes,
              everyone.map((r) => r.name === hidden ? null : { id: idOf(r) }),
            );
            const refused = await guarded.query(
              `mutation { createClerk(input: { name: "zed" }) { id } }`,
            );
            assertEquals(refused.errors?.[0].extensions?.code, "FORBIDDEN");
            assertEquals(await em().count(Staff, { name: "zed" }), 0);
          } finally {
            await guarded.close();
          }
        });

        await t.step("create mutations write the discriminator of their class", async () => {
          const data = await ok<{ createOwner: { __typename: string; id: string } }>(
            server,
            `mutation { createOwner(input: { name: "eve", budget: 7, shares: 2 }) {
              __typename id } }`,
          );
          assertEquals(data.createOwner.__typename, "Owner");
          const row = await em().findOneOrFail(Staff, { name: "eve" });
          assert(row instanceof Owner);
          assertEquals(row.role, "owner");
          assertEquals(data.createOwner.id, idOf(row));
          // A manager's own row is a ManagerOnly.
          const manager = await ok<{ createManager: Data }>(
            server,
            `mutation { createManager(input: { name: "fay", budget: 3 }) {
              __typename ... on Manager { budget } } }`,
          );
          assertEquals(manager.createManager, { __typename: "ManagerOnly", budget: 3 });
        });
      } finally {
        await server.close();
        await db.close();
      }
    },
  });
}
