/**
 * The bounded document cache: half the budget (in UTF-16 code units of source text) for parsed
 * documents, half for parse errors, least recently used evicted first, a document longer than
 * its half never cached; GraphQL Yoga parses and validates a cached document once, and a document
 * validated against other rules (a plugin adding one) is validated again.
 */
import { assert, assertEquals } from "@std/assert";
import { type DocumentNode, NoSchemaIntrospectionCustomRule, parse } from "graphql";
import { createSchema, createYoga, type Plugin } from "graphql-yoga";
import { createDocumentCaches, DocumentCache } from "../../../runtime/plugins/document_cache.ts";

/** A document of exactly `length` characters. */
function source(name: string, length: number): string {
  const text = `{ ${name} }`;
  return text + " ".repeat(length - text.length);
}

Deno.test("createDocumentCaches: bounded by the summed length of the cached texts, LRU first out", () => {
  const cache = createDocumentCaches({ maxSourceLength: 100 }).documentCache; // 50 for documents
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
  const defaults = createDocumentCaches();
  assertEquals(defaults.documentCache.maxSize, 1_000_000);
  assertEquals(defaults.errorCache.maxSize, 1_000_000);
});

Deno.test("DocumentCache: Yoga parses and validates a document once, per set of rules", async () => {
  const cache = createDocumentCaches({ maxSourceLength: 10_000 });
  const parsed: string[] = [];
  const validated: DocumentNode[] = [];
  let introspectionRule = false;
  // Counts what reaches graphql-js: installed before the cache, as Limits is.
  const counter: Plugin = {
    onParse: ({ setParseFn }) =>
      setParseFn((source) => {
        parsed.push(String(source));
        return parse(source);
      }),
    onValidate: ({ validateFn, setValidationFn, addValidationRule }) => {
      if (introspectionRule) addValidationRule(NoSchemaIntrospectionCustomRule);
      setValidationFn((schema, document, ...rest) => {
        validated.push(document);
        return validateFn(schema, document, ...rest);
      });
    },
  };
  const yoga = createYoga({
    schema: createSchema({ typeDefs: "type Query { ok: Boolean }", resolvers: {} }),
    parserAndValidationCache: false,
    plugins: [counter, DocumentCache(cache)],
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
  for (let i = 0; i < 3; i++) assertEquals(await post("{ ok }"), { data: { ok: null } });
  assertEquals([parsed.length, validated.length], [1, 1]);
  assert(cache.documentCache.has("{ ok }"));
  // Other rules (a new array each request, as addValidationRule makes): validated again, once.
  introspectionRule = true;
  for (let i = 0; i < 3; i++) assertEquals(await post("{ ok }"), { data: { ok: null } });
  assertEquals([parsed.length, validated.length], [1, 2]);
  // The added rule is applied: introspection refused.
  const introspection = await post("{ __schema { types { name } } }");
  assert(/introspection/i.test(introspection.errors[0].message), JSON.stringify(introspection));
  const broken = "{ ok ";
  for (let i = 0; i < 2; i++) assertEquals((await post(broken)).errors.length, 1);
  assert(cache.errorCache.has(broken));
  assert(!cache.documentCache.has(broken));
  // Each text parsed once: the broken one's error comes from the cache the second time.
  assertEquals(parsed, ["{ ok }", "{ __schema { types { name } } }", broken]);
});
