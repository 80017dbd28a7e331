/**
 * DocSearch v4 (`@docsearch/js` and `@docsearch/css` 4.7.1, dev-only
 * dependencies pinned in `deno.json`) for the tests that hold the search box
 * against it: the visual test, the migration test and the stylesheet test.
 *
 * @module
 */
import { fromFileUrl, join } from "@std/path";
import { cachedBuild } from "./build_cache.ts";
import { bundlePage, runDeno } from "./docs_site.ts";

const ROOT = fromFileUrl(new URL("../..", import.meta.url));

/**
 * Bundles into a directory kept while its sources are unchanged (`build_cache.ts`): `docsearch.js` (a classic script
 * that sets `window.docsearch`, from `tests/widget/fixtures/docsearch_v4.ts`),
 * `docsearch.mjs` (an ES module whose default export is `docsearch`, from
 * `docsearch_v4_module.ts`), `style.css` (`@docsearch/css`'s
 * `dist/style.css`), and DocSearch's Sidepanel: `sidepanel.mjs`
 * (`@docsearch/sidepanel-js` 4.7.0, from `fixtures/docsearch_sidepanel.ts`)
 * with `sidepanel.css` (`@docsearch/css`'s). Returns the directory.
 */
export function buildDocSearch(): Promise<string> {
  return cachedBuild("docsearch-v4", ["tests/widget/fixtures", "deno.json"], buildInto);
}

/** Writes {@link buildDocSearch}'s files into `dir`. */
async function buildInto(dir: string): Promise<void> {
  const imports = JSON.parse(await Deno.readTextFile(join(ROOT, "deno.json"))).imports;
  await bundlePage("tests/widget/fixtures/docsearch_v4.ts", join(dir, "docsearch.js"));
  await bundlePage("tests/widget/fixtures/docsearch_v4_module.ts", join(dir, "docsearch.mjs"));
  await bundlePage("tests/widget/fixtures/docsearch_sidepanel.ts", join(dir, "sidepanel.mjs"));
  await runDeno([
    "bundle",
    "--quiet",
    "--outdir",
    dir,
    `${imports["@docsearch/css"]}/dist/style.css`,
    `${imports["@docsearch/css"]}/dist/sidepanel.css`,
  ]);
}
