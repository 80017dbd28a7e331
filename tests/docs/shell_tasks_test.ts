/**
 * Every `deno task <name>` in a shell block of README.md and docs/ names a task of deno.json, so a
 * command a page shows (a benchmark, a test suite) is one a new user can run. TypeScript blocks are
 * type-checked by `code_blocks_test.ts`; README's getting-started section, whose tasks are the new
 * project's (`gen/init.ts`), is run by `tests/server/` (`support/starter_project.ts`).
 */
import { assert } from "@std/assert";
import { fromFileUrl } from "@std/path";
import { docBlocks, docPages } from "../support/doc_blocks.ts";

const ROOT = fromFileUrl(new URL("../../", import.meta.url));

Deno.test("docs: every `deno task` in a shell block names a task of deno.json", async () => {
  const config = JSON.parse(await Deno.readTextFile(`${ROOT}deno.json`));
  const tasks = new Set(Object.keys(config.tasks));
  const missing: string[] = [];
  let checked = 0;
  for (const page of await docPages(ROOT)) {
    const text = await Deno.readTextFile(`${ROOT}${page}`);
    const blocks = docBlocks(
      text.replace(/<!-- getting-started -->[^]*<!-- \/getting-started -->/, ""),
    );
    for (const block of blocks.filter((b) => b.lang === "sh" || b.lang === "bash")) {
      for (const [, name] of block.text.matchAll(/\bdeno task ([\w:.-]+)/g)) {
        checked++;
        if (!tasks.has(name)) missing.push(`${page}: deno task ${name}`);
      }
    }
  }
  assert(checked > 10, `only ${checked} task commands found`);
  assert(missing.length === 0, `tasks not in deno.json:\n${missing.join("\n")}`);
});
