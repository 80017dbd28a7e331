/**
 * What the `Limits` plugin costs a request, and what graphql-jit's compile costs an operation,
 * in this process (no database, no HTTP): the figures behind `Limits`' defaults and `Jit`'s
 * `maxCompiledFields`.
 *
 * ```sh
 * deno task bench:limits
 * ```
 *
 * Prints:
 * - per request, µs (best of 15 rounds of 1,000): the plugin's hooks as Yoga calls them for a
 *   document its cache already holds (`onParse`, `onValidate`, `onExecute`: bytes, selection
 *   limits, the operation's shape, the cost and argument walk, the node budget), for the floor
 *   `{ __typename }` and the peer benchmark's Q1 (`users(10) → posts(10) → comments(10)`); and
 *   for a new document, what the token pass adds to graphql-js's `parse`;
 * - graphql-jit's compile time (ms, best of 3) of operations of growing expanded size, and µs
 *   per field;
 * - the time the plugin takes to refuse the attacks (a 5-level fan-out of 10 aliases, a
 *   chain of 1,500 edges), parse included.
 *
 * @module
 */
import { compileQuery } from "graphql-jit";
import { type DocumentNode, parse } from "graphql";

import { createSchema } from "../examples/blog/generated/mod.ts";
import { Limits } from "../runtime/plugins/limits.ts";
import { documentShape } from "../runtime/plugins/document_shape.ts";
import { parseWithTokenLimits } from "../runtime/plugins/token_limits.ts";
import { DEFAULT_LIMITS } from "../runtime/plugins/limits.ts";
import { OURS, QUERIES } from "./peers/queries.ts";

const schema = createSchema();
const ROUNDS = 15;
const REQUESTS = 1_000;

// deno-lint-ignore no-explicit-any
type Hooks = Record<string, (payload: any) => unknown>;

/** The plugin's hooks for one request of `source`, its document already parsed and cached. */
function request(plugin: Hooks, source: string, document: DocumentNode): void {
  let refused = false;
  plugin.onParse({ params: { source }, setParseFn: () => {} });
  plugin.onValidate({
    params: { schema, documentAST: document },
    setResult: () => (refused = true),
  });
  plugin.onExecute({
    args: { schema, document, variableValues: {}, contextValue: {} },
    setResultAndStopExecution: () => (refused = true),
  });
  if (refused) throw new Error(`refused: ${source}`);
}

/** µs per call of `fn`, the best round (the machine's other load only ever adds time). */
function perCall(fn: () => void, calls = REQUESTS): number {
  for (let i = 0; i < calls / 10; i++) fn(); // warm-up
  const rounds: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const started = performance.now();
    for (let i = 0; i < calls; i++) fn();
    rounds.push(((performance.now() - started) * 1000) / calls);
  }
  return Math.min(...rounds);
}

console.log("Limits, per request (µs, best of 15 rounds of 1,000):");
for (const query of QUERIES.filter((q) => q.name === "floor" || q.name === "Q1")) {
  const source = query.text(OURS);
  const document = parse(source);
  const plugin = Limits() as unknown as Hooks;
  const cached = perCall(() => request(plugin, source, document));
  const tokenLimited = parseWithTokenLimits(DEFAULT_LIMITS);
  const parsePlain = perCall(() => parse(source));
  const parseLimited = perCall(() => tokenLimited(source));
  console.log(
    `  ${query.name.padEnd(5)} ${query.label.padEnd(40)} cached document: ${
      cached.toFixed(1)
    } µs; new document: parse ${parsePlain.toFixed(1)} µs, with the token pass ${
      parseLimited.toFixed(1)
    } µs`,
  );
}

/** `fragment F<l>` alternating User and Post, `aliases` edges each spreading the next. */
function fanOut(levels: number, aliases: number): string {
  const fragments: string[] = [];
  for (let level = 1; level <= levels; level++) {
    const next = level < levels ? ` ...F${level + 1}` : "";
    const onUser = level % 2 === 1;
    const selections = Array.from(
      { length: aliases },
      (_, i) =>
        onUser
          ? `a${i}: posts(first: 1) { totalCount edges { node { id${next} } } }`
          : `a${i}: author { id${next} }`,
    ).join(" ");
    fragments.push(`fragment F${level} on ${onUser ? "User" : "Post"} { ${selections} }`);
  }
  return `{ users(first: 1) { edges { node { ...F1 } } } }\n${fragments.join("\n")}`;
}

/** The shortest of `times` compiles of `document`, in ms. */
function bestCompile(document: DocumentNode, times: number): number {
  let best = Infinity;
  for (let i = 0; i < times; i++) {
    const started = performance.now();
    compileQuery(schema, document);
    best = Math.min(best, performance.now() - started);
  }
  return best;
}

console.log("\ngraphql-jit compile (once per document, on the event loop; best of 3):");
compileQuery(schema, parse(QUERIES[1].text(OURS))); // warm-up
for (const n of [1, 5, 10, 20, 40, 80, 160]) {
  const selections = Array.from(
    { length: n },
    (_, i) => `a${i}: posts(first: 1) { totalCount edges { node { id title } } }`,
  ).join(" ");
  const document = parse(`{ users(first: 1) { edges { node { ${selections} } } } }`);
  const fields = documentShape(schema, document).fields;
  const ms = bestCompile(document, 3);
  console.log(
    `  ${String(fields).padStart(5)} fields: ${ms.toFixed(1).padStart(7)} ms (${
      ((ms * 1000) / fields).toFixed(0)
    } µs per field)`,
  );
}
{
  const document = parse(fanOut(3, 10));
  const fields = documentShape(schema, document).fields;
  console.log(`  ${fields} fields (fan-out 3 x 10): ${bestCompile(document, 1).toFixed(0)} ms`);
}

console.log("\nrefusing the issue's attacks (parse included, µs, best round):");
const attacks: [string, string][] = [
  ["fan-out 5 x 10 (maxFields)", fanOut(5, 10)],
  [
    "chain of 1,500 edges (maxNesting)",
    `{ users(first: 1) { edges { node { ${
      "posts(first: 1) { edges { node { author { ".repeat(750)
    }id${" } } } }".repeat(750)} } } } }`,
  ],
];
for (const [name, source] of attacks) {
  const plugin = Limits() as unknown as Hooks;
  let parseFn = parse;
  const us = perCall(() => {
    plugin.onParse({ params: { source }, setParseFn: (fn: typeof parse) => (parseFn = fn) });
    let document: DocumentNode;
    try {
      document = parseFn(source);
    } catch {
      return; // refused while parsing
    }
    let refused = false;
    plugin.onValidate({
      params: { schema, documentAST: document },
      setResult: () => (refused = true),
    });
    if (!refused) throw new Error(`not refused: ${name}`);
  }, 100);
  console.log(`  ${name.padEnd(36)} ${us.toFixed(0)} µs (${(source.length / 1024).toFixed(1)} KB)`);
}
