/**
 * Keys of every shape on the library example (examples/library), over HTTP on SQLite, PostgreSQL
 * and MariaDB, each answer checked against `em.find` on the same database: to-one edges to
 * composite keys (a relation and a number, two text columns), rows nested under composite-key
 * parents (one-to-many and many-to-many, one parent and many), `node`/`nodes` of composite ids,
 * root and nested connections over composite keys paged with cursors both ways, natural key
 * columns as fields and create inputs, and a `mapToPk` relation written by create and update
 * inputs. The seed makes every key share
 * all parts but one with another key (two members named John, copy 1 of two titles, branch code
 * `central` in two countries), so a key matched on one column gives a wrong answer.
 */
import { assertEquals } from "@std/assert";
import type { EntityManager } from "@mikro-orm/core";
import { entities } from "../../examples/library/entities.ts";
import { seed } from "../../examples/library/seed.ts";
import { createSchema, graph } from "../../examples/library/generated/mod.ts";
import { BookCopy } from "../../examples/library/entities/book_copy.ts";
import { Branch } from "../../examples/library/entities/branch.ts";
import { Loan } from "../../examples/library/entities/loan.ts";
import { Member } from "../../examples/library/entities/member.ts";
import { Title } from "../../examples/library/entities/title.ts";
import { decodeGlobalId, globalIdOf } from "../../runtime/plan/global_id.ts";
import { keyFilter, primaryKeyOf } from "../../runtime/keys.ts";
import { nodeTypeOf } from "../../runtime/graph.ts";
import { dialects, openTestOrm } from "../support/databases.ts";
import { startServer, type TestServer } from "../support/server.ts";

type Data = Record<string, unknown>;

async function ok<T = Data>(
  server: TestServer,
  query: string,
  variables?: Record<string, unknown>,
): Promise<T> {
  const response = await server.query<T>(query, variables);
  assertEquals(response.errors, undefined, query);
  return response.data as T;
}

/** The global id of an entity (or reference), as the server makes it. */
function idOf(row: unknown): string | null {
  if (row == null) return null;
  const entity = (row as { unwrap?: () => object }).unwrap?.() ?? row as object;
  const type = nodeTypeOf(graph, entity)!;
  return globalIdOf(graph, type, primaryKeyOf(type, entity));
}

/** The nodes of a list edge or of a connection. */
function nodesOf(value: unknown): Data[] {
  const connection = value as { edges?: { node: Data }[] };
  return connection.edges ? connection.edges.map((e) => e.node) : value as Data[];
}

/** The key filter of a global id: `{ firstName: "John", lastName: "Smith" }`. */
function keyOf(id: unknown): Record<string, unknown> {
  const decoded = decodeGlobalId(graph, id as string)!;
  return keyFilter(decoded.type, decoded.pk);
}

/** `rows` by global id, in the order list edges use: by key, part by part. */
async function ids(em: EntityManager, entity: unknown, where: object): Promise<string[]> {
  const meta = em.getMetadata().find(entity as never)!;
  const rows = await em.find(entity as never, where as never, {
    orderBy: Object.fromEntries(meta.primaryKeys.map((k) => [k, "asc"])) as never,
  });
  return rows.map((r) => idOf(r)!);
}

