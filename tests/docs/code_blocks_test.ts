/**
 * Every TypeScript block of README.md and docs/*.md type-checks as a user would paste it: each
 * block is a module of its own temporary project, whose `generated/mod.ts`, `entities.ts` and
 * `entities/*.ts` re-export an example's (the blog's, or the one a `<!-- check: example=todo -->`
 * comment before the block names); `<!-- check: at=entities/post.ts -->` puts the block at that
 * path instead of the project's root. A block may use `orm`, the project's MikroORM instance
 * (declared when the block does not declare it); nothing else is added. The package resolves to
 * this checkout (`@mikrogql/ext`, `/server`, `/widget`); the few packages only the docs import
 * are pinned here ({@linkcode DOC_IMPORTS}). All blocks go through one `deno check`.
 *
 * Left to other tests: the files of README's "Getting started" (`title="..."` blocks, which
 * `tests/server/getting_started_test.ts` writes, `deno check`s and serves), JavaScript blocks
 * (`tests/widget/docs_client_test.ts` runs the `transformSearchClient` one in Chromium) and the
 * JSX of the unpublished React package.
 */
import { assert, assertEquals, assertStringIncludes } from "@std/assert";
import { fromFileUrl, join, relative, toFileUrl } from "@std/path";
import { type DocBlock, docBlocks, docPages, writeBlockProject } from "../support/doc_blocks.ts";

const ROOT = fromFileUrl(new URL("../../", import.meta.url));

/** Packages the docs import that the package itself does not, pinned. */
const DOC_IMPORTS: Record<string, string> = {
  "@mikrogql/ext/widget": "./widget/mod.ts",
  // the React package (`deno task bundle:react`, not published yet): its declared types
  "@mikrogql/searchbox-react": "./widget/react/searchbox-react.d.ts",
  "@mikrogql/searchbox-react/sidepanel": "./widget/react/sidepanel.d.ts",
  "@mikro-orm/postgresql": "npm:@mikro-orm/postgresql@7.2.1",
  "@opentelemetry/exporter-trace-otlp-http": "npm:@opentelemetry/exporter-trace-otlp-http@0.57.2",
  "@graphql-codegen/cli": "npm:@graphql-codegen/cli@6.1.0",
};

/** The blocks this test checks: TypeScript, not a titled getting-started file. */
function checked(block: DocBlock): boolean {
  return (block.lang === "ts" || block.lang === "tsx") && !block.title;
}

/** `deno check` of `files` with the repository's imports plus {@linkcode DOC_IMPORTS}. */
async function check(dir: string, files: string[]): Promise<{ success: boolean; text: string }> {
  const config = JSON.parse(await Deno.readTextFile(join(ROOT, "deno.json")));
  const imports: Record<string, string> = {};
  for (const [name, target] of Object.entries({ ...config.imports, ...DOC_IMPORTS })) {
    const value = target as string;
    imports[name] = value.startsWith("./") ? toFileUrl(join(ROOT, value)).href : value;
  }
  const configPath = join(dir, "deno.json");
  await Deno.writeTextFile(
    configPath,
    JSON.stringify({ imports, unstable: config.unstable, compilerOptions: config.compilerOptions }),
  );
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["check", "--quiet", "--config", configPath, ...files],
    cwd: dir,
    env: { NO_COLOR: "1" },
  }).output();
  const decoder = new TextDecoder();
  return { success: out.success, text: decoder.decode(out.stdout) + decoder.decode(out.stderr) };
}

Deno.test({
  name: "every TypeScript block of README.md and docs/*.md type-checks",
  sanitizeResources: false,
  fn: async () => {
    const dir = await Deno.makeTempDir({ prefix: "mikrogql_doc_blocks_" });
    try {
      const files: string[] = [];
      const where = new Map<string, string>();
      for (const page of await docPages(ROOT)) {
        for (const block of docBlocks(await Deno.readTextFile(join(ROOT, page)))) {
          if (!checked(block)) continue;
          const name = `${page.replace(/\W/g, "_")}_${block.line}`;
          const file = await writeBlockProject(join(dir, name), block);
          files.push(file);
          where.set(relative(dir, file), `${page}:${block.line}`);
        }
      }
      assert(files.length >= 15, `only ${files.length} TypeScript blocks found`);
      const result = await check(dir, files);
      // name each failing block by its page and line
      const named = result.text.replace(
        /mikrogql_doc_blocks_\w+\/([^:\s]+)/g,
        (_, path) => `${where.get(path) ?? path} (${path})`,
      );
      assert(result.success, named);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test("the block check fails on a block that does not type-check, naming the error", async () => {
  const dir = await Deno.makeTempDir({ prefix: "mikrogql_doc_blocks_" });
  try {
    const block: DocBlock = {
      lang: "ts",
      line: 1,
      options: {},
      text:
        'import { createSchema } from "./generated/mod.ts";\ncreateSchema({ maxPageSize: "1000" });\n',
    };
    const file = await writeBlockProject(join(dir, "bad"), block);
    const result = await check(dir, [file]);
    assertEquals(result.success, false);
    assertStringIncludes(result.text, "TS2322");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
