/**
 * Every value checked against its column before SQL, in where filters as in mutations (the
 * issue's values, over HTTP on the shop example on SQLite, PostgreSQL and MariaDB, with the
 * preset): out-of-range bigints, decimals that are no decimals or have more decimals than the
 * column's scale, impossible or non-ISO dates and times, years out of range, non-finite floats
 * (a `1e400` literal) and unpaired surrogates are `BAD_USER_INPUT` naming the input (sent in a
 * variable; a literal the `Decimal` or `Date` scalar refuses is a validation error), never an
 * internal error, and no row is written; the same columns' valid values filter and store
 * exactly what was acknowledged (read back from the database).
 */
import { assert, assertEquals } from "@std/assert";
import { createSchema } from "../../examples/shop/generated/mod.ts";
import { entities } from "../../examples/shop/entities.ts";
import { seed } from "../../examples/shop/seed.ts";
import { dialects, openTestOrm } from "../support/databases.ts";
import { type Response, startServer } from "../support/server.ts";

/** Where predicates on customers (and one on orders) with a value no column may compare with. */
const BAD_WHERE: [string, string][] = [
  ["pointsGT", `"9223372036854775808"`],
  ["points", `"-9223372036854775809"`],
  ["balanceGT", `"abc"`],
  ["balanceGT", `"NaN"`],
  ["balanceIn", `["1.5", "1e3"]`],
  ["balanceLT", `"123456789.5"`],
  ["birthdayGT", `"2026-02-30"`],
  ["birthday", `"2026-1-1"`],
  ["birthdayLT", `"2026-02-28T10:00:00Z"`],
  ["birthdayGTE", `"10000-01-01"`],
  ["wakeUpAt", `"25:00:00"`],
  ["wakeUpAtGT", `"06:30"`],
  ["ratingGT", `1e400`],
  ["ratingIn", `[1, -1e400]`],
];

/** createCustomer inputs (besides name and email) whose value the column cannot hold as given. */
const BAD_INPUT: [string, string][] = [
  ["points", `"9223372036854775808"`],
  ["balance", `"1.999"`],
  ["balance", `"NaN"`],
  ["balance", `" 1.00"`],
  ["balance", `"123456789.00"`],
  ["birthday", `"yesterday"`],
  ["birthday", `"2026-02-28T10:00:00Z"`],
  ["birthday", `"2026-1-1"`],
  ["birthday", `"10000-01-01"`],
  ["birthday", `"2026-02-30"`],
  ["wakeUpAt", `"25:00:00"`],
  ["rating", `1e400`],
];

const LEAKS = /select |insert|syntax|column "|SQLSTATE|errno|invalid input|out of range for type/i;

function assertBadInput(response: Response, name: string, what: string): void {
  const error = response.errors?.[0];
  assertEquals(error?.extensions?.code, "BAD_USER_INPUT", `${what}: ${JSON.stringify(response)}`);
  assert(error!.message.includes(name), `${what}: ${error!.message}`);
  assert(!LEAKS.test(error!.message), `${what}: ${error!.message}`);
}

/**
 * A literal the `Decimal` or `Date` scalar refuses is a GraphQL validation error (as any literal
 * of the wrong shape; the variable form of the same value is `BAD_USER_INPUT` naming its path);
 * a literal the scalar takes but the column cannot hold is `BAD_USER_INPUT` naming the field.
 */
function assertRefusedLiteral(response: Response, name: string, what: string): void {
  const error = response.errors?.[0];
  if (error?.extensions?.code === "GRAPHQL_VALIDATION_FAILED") {
    assert(/^(Decimal|Date) must be/.test(error.message), `${what}: ${error.message}`);
    assert(error.locations?.length, `${what}: the error points at the literal`);
    assert(!LEAKS.test(error.message), `${what}: ${error.message}`);
  } else assertBadInput(response, name, what);
}

/** `value` (a GraphQL literal) as a JSON variable value, when JSON can carry it (not `1e400`). */
function jsonValue(value: string): unknown {
  const parsed = JSON.parse(value);
  return JSON.stringify(parsed) === JSON.stringify(JSON.parse(value.replace(/1e400/g, "0")))
    ? parsed
    : undefined;
}

