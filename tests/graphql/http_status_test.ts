/**
 * The GraphQL over HTTP specification's status codes on the preset's server (blog example,
 * SQLite): a response without `data` is 4xx under `application/graphql-response+json` (a
 * refusal of `Limits` before execution, a variable graphql-jit cannot coerce, a validation
 * error), 200 under `application/json`; an answer with `data` is 200; a body property the
 * server does not understand is ignored (Yoga alone answers 400 "Unexpected parameter").
 */
import { assertEquals } from "@std/assert";
import { createSchema } from "../../examples/blog/generated/mod.ts";
import { entities } from "../../examples/blog/entities.ts";
import { seed } from "../../examples/blog/seed.ts";
import { openTestOrm } from "../support/databases.ts";
import { startServer } from "../support/server.ts";

const GRAPHQL_RESPONSE = "application/graphql-response+json";

Deno.test("HTTP status: no data is 4xx under application/graphql-response+json", async () => {
  const test = await openTestOrm("sqlite", entities);
  await seed(test.orm.em.fork());
  const server = startServer(test.orm, createSchema());
  const post = async (body: unknown, accept = GRAPHQL_RESPONSE) => {
    const response = await fetch(server.url, {
      method: "POST",
      headers: { "content-type": "application/json", accept },
      body: JSON.stringify(body),
    });
    const json = await response.json() as {
      data?: unknown;
      errors?: { extensions?: Record<string, unknown> }[];
    };
    return {
      status: response.status,
      type: response.headers.get("content-type")?.split(";")[0],
      data: "data" in json,
      code: json.errors?.[0]?.extensions?.code,
      http: json.errors?.some((error) => error.extensions && "http" in error.extensions),
    };
  };
  try {
    // a refusal of Limits.onExecute (the cost, with the variable's page size)
    const costly = {
      query: `query ($n: Int) { users(first: $n) { edges { node { posts(first: $n) {
        edges { node { comments(first: $n) { totalCount } } } } } } } }`,
      variables: { n: 1_000 },
    };
    assertEquals(await post(costly), {
      status: 400,
      type: GRAPHQL_RESPONSE,
      data: false,
      code: "QUERY_TOO_COMPLEX",
      http: false,
    });
    // under application/json, 200 (the specification allows it)
    assertEquals((await post(costly, "application/json")).status, 200);
    // a variable graphql-jit cannot coerce
    const coercion = await post({
      query: `query ($n: Int) { users(first: $n) { totalCount } }`,
      variables: { n: "ten" },
    });
    assertEquals([coercion.status, coercion.data, coercion.code], [400, false, "BAD_USER_INPUT"]);
    // a validation error, as Yoga answers it
    const invalid = await post({ query: `{ nope }` });
    assertEquals([invalid.status, invalid.data], [400, false]);
    // an argument refused before execution (a where value nested too deep)
    let where: Record<string, unknown> = { name: "a" };
    for (let i = 0; i < 1_500; i++) where = { and: [where] };
    const deep = await post({
      query: `query ($w: UserWhereInput) { users(where: $w) { totalCount } }`,
      variables: { w: where },
    });
    assertEquals([deep.status, deep.data, deep.code], [400, false, "QUERY_TOO_DEEP"]);
    // an answer: 200 with data
    const ok = await post({ query: `{ users(first: 1) { totalCount } }` });
    assertEquals([ok.status, ok.data, ok.code], [200, true, undefined]);
    // a property the server does not understand is ignored
    const extra = await post({ query: `{ __typename }`, foo: 1, clientVersion: "3" });
    assertEquals([extra.status, extra.data, extra.code], [200, true, undefined]);
  } finally {
    await server.close();
    await test.close();
  }
});
