/**
 * Every TypeScript block of docs/authorization-writes.md type-checks against the workspace
 * example (each block written beside `examples/workspace/policies.ts`, whose imports it uses,
 * and checked with `deno check`), and the page names no file that does not exist.
 */
import { assert, assertEquals } from "@std/assert";
import { fromFileUrl, join } from "@std/path";

const root = fromFileUrl(new URL("../../", import.meta.url));
const page = await Deno.readTextFile(join(root, "docs/authorization-writes.md"));
const blocks = [...page.matchAll(/```ts\n([^]*?)```/g)].map((m) => m[1]);

Deno.test("docs/authorization-writes.md: its TypeScript blocks type-check against the workspace", async () => {
  assertEquals(blocks.length, 3);
  const files: string[] = [];
  try {
    for (const block of blocks) {
      const file = join(root, "examples/workspace", `.doc-${crypto.randomUUID()}.ts`);
      await Deno.writeTextFile(file, block);
      files.push(file);
    }
    const result = await new Deno.Command(Deno.execPath(), {
      args: ["check", ...files],
      cwd: root,
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert(result.success, new TextDecoder().decode(result.stderr));
  } finally {
    for (const file of files) await Deno.remove(file).catch(() => {});
  }
});

Deno.test("docs/authorization-writes.md: every file it names exists", async () => {
  const named = [...page.matchAll(/`((?:examples|tests|runtime)\/[\w/.-]+\.ts)`/g)].map((m) =>
    m[1]
  );
  assertEquals(named.length, 5);
  for (const file of named) await Deno.stat(join(root, file));
  for (const file of ["auth.ts", "server.ts", "rls.ts", "policies.ts"]) {
    await Deno.stat(join(root, "examples/workspace", file));
  }
});
