/**
 * The `ClientErrors` plugin in GraphQL Yoga, in process, each response compared with the same
 * request to Yoga without the plugin (the oracle of what graphql-js and Yoga say by themselves):
 * a variable graphql-js cannot coerce gains `BAD_USER_INPUT` and nothing else changes; quoted
 * input longer than 100 characters is cut in any error's message, its code kept.
 */
import { assert, assertEquals } from "@std/assert";
import { createSchema, createYoga, type Plugin } from "graphql-yoga";
import { ClientErrors } from "../../../runtime/plugins/client_errors.ts";
import { ErrorCode, gqlError } from "../../../runtime/error_codes.ts";
import { underProduction } from "../../support/under_production.ts";

function server(plugins: Plugin[]) {
  const yoga = createYoga({
    schema: createSchema({
      typeDefs: `enum Status { OPEN CLOSED }
        type Query { count(status: Status, n: Int): Int, refuse(text: String): Int }`,
      resolvers: {
        Query: {
          count: () => 1,
          refuse: (_: unknown, { text }: { text: string }) => {
            throw gqlError(ErrorCode.BAD_USER_INPUT, `text ${JSON.stringify(text)} is refused`);
          },
        },
      },
    }),
    plugins,
    logging: false,
  });
  return async (query: string, variables?: Record<string, unknown>) => {
    const response = await yoga.fetch("http://127.0.0.1/graphql", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ query, variables }),
    });
    return await response.json() as {
      data?: unknown;
      errors?: { message: string; extensions?: { code?: string } }[];
    };
  };
}

const plain = server([]);
const clean = server([ClientErrors()]);

Deno.test("ClientErrors: a variable graphql-js cannot coerce is BAD_USER_INPUT, its message kept", async () => {
  const query = "query($s: Status, $n: Int) { count(status: $s, n: $n) }";
  for (const variables of [{ s: "NOPE" }, { n: "three" }, { n: 2 ** 40 }]) {
    const before = await plain(query, variables);
    const after = await clean(query, variables);
    assertEquals(before.errors?.length, 1);
    assert(before.errors![0].message.startsWith('Variable "$'), before.errors![0].message);
    assertEquals(after.errors?.map((e) => e.message), before.errors?.map((e) => e.message));
    assertEquals(after.errors![0].extensions?.code, "BAD_USER_INPUT");
  }
  // A request without errors is untouched.
  assertEquals(await clean(query, { s: "OPEN", n: 1 }), await plain(query, { s: "OPEN", n: 1 }));
});

Deno.test("ClientErrors: quoted input is cut to 100 characters, the code kept", async () => {
  const long = "x".repeat(5_000);
  const cases: [string, Record<string, unknown>?][] = [
    ["query($n: Int) { count(n: $n) }", { n: long }], // a variable: coercion error
    [`{ count(n: ${JSON.stringify(long)}) }`], // a literal: validation error
    [`{ refuse(text: ${JSON.stringify(long)}) }`], // a resolver's own error
  ];
  for (const [query, variables] of cases) {
    const before = (await plain(query, variables)).errors![0];
    const after = (await clean(query, variables)).errors![0];
    assert(before.message.includes(long), "graphql-js quotes the whole value");
    assert(!after.message.includes("x".repeat(101)), after.message.slice(0, 200));
    assert(after.message.includes(`"${"x".repeat(100)}…"`), after.message.slice(0, 200));
    assert(after.message.length < 400, `${after.message.length}`);
    assertEquals(
      after.extensions?.code,
      before.extensions?.code ?? (query.startsWith("query(") ? "BAD_USER_INPUT" : undefined),
    );
  }
});

/** `ClientErrors()` in the environment's `NODE_ENV` (production, by `underProduction`): no suggestion. */
export async function noSuggestions(): Promise<void> {
  const production = server([ClientErrors()]);
  assertEquals((await production("{ cuont }")).errors?.map((e) => e.message), [
    'Cannot query field "cuont" on type "Query".',
  ]);
}

Deno.test("ClientErrors: no 'Did you mean' under NODE_ENV=production or suggestions: false", async () => {
  const typo = "{ cuont }";
  const told = await plain(typo);
  assert(told.errors![0].message.includes("Did you mean"), told.errors![0].message);
  const quiet = server([ClientErrors({ suggestions: false })]);
  assertEquals((await quiet(typo)).errors?.map((e) => e.message), [
    'Cannot query field "cuont" on type "Query".',
  ]);
  const enumTypo = await quiet(`{ count(status: OPNE) }`);
  assert(!enumTypo.errors![0].message.includes("Did you mean"), enumTypo.errors![0].message);
  await underProduction(import.meta.url, "noSuggestions");
  // Outside production the suggestion stays (the default of a development server).
  assertEquals(
    (await clean(typo)).errors?.map((e) => e.message),
    told.errors?.map((e) => e.message),
  );
});
