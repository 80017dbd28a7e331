/**
 * The `Jit` plugin against graphql-js (the same Yoga server without it): a document holding
 * several operations answers each request with the operation it names, in any order (seeded
 * random order, printed), as graphql-js does. `@envelop/graphql-jit` alone compiles the first
 * named operation per document and answered later requests with it.
 */
import { assertEquals } from "@std/assert";
import { createYoga } from "graphql-yoga";
import { Jit } from "../../../runtime/plugins/jit.ts";
import { entities } from "../../../examples/blog/entities.ts";
import { createSchema } from "../../../examples/blog/generated/mod.ts";
import { seed } from "../../../examples/blog/seed.ts";
import { openTestOrm } from "../../support/databases.ts";
import { random } from "../../support/random_data.ts";

const DOCUMENT = `
  query Typename { __typename }
  query Count { users(first: 1) { totalCount } }
  query Names($n: Int) { users(first: $n) { edges { node { name } } } }
`;

Deno.test("Jit: a document of several operations answers the operation each request names", async () => {
  const db = await openTestOrm("sqlite", entities);
  await seed(db.orm.em.fork());
  const schema = createSchema();
  const server = (plugins: ReturnType<typeof Jit>[]) =>
    createYoga({ schema, plugins, context: () => ({ em: db.orm.em.fork() }), logging: false });
  const [jit, plain] = [server([Jit()]), server([])];
  const ask = async (yoga: typeof jit, operationName: string) => {
    const response = await yoga.fetch(
      new Request("http://127.0.0.1/graphql", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ query: DOCUMENT, operationName, variables: { n: 2 } }),
      }),
    );
    return await response.json();
  };
  try {
    for (const seed of [1, 2, Date.now() % 100_000]) {
      console.log(`seed ${seed}`);
      const rand = random(seed);
      for (let i = 0; i < 12; i++) {
        const name = ["Typename", "Count", "Names"][Math.floor(rand() * 3)];
        assertEquals(await ask(jit, name), await ask(plain, name), `seed ${seed}: ${name}`);
      }
    }
  } finally {
    await db.close();
  }
});

Deno.test("Jit: the result Yoga serialises holds data only (no serializer function on it)", async () => {
  const db = await openTestOrm("sqlite", entities);
  await seed(db.orm.em.fork());
  // What Yoga's result processor receives: `@envelop/graphql-jit` put `stringify` on it, and a
  // function-valued property sends V8's JSON.stringify down its slow path for the whole answer.
  const seen: Record<string, unknown>[] = [];
  const yoga = createYoga({
    schema: createSchema(),
    plugins: [Jit(), { onResultProcess: ({ result }) => void seen.push(result as never) }],
    context: () => ({ em: db.orm.em.fork() }),
    logging: false,
  });
  try {
    for (
      const query of ["{ users(first: 2) { edges { node { name } } } }", "{ __typename }"]
    ) {
      const response = await yoga.fetch(
        new Request("http://127.0.0.1/graphql", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ query }),
        }),
      );
      const answer = await response.json();
      const result = seen.at(-1)!;
      assertEquals(
        Object.keys(result).filter((key) => typeof result[key] === "function"),
        [],
        query,
      );
      assertEquals(JSON.parse(JSON.stringify(result)), answer, query);
    }
    assertEquals(seen.length, 2);
  } finally {
    await db.close();
  }
});
