/**
 * The `Csrf` plugin in GraphQL Yoga, in process (a `Request` in, a `Response` out): a POST is
 * served only with a JSON content type; every content type an HTML form or a CORS "simple
 * request" can send without a preflight (the Fetch standard's CORS-safelisted `Content-Type`
 * values: `application/x-www-form-urlencoded`, `multipart/form-data`, `text/plain`) is refused
 * with HTTP 415 and `BAD_REQUEST`, as is a POST without one; GET is left to Yoga, which refuses a
 * mutation over GET itself (405).
 */
import { assertEquals, assertMatch } from "@std/assert";
import { createSchema, createYoga } from "graphql-yoga";
import { Csrf } from "../../../runtime/plugins/csrf.ts";

const yoga = createYoga({
  schema: createSchema({
    typeDefs: "type Query { ok: Boolean! } type Mutation { touch: Boolean! }",
    resolvers: { Query: { ok: () => true }, Mutation: { touch: () => true } },
  }),
  plugins: [Csrf()],
  graphiql: false,
  landingPage: false,
  logging: false,
});

const URL = "http://127.0.0.1/graphql";
const QUERY = JSON.stringify({ query: "{ ok }" });

async function post(contentType: string | undefined) {
  const headers = new Headers({ accept: "application/json" });
  if (contentType !== undefined) headers.set("content-type", contentType);
  // Bytes, not a string: a string body would get `text/plain;charset=UTF-8` from fetch.
  const body = new TextEncoder().encode(QUERY);
  const response = await yoga.fetch(new Request(URL, { method: "POST", headers, body }));
  return { status: response.status, body: await response.json() };
}

Deno.test("Csrf: JSON POSTs are served", async () => {
  for (
    const type of [
      "application/json",
      "application/json; charset=utf-8",
      "application/graphql+json",
    ]
  ) {
    const { status, body } = await post(type);
    assertEquals([status, body], [200, { data: { ok: true } }], type);
  }
});

Deno.test("Csrf: the content types a cross-site form can send without a preflight are refused", async () => {
  // The Fetch standard's CORS-safelisted Content-Type values, with parameters and in any case.
  for (
    const type of [
      "application/x-www-form-urlencoded",
      "multipart/form-data; boundary=x",
      "text/plain",
      "TEXT/PLAIN;charset=UTF-8",
    ]
  ) {
    const { status, body } = await post(type);
    assertEquals(status, 415, type);
    assertEquals(body.errors.length, 1);
    assertEquals(body.errors[0].extensions, { code: "BAD_REQUEST" });
    assertMatch(body.errors[0].message, /^a POST must be application\/json \(got "[^"]+"\)/);
    assertEquals(body.data, undefined, "nothing ran");
  }
  const none = await post(undefined);
  assertEquals(none.status, 415);
  assertEquals(
    none.body.errors[0].message,
    'a POST must be application/json (got "no content type"); form and text bodies are refused against cross-site requests',
  );
  // A long content type is quoted cut to its first 100 characters.
  const long = await post(`text/${"x".repeat(500)}`);
  assertEquals(long.status, 415);
  assertMatch(long.body.errors[0].message, new RegExp(`\\(got "text/x{95}"\\)`));
});

Deno.test("Csrf: GET is Yoga's: a query is served, a mutation refused with 405", async () => {
  const get = (query: string) =>
    yoga.fetch(
      new Request(`${URL}?query=${encodeURIComponent(query)}`, {
        headers: { accept: "application/json" },
      }),
    );
  const query = await get("{ ok }");
  assertEquals([query.status, await query.json()], [200, { data: { ok: true } }]);
  const mutation = await get("mutation { touch }");
  assertEquals(mutation.status, 405);
  await mutation.body?.cancel();
});