for (const dialect of dialects()) {
  Deno.test({
    name: `composite and natural keys on ${dialect}: edges, batching, node, mapToPk`,
    sanitizeOps: false,
    sanitizeResources: false,
    fn: async (t) => {
      const db = await openTestOrm(dialect, entities);
      await seed(db.orm.em.fork());
      const server = startServer(db.orm, createSchema());
      const em = () => db.orm.em.fork();
      try {
        await t.step("to-one edges to composite keys name the right row", async () => {
          const data = await ok<{ loans: { edges: { node: Data }[] } }>(
            server,
            `{ loans { edges { node { id member { id age favouriteCopy { id condition } }
              copy { id title { name } branch { id name } } } } } }`,
          );
          const loans = await em().find(Loan, {}, {
            orderBy: { id: "asc" },
            populate: ["member.favouriteCopy", "copy.title", "copy.branch"] as never,
          });
          assertEquals(
            data.loans.edges.map((e) => e.node),
            loans.map((loan) => {
              const member = loan.member.unwrap();
              const copy = loan.copy.unwrap();
              const favourite = member.favouriteCopy?.unwrap();
              const branch = copy.branch?.unwrap();
              return {
                id: idOf(loan),
                member: {
                  id: idOf(member),
                  age: member.age ?? null,
                  favouriteCopy: favourite
                    ? { id: idOf(favourite), condition: favourite.condition }
                    : null,
                },
                copy: {
                  id: idOf(copy),
                  title: { name: copy.title.unwrap().name },
                  branch: branch ? { id: idOf(branch), name: branch.name } : null,
                },
              };
            }),
          );
        });

        await t.step("rows nested under composite-key parents go to their parents", async () => {
          const query = `{ loans { edges { node { member { id loans { edges { node { id } } }
            branches { edges { node { id members { id } copies { edges { node { id
            loans { id } } } } } } } } copy { id loans { id } } } } } }`;
          const data = await ok<{ loans: { edges: { node: Data }[] } }>(server, query);
          for (const { node } of data.loans.edges) {
            const member = node.member as Data;
            assertEquals(
              nodesOf(member.loans).map((l) => l.id),
              await ids(em(), Loan, { member: keyOf(member.id) }),
            );
            const branches = nodesOf(member.branches);
            assertEquals(
              branches.map((b) => b.id),
              await ids(em(), Branch, { members: keyOf(member.id) }),
            );
            for (const branch of branches) {
              assertEquals(
                (branch.members as Data[]).map((m) => m.id),
                await ids(em(), Member, { branches: keyOf(branch.id) }),
              );
              const copies = nodesOf(branch.copies);
              assertEquals(
                copies.map((c) => c.id),
                await ids(em(), BookCopy, { branch: keyOf(branch.id) }),
              );
            }
            const copy = node.copy as Data;
            assertEquals(
              (copy.loans as Data[]).map((l) => l.id),
              await ids(em(), Loan, { copy: keyOf(copy.id) }),
            );
          }
        });

        await t.step("node and nodes of composite ids, one parent and many", async () => {
          const members = await em().find(Member, {}, { orderBy: { lastName: "desc" } });
          const memberIds = members.map(idOf);
          const single = await ok<{ node: Data }>(
            server,
            `query($id: ID!) { node(id: $id) { id ... on Member { loans { edges { node { id } } } }
            } }`,
            { id: memberIds[0] },
          );
          assertEquals(single.node.id, memberIds[0]);
          assertEquals(
            nodesOf(single.node.loans).map((l) => l.id),
            await ids(em(), Loan, { member: members[0] }),
          );
          const many = await ok<{ nodes: Data[] }>(
            server,
            `query($ids: [ID!]!) { nodes(ids: $ids) { id ... on Member {
              loans { edges { node { id } } } } } }`,
            { ids: [...memberIds, memberIds[0]] },
          );
          const expected = [];
          for (const member of [...members, members[0]]) {
            expected.push({ id: idOf(member), loans: await ids(em(), Loan, { member }) });
          }
          assertEquals(
            many.nodes.map((n) => ({ id: n.id, loans: nodesOf(n.loans).map((l) => l.id) })),
            expected,
          );
        });

        await t.step("composite-key connections page with cursors, both ways", async () => {
          const orders: [string, Record<string, string>[]][] = [
            ["", [{ firstName: "asc" }, { lastName: "asc" }]],
            [
              "orderBy: { field: LAST_NAME, direction: DESC }",
              [{ lastName: "desc" }, { firstName: "desc" }],
            ],
            ["orderBy: { field: AGE }", [{ age: "asc nulls first" }, { firstName: "asc" }, {
              lastName: "asc",
            }]],
          ];
          for (const [orderBy, mikroOrder] of orders) {
            const want = (await em().find(Member, {}, { orderBy: mikroOrder as never }))
              .map(idOf);
            const forward: string[] = [];
            let after: string | null = null;
            for (let page = 0; page < 10; page++) {
              const data: { members: Data } = await ok(
                server,
                `query($after: Cursor) { members(first: 1, after: $after ${
                  orderBy ? `, ${orderBy}` : ""
                }) { edges { node { id } } pageInfo { hasNextPage endCursor } } }`,
                { after },
              );
              const edges = data.members.edges as { node: { id: string } }[];
              forward.push(...edges.map((e) => e.node.id));
              const info = data.members.pageInfo as Data;
              if (!info.hasNextPage) break;
              after = info.endCursor as string;
            }
            assertEquals(forward, want, orderBy);
            const backward: string[] = [];
            let before: string | null = null;
            for (let page = 0; page < 10; page++) {
              const data: { members: Data } = await ok(
                server,
                `query($before: Cursor) { members(last: 2, before: $before ${
                  orderBy ? `, ${orderBy}` : ""
                }) { edges { node { id } } pageInfo { hasPreviousPage startCursor } } }`,
                { before },
              );
              const edges = data.members.edges as { node: { id: string } }[];
              backward.unshift(...edges.map((e) => e.node.id));
              const info = data.members.pageInfo as Data;
              if (!info.hasPreviousPage) break;
              before = info.startCursor as string;
            }
            assertEquals(backward, want, orderBy);
          }
        });

        await t.step("nested composite-key connections page per parent", async () => {
          const data = await ok<{ titles: { edges: { node: Data }[] } }>(
            server,
            `{ titles { edges { node { id copies(first: 1) { totalCount
              edges { cursor node { id } } } } } } }`,
          );
          for (const { node } of data.titles.edges) {
            const want = await ids(em(), BookCopy, { title: keyOf(node.id) });
            const copies = node.copies as { totalCount: number; edges: Data[] };
            assertEquals(copies.totalCount, want.length);
            const got = copies.edges.map((e) => (e.node as Data).id);
            let cursor = copies.edges.at(-1)?.cursor;
            while (cursor) {
              const next: { node: { copies: { edges: Data[] } } } = await ok(
                server,
                `query($id: ID!, $after: Cursor) { node(id: $id) { ... on Title {
                  copies(first: 1, after: $after) { edges { cursor node { id } } } } } }`,
                { id: node.id, after: cursor },
              );
              got.push(...next.node.copies.edges.map((e) => (e.node as Data).id));
              cursor = next.node.copies.edges.at(-1)?.cursor;
            }
            assertEquals(got, want);
          }
        });

        await t.step("natural keys are fields and create inputs, never update inputs", async () => {
          const created = await ok<{ createMember: Data; createBookCopy: Data }>(
            server,
            `mutation($title: ID!) {
              createMember(input: { firstName: "Ann", lastName: "Lee", age: 30 }) {
                id firstName lastName age }
              createBookCopy(input: { titleID: $title, copyNumber: 7 }) {
                id copyNumber condition title { id } } }`,
            { title: idOf(await em().findOneOrFail(Title, { name: "Dune" })) },
          );
          const ann = await em().findOneOrFail(Member, { firstName: "Ann", lastName: "Lee" });
          assertEquals(created.createMember, {
            id: idOf(ann),
            firstName: "Ann",
            lastName: "Lee",
            age: 30,
          });
          const copy = await em().findOneOrFail(BookCopy, { copyNumber: 7 });
          assertEquals(created.createBookCopy.id, idOf(copy));
          const node = await ok<{ node: Data }>(
            server,
            `query($id: ID!) { node(id: $id) { id ... on BookCopy { copyNumber } } }`,
            { id: idOf(copy) },
          );
          assertEquals(node.node, { id: idOf(copy), copyNumber: 7 });
          const update = await server.query(
            `mutation($id: ID!) { updateMember(id: $id, input: { firstName: "Bo" }) { id } }`,
            { id: idOf(ann) },
          );
          assertEquals(update.errors?.[0]?.extensions?.code, "GRAPHQL_VALIDATION_FAILED");
          const duplicate = await server.query(
            `mutation { createMember(input: { firstName: "Ann", lastName: "Lee" }) { id } }`,
          );
          assertEquals(duplicate.errors?.[0]?.extensions?.code, "BAD_USER_INPUT");
        });

        await t.step("a mapToPk relation is written by create and update inputs", async () => {
          const publishers = await ok<{ publishers: { edges: { node: Data }[] } }>(
            server,
            `{ publishers { edges { node { id name } } } }`,
          );
          const [penguin, folio] = publishers.publishers.edges.map((e) => e.node);
          const created = await ok<{ createTitle: Data }>(
            server,
            `mutation($p: ID!) { createTitle(input: { name: "Kim", publisherID: $p }) {
              id publisher { id name } } }`,
            { p: folio.id },
          );
          assertEquals((created.createTitle.publisher as Data).name, "Folio");
          const updated = await ok<{ updateTitle: Data }>(
            server,
            `mutation($id: ID!, $p: ID!) { updateTitle(id: $id, input: { publisherID: $p }) {
              publisher { id name } } }`,
            { id: created.createTitle.id, p: penguin.id },
          );
          assertEquals(updated.updateTitle.publisher, { id: penguin.id, name: "Penguin" });
          const stored = await em().findOneOrFail(Title, { name: "Kim" });
          assertEquals(
            stored.publisher,
            (await em().findOneOrFail(Title, { name: "Dune" })).publisher,
          );
          const cleared = await ok<{ updateTitle: Data }>(
            server,
            `mutation($id: ID!) { updateTitle(id: $id, input: { clearPublisher: true }) {
              publisher { id } } }`,
            { id: created.createTitle.id },
          );
          assertEquals(cleared.updateTitle.publisher, null);
        });
      } finally {
        await server.close();
        await db.close();
      }
    },
  });
}
