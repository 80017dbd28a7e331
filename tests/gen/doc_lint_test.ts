/**
 * The public API: `deno doc --lint` over the three entry points reports no
 * missing docstring and no private type of ours in a public signature, the filter of
 * `scripts/doc_lint.ts` lets through only references to npm types, and the internals are no
 * longer exported from `mod.ts`.
 */
import { assert, assertEquals, assertGreater } from "@std/assert";
import { docLint, foreignNames, parseDocLint } from "../../scripts/doc_lint.ts";
import * as ext from "../../mod.ts";

Deno.test("doc lint: the entry points have no problem of ours; npm types are the only ones left", async () => {
  const { all, ours } = await docLint();
  assertEquals(ours.map((p) => p.message), []);
  assertGreater(all.length, 0, "deno doc --lint ran and reported the npm type references");
  for (const problem of all) {
    assertEquals(problem.rule, "private-type-ref", problem.text);
  }
  const referenced = new Set(all.map((p) => p.referenced));
  for (const name of ["EntityManager", "GraphQLSchema", "Plugin", "VNode"]) {
    assert(referenced.has(name), `${name} is referenced by a public signature`);
  }
});

Deno.test("doc lint filter: npm names are foreign, our own types are not", async () => {
  const foreign = await foreignNames();
  for (const name of ["EntityManager", "GraphQLSchema", "Plugin", "VNode", "LRUCache"]) {
    assert(foreign.has(name), `${name} counts as an npm type`);
  }
  for (const name of ["NodeFields", "CollectLimits", "Graph", "LoadedEntity", "Resolver"]) {
    assert(!foreign.has(name), `${name} is ours`);
  }
  const [problem] = parseDocLint(
    "\x1b[1merror[private-type-ref]\x1b[0m: public type 'noder' references private type 'NodeFields'\n" +
      "  --> /x/runtime/node.ts:198:1\n",
  );
  assertEquals(problem.rule, "private-type-ref");
  assertEquals(problem.referenced, "NodeFields");
});

Deno.test("mod.ts exports no internals", () => {
  const exported = new Set(Object.keys(ext));
  for (const name of ["orderSql", "fillOrderValues", "cursorOf", "planPage", "withHooks"]) {
    assert(!exported.has(name), `${name} is internal`);
  }
  for (const name of ["annotate", "createResolvers", "defineGraph", "Transactioner", "noder"]) {
    assert(exported.has(name), `${name} is public`);
  }
});