for (const dialect of dialects()) {
  Deno.test(`values are checked against their columns before SQL (${dialect})`, async (t) => {
    const test = await openTestOrm(dialect, entities);
    await seed(test.orm.em.fork());
    const server = startServer(test.orm, createSchema());
    try {
      await t.step("where filters: BAD_USER_INPUT, no SQL", async () => {
        for (const [predicate, value] of BAD_WHERE) {
          test.log.length = 0;
          const response = await server.query(
            `{ customers(where: { ${predicate}: ${value} }) { totalCount } }`,
          );
          assertRefusedLiteral(response, predicate, `${predicate}: ${value}`);
          const variable = jsonValue(value);
          if (variable !== undefined) {
            const sent = await server.query(
              `query ($w: CustomerWhereInput) { customers(where: $w) { totalCount } }`,
              { w: { [predicate]: variable } },
            );
            assertBadInput(sent, predicate, `$w.${predicate}: ${value}`);
          }
          assertEquals(test.log, [], `${predicate}: no SQL`);
        }
        // an unpaired surrogate cannot be written in a document (a syntax error), only sent in
        // a variable's JSON
        const surrogate = await server.query(
          `query ($s: String) { customers(where: { nameContains: $s }) { totalCount } }`,
          { s: "ab\ud800cd" },
        );
        assertBadInput(surrogate, "nameContains", "an unpaired surrogate");
        const orders = await server.query(
          `{ orders(where: { placedAtGT: "0000-01-01T00:00:00Z" }) { totalCount } }`,
        );
        assertBadInput(orders, "placedAtGT", "placedAt year 0");
      });

      await t.step("where filters: valid values of the same columns filter", async () => {
        const valid = `{ customers(where: { pointsGT: "-9223372036854775808", balanceGTE: "0.005",
          birthdayGT: "0001-01-01", wakeUpAtLT: "23:59:59.999999", ratingLT: 1e300,
          or: [{ birthdayIsNil: true }, { birthdayNotNil: true }] }) { totalCount } }`;
        const response = await server.query(valid);
        assertEquals(response.errors, undefined, JSON.stringify(response.errors));
      });

      await t.step("mutations: BAD_USER_INPUT naming input.<field>, nothing written", async () => {
        const count = async () =>
          Number(
            (await test.orm.em.fork().getConnection().execute(
              "select count(*) as n from customer",
            ))[0]
              .n,
          );
        const before = await count();
        for (const [field, value] of BAD_INPUT) {
          const response = await server.query(
            `mutation { createCustomer(input: { name: "n", email: "bad@example.com", ${field}: ${value} }) { id } }`,
          );
          assertRefusedLiteral(response, `input.${field}`, `${field}: ${value}`);
          const variable = jsonValue(value);
          if (variable === undefined) continue;
          const sent = await server.query(
            `mutation ($input: CreateCustomerInput!) { createCustomer(input: $input) { id } }`,
            { input: { name: "n", email: "bad@example.com", [field]: variable } },
          );
          assertBadInput(sent, `input.${field}`, `$input.${field}: ${value}`);
        }
        const surrogate = await server.query(
          `mutation ($s: String) { createCustomer(input: { name: "n", email: "e@example.com", bio: $s }) { id } }`,
          { s: "ab\ud800cd" },
        );
        assertBadInput(surrogate, "bio", "an unpaired surrogate");
        // time(0) on PostgreSQL, time on MariaDB: no fraction digits (SQLite stores the text)
        const fraction = await server.query(
          `mutation { createCustomer(input: { name: "n", email: "e@example.com", wakeUpAt: "06:30:00.999999" }) { wakeUpAt } }`,
        );
        if (dialect === "sqlite") assertEquals(fraction.errors, undefined);
        else assertBadInput(fraction, "input.wakeUpAt", "more fraction digits than the column");
        assertEquals(await count(), before + (dialect === "sqlite" ? 1 : 0));
      });

      await t.step("mutations: what is acknowledged is what is stored", async () => {
        type Customer = {
          id: string;
          points: string;
          balance: string;
          birthday: string;
          wakeUpAt: string;
          rating: number;
        };
        const fields = "id points balance birthday wakeUpAt rating";
        // 2^63 - 1: above 2^53, read back exactly on SQLite too (server/sqlite_dialect.ts)
        const points = "9223372036854775807";
        const created = await server.query<{ createCustomer: Customer }>(
          `mutation { createCustomer(input: { name: "exact", email: "exact@example.com",
            points: "${points}", balance: "12345678.90", birthday: "0999-12-31",
            wakeUpAt: "06:30:00", rating: 1.5e300 }) { ${fields} } }`,
        );
        if (dialect === "mariadb") {
          // year 999 is before MariaDB's DATE range
          assertBadInput(created, "input.birthday", "year 999 on MariaDB");
          return;
        }
        assertEquals(created.errors, undefined, JSON.stringify(created.errors));
        const acknowledged = created.data!.createCustomer;
        const read = await server.query<{ node: Customer }>(
          `query ($id: ID!) { node(id: $id) { ... on Customer { ${fields} } } }`,
          { id: acknowledged.id },
        );
        assertEquals(read.errors, undefined, JSON.stringify(read.errors));
        if (dialect === "sqlite") {
          // SQLite keeps a numeric(10,2) as a REAL: the same number, its text without the
          // trailing zero
          assertEquals(Number(read.data!.node.balance), Number(acknowledged.balance));
          read.data!.node.balance = acknowledged.balance;
        }
        assertEquals(read.data!.node, acknowledged);
        assertEquals(acknowledged.points, points);
        const filtered = await server.query<{ customers: { edges: { node: Customer }[] } }>(
          `{ customers(where: { points: "${points}" }) { edges { node { ${fields} } } } }`,
        );
        assertEquals(filtered.errors, undefined, JSON.stringify(filtered.errors));
        assertEquals(filtered.data!.customers.edges.map((e) => e.node.points), [points]);
        assertEquals(acknowledged.birthday, "0999-12-31");
        assertEquals(Number(acknowledged.balance), 12345678.9);
      });
    } finally {
      await server.close();
      await test.close();
    }
  });
}
