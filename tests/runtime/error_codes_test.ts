/**
 * Error codes: the codes are the ones docs/generated-api.md lists; `gqlError` errors reach the client
 * through GraphQL Yoga unmasked (a plain `Error` is masked); `quoteInput` and `clipMessage` cut
 * user input to 100 characters, on the messages graphql-js itself writes for bad variables,
 * keeping every quoted string valid JSON.
 */
import { assert, assertEquals, assertInstanceOf } from "@std/assert";
import { buildSchema, execute, GraphQLError, parse } from "graphql";
import { createSchema, createYoga } from "graphql-yoga";
import {
  clipMessage,
  ErrorCode,
  gqlError,
  MAX_QUOTED_INPUT,
  quoteInput,
} from "../../runtime/error_codes.ts";

Deno.test("ErrorCode: each code is its own name, and the docs list exactly these", async () => {
  for (const [key, value] of Object.entries(ErrorCode)) assertEquals(key, value);
  const page = await Deno.readTextFile(new URL("../../docs/generated-api.md", import.meta.url));
  const listed = page.match(/Errors carry `extensions\.code`: ([^.]*)\./)?.[1] ?? "";
  assertEquals(
    new Set([...listed.matchAll(/`([A-Z_]+)`/g)].map((m) => m[1])),
    new Set(Object.values(ErrorCode)),
  );
});

Deno.test("gqlError: a GraphQLError with extensions.code, which Yoga sends unmasked", async () => {
  const error = gqlError(ErrorCode.NOT_FOUND, "no post 7");
  assertInstanceOf(error, GraphQLError);
  assertEquals([error.message, error.extensions], ["no post 7", { code: "NOT_FOUND" }]);
  const yoga = createYoga({
    schema: createSchema({
      typeDefs: "type Query { ours: Int, theirs: Int }",
      resolvers: {
        Query: {
          ours: () => {
            throw gqlError(ErrorCode.BAD_USER_INPUT, 'title "" is blank');
          },
          theirs: () => {
            throw new Error("connection string postgres://secret@db");
          },
        },
      },
    }),
    logging: false,
  });
  const response = await yoga.fetch("http://127.0.0.1/graphql", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ query: "{ ours theirs }" }),
  });
  const { errors } = await response.json();
  assertEquals(errors.map((e: GraphQLError) => [e.path, e.message, e.extensions?.code]), [
    [["ours"], 'title "" is blank', "BAD_USER_INPUT"],
    [["theirs"], "Unexpected error.", "INTERNAL_SERVER_ERROR"], // masked by Yoga
  ]);
});

Deno.test("quoteInput: JSON up to 100 characters, cut with the full length beyond", () => {
  assertEquals(MAX_QUOTED_INPUT, 100);
  assertEquals(quoteInput('a "b"'), '"a \\"b\\""');
  assertEquals(quoteInput("x".repeat(100)), JSON.stringify("x".repeat(100)));
  assertEquals(quoteInput("x".repeat(101)), `${JSON.stringify("x".repeat(100))}… (101 characters)`);
});

/** graphql-js's own message for the value `value` of an `Int` variable. */
function badVariableMessage(value: string): string {
  const result = execute({
    schema: buildSchema("type Query { a(n: Int): Int }"),
    document: parse("query($n: Int) { a(n: $n) }"),
    variableValues: { n: value },
  }) as { errors?: readonly GraphQLError[] };
  assertEquals(result.errors?.length, 1);
  return result.errors![0].message;
}

/** The quoted strings of a message (JSON string literals). */
function quoted(message: string): string[] {
  return [...message.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((m) => JSON.parse(`"${m[1]}"`));
}

Deno.test("clipMessage: graphql-js's quoted values cut to 100 characters, still valid JSON", () => {
  const short = badVariableMessage("x".repeat(100));
  assertEquals(clipMessage(short), short);
  for (const value of ["x".repeat(5_000), 'a"b\\c\n'.repeat(400), "é日🚀".repeat(300)]) {
    const message = badVariableMessage(value);
    assert(message.startsWith('Variable "$n" got invalid value "'), message.slice(0, 80));
    const clipped = clipMessage(message);
    const strings = quoted(clipped);
    assertEquals(strings.length, quoted(message).length, "no quote lost or added");
    for (const [i, s] of strings.entries()) {
      const original = quoted(message)[i];
      if (original.length <= 100) {
        assertEquals(s, original);
      } else {
        // the first 100 characters of the JSON text inside the quotes, then "…"
        assert(s.endsWith("…"), s);
        assert(original.startsWith(s.slice(0, -1)), s);
        assert(s.length <= 101, `${s.length}`);
      }
    }
    assert(clipped.length < 400, `${clipped.length}`);
  }
});
