/**
 * The documentation's link lint (`scripts/doc_links.ts`, run by `deno task check`): the
 * repository's README.md, ARCHITECTURE.md and docs/ have no link to a missing page or heading and
 * no backticked path that does not exist; on a made-up repository it finds each kind of problem
 * at its line and passes what exists (a page, a heading, a folder, a runtime path named from
 * runtime/ in ARCHITECTURE.md, placeholders, other sites, git-ignored paths).
 */
import { assertEquals } from "@std/assert";
import { join } from "@std/path";
import { headingAnchors, linkProblems } from "../../scripts/doc_links.ts";

Deno.test("doc links: the repository's documentation has no dangling link or path", async () => {
  assertEquals(await linkProblems(), []);
});

Deno.test("doc links: GitHub's anchors, numbered when repeated", () => {
  assertEquals(
    [...headingAnchors("# Limits: a bounded cost\n## `serve()` options\n## Notes\n## Notes\n")],
    ["limits-a-bounded-cost", "serve-options", "notes", "notes-1"],
  );
});

Deno.test("doc links: each missing page, heading and path is found at its line", async () => {
  const root = await Deno.makeTempDir({ prefix: "mikrogql_doc_links_" });
  try {
    await Deno.mkdir(join(root, "docs"));
    await Deno.mkdir(join(root, "runtime/read"), { recursive: true });
    await Deno.writeTextFile(join(root, "runtime/read/find_rows.ts"), "");
    await Deno.writeTextFile(join(root, ".gitignore"), "dist/\n");
    await Deno.writeTextFile(
      join(root, "README.md"),
      [
        "# Front",
        "",
        "See [limits](docs/limits.md#maxcost), [gone](docs/gone.md) and [the top](#front).",
        "",
        "- [no heading](docs/limits.md#nothing) in a list item",
        "- `runtime/read/find_rows.ts` exists, `runtime/records.ts` does not",
        "",
        "`examples/<name>/server.ts`, `dist/searchbox.js`, `entities/post.ts`, [site](https://x.y)",
        "",
        "```ts",
        'import "./runtime/missing.ts"; // `runtime/missing.ts` in a code block is code',
        "```",
        "",
        "| file | what |",
        "| ---- | ---- |",
        "| `runtime/read/find_rows.ts` | reads |",
        "| `runtime/read/load_plan.ts` | gone |",
      ].join("\n"),
    );
    await Deno.writeTextFile(join(root, "docs/limits.md"), "# Limits\n\n## maxCost\n");
    await Deno.writeTextFile(
      join(root, "ARCHITECTURE.md"),
      "# Architecture\n\n`read/find_rows.ts` and `read/load_plan.ts`; [README](README.md)\n",
    );
    assertEquals(await linkProblems(root), [
      {
        page: "ARCHITECTURE.md",
        line: 3,
        message: "no such path in the repository: read/load_plan.ts",
      },
      { page: "README.md", line: 3, message: "link to a missing file: docs/gone.md" },
      { page: "README.md", line: 5, message: "link to a missing heading: docs/limits.md#nothing" },
      { page: "README.md", line: 6, message: "no such path in the repository: runtime/records.ts" },
      {
        page: "README.md",
        line: 17,
        message: "no such path in the repository: runtime/read/load_plan.ts",
      },
    ]);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
