/**
 * The bounded document cache: half the budget (in UTF-16 code units of source text) for parsed
 * documents, half for parse errors, least recently used evicted first, a document longer than
 * its half never cached; and GraphQL Yoga does keep its parsed documents and parse errors there.
 */
import { assert, assertEquals } from "@std/assert";
import { parse } from "graphql";
import { createSchema, createYoga } from "graphql-yoga";
import { documentCache } from "../../../runtime/gates/document_cache.ts";

/** A document of exactly `length` characters. */
function source(name: string, length: number): string {
  const text = `{ ${name} }`;
  return text + " ".repeat(length - text.length);
}

Deno.test("documentCache: bounded by the summed length of the cached texts, LRU first out", () => {
  const cache = documentCache({ maxSourceLength: 100 }).documentCache; // 50 for documents
  const [a, b, c] = ["a", "b", "c"].map((n) => source(n, 20));
  cache.set(a, parse(a));
  cache.set(b, parse(b));
  assertEquals([cache.has(a), cache.has(b), cache.calculatedSize], [true, true, 40]);
  cache.get(a); // a is now the most recently used
  cache.set(c, parse(c)); // 60 > 50: the least recently used (b) goes
  assertEquals([cache.has(a), cache.has(b), cache.has(c)], [true, false, true]);
  assertEquals(cache.calculatedSize, 40);
  const long = source("long", 51);
  cache.set(long, parse(long)); // longer than the whole half: not cached, nothing evicted
  assertEquals([cache.has(long), cache.has(a), cache.has(c)], [false, true, true]);
  // The default budget: 2,000,000 characters, 1,000,000 per cache.
  const defaults = documentCache();
  assertEquals(defaults.documentCache.maxSize, 1_000_000);
  assertEquals(defaults.errorCache.maxSize, 1_000_000);
  assertEquals(defaults.validationCache, true);
});

Deno.test("documentCache: Yoga keeps parsed documents and parse errors in it", async () => {
  const cache = documentCache({ maxSourceLength: 10_000 });
  const yoga = createYoga({
    schema: createSchema({ typeDefs: "type Query { ok: Boolean }", resolvers: {} }),
    parserAndValidationCache: cache,
    logging: false,
  });
  const post = async (query: string) => {
    const response = await yoga.fetch("http://127.0.0.1/graphql", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ query }),
    });
    return await response.json();
  };
  assertEquals(await post("{ ok }"), { data: { ok: null } });
  assert(cache.documentCache.has("{ ok }"));
  const broken = "{ ok ";
  assertEquals((await post(broken)).errors.length, 1);
  assert(cache.errorCache.has(broken));
  assert(!cache.documentCache.has(broken));
});
