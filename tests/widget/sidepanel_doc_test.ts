/**
 * The code blocks of `docs/sidepanel.md` type-check against the source: each
 * `ts` block is written beside the repository's root (so `deno.json`
 * applies) with the published names mapped to the source modules
 * (`@mikrogql/ext/widget` → `widget/mod.ts`, `@mikrogql/searchbox-react` →
 * `widget/react/mod.ts`, `.../sidepanel` → `widget/react/sidepanel.ts`) and checked with `deno check`.
 */
import { assert, assertEquals } from "@std/assert";
import { fromFileUrl, join } from "@std/path";

const ROOT = fromFileUrl(new URL("../..", import.meta.url));

Deno.test("docs/sidepanel.md: every ts block type-checks", async () => {
  const markdown = await Deno.readTextFile(join(ROOT, "docs/sidepanel.md"));
  const blocks = [...markdown.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]);
  assertEquals(blocks.length, 3);
  const files: string[] = [];
  try {
    for (const [i, block] of blocks.entries()) {
      const file = join(ROOT, `.sidepanel_doc_${i}_${Deno.pid}.ts`);
      files.push(file);
      await Deno.writeTextFile(
        file,
        `/// <reference lib="dom" />\n${
          block.replaceAll('"@mikrogql/ext/widget"', '"./widget/mod.ts"')
            .replaceAll('"@mikrogql/searchbox-react"', '"./widget/react/mod.ts"')
            .replaceAll('"@mikrogql/searchbox-react/sidepanel"', '"./widget/react/sidepanel.ts"')
        }`,
      );
    }
    const { success, stderr } = await new Deno.Command(Deno.execPath(), {
      args: ["check", "--quiet", ...files],
      cwd: ROOT,
      stdout: "null",
      stderr: "piped",
    }).output();
    assert(success, new TextDecoder().decode(stderr));
  } finally {
    for (const file of files) await Deno.remove(file).catch(() => {});
  }
});
