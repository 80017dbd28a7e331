/**
 * The error budget (`maxErrors` of `Limits`, `error_budget.ts`) over HTTP on the blog example:
 * 5 aliases of `nodes(ids: $ids)` with 1,000 ids naming no row answer every slot `null`, the
 * first 100 `NOT_FOUND` errors and one `QUERY_TOO_COMPLEX` error saying how many more were
 * dropped; a smaller `maxErrors` keeps that many; an answer within the budget is untouched.
 */
import { assertEquals } from "@std/assert";
import { encodeGlobalId } from "../../mod.ts";
import { createSchema } from "../../examples/blog/generated/mod.ts";
import { entities } from "../../examples/blog/entities.ts";
import { openTestOrm } from "../support/databases.ts";
import { startServer } from "../support/server.ts";

const ids = Array.from({ length: 1_000 }, (_, i) => encodeGlobalId("Post", 1_000_000 + i));
const aliases = Array.from({ length: 5 }, (_, i) => `n${i}: nodes(ids: $ids) { id }`);
const QUERY = `query ($ids: [ID!]!) { ${aliases.join(" ")} }`;

Deno.test("maxErrors: 5,000 NOT_FOUND answer 100 of them and one saying how many were dropped", async () => {
  const test = await openTestOrm("sqlite", entities);
  const server = startServer(test.orm, createSchema());
  const small = startServer(test.orm, createSchema(), [], { preset: { limits: { maxErrors: 3 } } });
  try {
    const response = await server.query<Record<string, unknown[]>>(QUERY, { ids });
    assertEquals(Object.keys(response.data!).length, 5);
    assertEquals(response.data!.n4.length, 1_000);
    assertEquals(response.data!.n4.every((node) => node === null), true);
    assertEquals(response.errors!.length, 101);
    assertEquals(
      response.errors!.slice(0, 100).every((e) => e.extensions?.code === "NOT_FOUND"),
      true,
    );
    assertEquals(response.errors![100].extensions?.code, "QUERY_TOO_COMPLEX");
    assertEquals(
      response.errors![100].message,
      "4900 more errors were dropped; the limit is maxErrors = 100",
    );
    const three = await small.query(QUERY, { ids: ids.slice(0, 5) });
    assertEquals(three.errors!.map((e) => e.extensions?.code), [
      "NOT_FOUND",
      "NOT_FOUND",
      "NOT_FOUND",
      "QUERY_TOO_COMPLEX",
    ]);
    assertEquals(
      three.errors![3].message,
      "22 more errors were dropped; the limit is maxErrors = 3",
    );
    // within the budget: untouched
    const two = await small.query(`query ($ids: [ID!]!) { nodes(ids: $ids) { id } }`, {
      ids: ids.slice(0, 2),
    });
    assertEquals(two.errors!.map((e) => e.extensions?.code), ["NOT_FOUND", "NOT_FOUND"]);
  } finally {
    await server.close();
    await small.close();
    await test.close();
  }
});
