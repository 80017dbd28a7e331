/**
 * What a function on an execution result costs its serialisation. `@envelop/graphql-jit` returns
 * every result with graphql-jit's `stringify` (here `JSON.stringify` itself) as a property, and
 * Yoga serialises that same object; a function-valued property sends V8's `JSON.stringify` down
 * its slow path for the whole answer. The `Jit` plugin hands Yoga the result without it
 * (`runtime/plugins/jit.ts`).
 *
 * ```sh
 * deno task bench:serialisation
 * BENCH_QUERIES=Q1,Q2,Q5 deno task bench:serialisation
 * ```
 *
 * Per query (`BENCH_QUERIES`, default Q1), the result the in-process blog server's envelop
 * pipeline (`bench/bench_server.ts`: the preset, `Jit` first) returns on the peer data set, then
 * µs per `JSON.stringify` call of it as Yoga receives it and of the same object with a
 * `stringify` function added, alternated over 5 rounds of 500 calls (after 200 unmeasured):
 * medians and every round.
 *
 * @module
 */
import { encodeGlobalId } from "../runtime/plan/global_id.ts";
import { createTestDatabase } from "../tests/support/databases.ts";
import { openBenchServer } from "./bench_server.ts";
import { createPeerData, SIZE } from "./peers/data.ts";
import { cursorAfter, OURS, QUERIES } from "./peers/queries.ts";
import { median } from "./median.ts";

const ONLY = (Deno.env.get("BENCH_QUERIES") ?? "Q1").split(",");
const ROUNDS = 5;
const CALLS = 500;

/** µs per `JSON.stringify(value)`, over `CALLS` calls after 200 unmeasured. */
function stringifyMicros(value: unknown): number {
  for (let i = 0; i < 200; i++) JSON.stringify(value);
  const start = performance.now();
  for (let i = 0; i < CALLS; i++) JSON.stringify(value);
  return (performance.now() - start) * 1000 / CALLS;
}

const db = await createTestDatabase("postgresql");
const { orm, yoga } = await openBenchServer(db.url);
try {
  await createPeerData(db.url);
  /** The result of `query` as the envelop pipeline returns it to Yoga's result processing. */
  const execute = async (query: string, variables: Record<string, unknown>) => {
    const request = new Request("http://127.0.0.1/graphql", { method: "POST" });
    const enveloped = yoga.getEnveloped({ request, params: { query, variables } });
    const document = enveloped.parse(query);
    const errors = enveloped.validate(enveloped.schema, document);
    if (errors.length > 0) throw errors[0];
    return await enveloped.execute({
      schema: enveloped.schema,
      document,
      variableValues: variables,
      contextValue: await enveloped.contextFactory(),
    }) as Record<string, unknown>;
  };
  const variables = {
    after: await cursorAfter(1_900, OURS, async (query, variables) => {
      const result = await execute(query, variables);
      if (result.errors) throw new Error(JSON.stringify(result.errors));
      return result.data as Record<string, unknown>;
    }),
    id: encodeGlobalId("Post", SIZE.posts / 2),
  };
  for (const name of ONLY) {
    const query = QUERIES.find((query) => query.name === name);
    if (!query) throw new Error(`BENCH_QUERIES: no query ${name}`);
    const served = await execute(query.text(OURS), variables);
    if (served.errors) throw new Error(JSON.stringify(served.errors));
    const withFunction = { ...served, stringify: JSON.stringify };
    const text = JSON.stringify(served);
    if (JSON.stringify(withFunction) !== text) throw new Error("the two serialise differently");
    const rounds: [number[], number[]] = [[], []];
    for (let round = 0; round < ROUNDS; round++) {
      rounds[0].push(stringifyMicros(served));
      rounds[1].push(stringifyMicros(withFunction));
    }
    const figures = (values: number[]) =>
      `${median(values).toFixed(0)} µs (${values.map((v) => v.toFixed(0)).join(" ")})`;
    console.log(
      `${name}: ${(text.length / 1024).toFixed(0)} KB; JSON.stringify as served ${
        figures(rounds[0])
      }; with a stringify function on it ${figures(rounds[1])}`,
    );
  }
} finally {
  await orm.close();
  await db.drop();
}
