/**
 * The public API: `deno doc --lint` over the three entry points reports no
 * missing docstring and no private type of ours in a public signature, the filter of
 * `scripts/doc_lint.ts` lets through only references to npm types, and the internals are no
 * longer exported from `mod.ts`. The functions a user calls have an `@example` (a missing one is
 * reported naming its module and symbol), and every such example type-checks against the blog
 * example's generated API.
 */
import { assert, assertEquals, assertGreater } from "@std/assert";
import { fromFileUrl, join, toFileUrl } from "@std/path";
import {
  codeBlocks,
  type DocJson,
  docJson,
  docLint,
  examplesOf,
  foreignNames,
  missingExamples,
  parseDocLint,
  REQUIRED_EXAMPLES,
} from "../../scripts/doc_lint.ts";
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

/** A `deno doc --json` output of one module `x/mod.ts` exporting `symbols` (name -> tags). */
function madeUpDoc(symbols: Record<string, { kind: string; doc?: string }[]>): DocJson {
  return {
    nodes: {
      "file:///repo/x/mod.ts": {
        symbols: Object.entries(symbols).map(([name, tags]) => ({
          name,
          declarations: [{ jsDoc: { tags } }],
        })),
      },
    },
  };
}

Deno.test("doc lint examples: a required function without an @example code block is reported by name", () => {
  const doc = madeUpDoc({
    withExample: [{ kind: "example", doc: "A server\n```ts\nconst x = 1;\n```\n" }],
    noExample: [{ kind: "return", doc: "a plugin" }],
    proseOnly: [{ kind: "example", doc: "call it first" }],
    emptyBlock: [{ kind: "example", doc: "```ts\n\n```\n" }],
  });
  const problems = missingExamples(doc, {
    "x/mod.ts": ["withExample", "noExample", "proseOnly", "emptyBlock", "notExported"],
  });
  assertEquals(problems.map((p) => [p.rule, p.message]), [
    [
      "missing-example",
      "x/mod.ts: 'noExample' has no @example with a code block; a function a user calls needs an @example",
    ],
    [
      "missing-example",
      "x/mod.ts: 'proseOnly' has no @example with a code block; a function a user calls needs an @example",
    ],
    [
      "missing-example",
      "x/mod.ts: 'emptyBlock' has no @example with a code block; a function a user calls needs an @example",
    ],
    [
      "missing-example",
      "x/mod.ts: 'notExported' is not exported; a function a user calls needs an @example",
    ],
  ]);
  // The list is per module: the same name required of another module is looked up there.
  assertEquals(missingExamples(doc, { "y/mod.ts": ["withExample"] }).length, 1);
  assertEquals(missingExamples(doc, { "x/mod.ts": ["withExample"] }), []);
  assertEquals(codeBlocks("A server\n```ts\nconst x = 1;\n```\nand\n```\ny();\n```\n"), [
    "const x = 1;\n",
    "y();\n",
  ]);
});

Deno.test("doc lint examples: the real entry points have every required @example", async () => {
  const doc = await docJson(Object.keys(REQUIRED_EXAMPLES));
  assertEquals(missingExamples(doc).map((p) => p.message), []);
  for (const name of ["Limits", "Transactioner", "createNode", "gqlError", "annotate"]) {
    assert(REQUIRED_EXAMPLES["mod.ts"].includes(name), `${name} is required`);
  }
  assertEquals([...REQUIRED_EXAMPLES["gen/mod.ts"]], ["generate", "defineConfig"]);
  // Every required name is a function the entry point exports (a typo would make the rule vacuous).
  for (const name of REQUIRED_EXAMPLES["mod.ts"]) {
    assertEquals(typeof (ext as Record<string, unknown>)[name], "function", name);
  }
});

const ROOT = fromFileUrl(new URL("../../", import.meta.url));

Deno.test({
  name:
    "doc lint examples: every required @example type-checks against the blog example's generated API",
  fn: async () => {
    const doc = await docJson(Object.keys(REQUIRED_EXAMPLES));
    const dir = await Deno.makeTempDir({ prefix: "mikrogql_examples_" });
    try {
      // What the examples import besides the package: the user's generated module and entity
      // modules (here the blog's) and their MikroORM config.
      const reexport = (path: string) => `export * from "${toFileUrl(join(ROOT, path))}";\n`;
      await Deno.mkdir(join(dir, "generated"));
      await Deno.mkdir(join(dir, "entities"));
      await Deno.writeTextFile(
        join(dir, "generated/mod.ts"),
        reexport("examples/blog/generated/mod.ts"),
      );
      for (const entity of ["user", "post", "comment", "photo"]) {
        await Deno.writeTextFile(
          join(dir, `entities/${entity}.ts`),
          reexport(`examples/blog/entities/${entity}.ts`),
        );
      }
      await Deno.writeTextFile(
        join(dir, "mikro-orm.config.ts"),
        `import type { Options } from "@mikro-orm/core";\nexport default {} as Options;\n`,
      );
      const files: string[] = [];
      for (const [module, names] of Object.entries(REQUIRED_EXAMPLES)) {
        for (const name of names) {
          const blocks = (examplesOf(doc, module, name) ?? []).flatMap(codeBlocks);
          for (const [i, code] of blocks.entries()) {
            const file = join(dir, `${module.replace(/\W/g, "_")}__${name}_${i}.ts`);
            await Deno.writeTextFile(file, code);
            files.push(file);
          }
        }
      }
      assertGreater(files.length, Object.values(REQUIRED_EXAMPLES).flat().length - 1);
      const { success, stderr } = await new Deno.Command(Deno.execPath(), {
        args: ["check", "--quiet", "--config", join(ROOT, "deno.json"), ...files],
        cwd: dir,
        stdout: "piped",
        stderr: "piped",
      }).output();
      assert(success, new TextDecoder().decode(stderr));
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
