/**
 * The doc lint's `@example` rule (`scripts/doc_lint.ts`, tested itself in
 * `tests/gen/doc_lint_test.ts`) on the search box: `searchBox`, the
 * `SearchBox` component (listed under `widget/ui/search_box.ts`, which
 * defines it) and `html` of `widget/mod.ts` are required to have one, and
 * have one with a code block.
 */
import { assertEquals } from "@std/assert";
import { docJson, missingExamples, REQUIRED_EXAMPLES } from "../../scripts/doc_lint.ts";

Deno.test("doc lint: searchBox, SearchBox and html of widget/mod.ts have an @example", async () => {
  const required = {
    "widget/mod.ts": REQUIRED_EXAMPLES["widget/mod.ts"],
    "widget/ui/search_box.ts": REQUIRED_EXAMPLES["widget/ui/search_box.ts"],
  };
  assertEquals(required, {
    "widget/mod.ts": ["searchBox", "html"],
    "widget/ui/search_box.ts": ["SearchBox"],
  });
  assertEquals(missingExamples(await docJson(Object.keys(required)), required), []);
});
