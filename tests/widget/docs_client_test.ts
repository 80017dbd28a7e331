/// <reference lib="dom" />
/**
 * docs/search-box.md's `transformSearchClient` snippet (the search box sending its searches to another
 * server through the bundle's `liteClient` with a `hosts` option), run as written in a page in
 * Chromium, pointed at the docs site's local search API: typing a query shows hits, and the
 * searches reach that server. The same snippet without the host's `accept: "read"` sends no
 * request at all and shows the error screen: the line the docs once lacked.
 */
import { assert, assertEquals } from "@std/assert";
import { fromFileUrl, join } from "@std/path";
import type { Browser } from "playwright-core";
import { launchBrowser } from "../support/browser.ts";
import { startDocsSite } from "../support/docs_site.ts";

const ROOT = fromFileUrl(new URL("../..", import.meta.url));

/** docs/search-box.md's js block that sets `transformSearchClient`. */
async function readmeSnippet(): Promise<string> {
  const page = await Deno.readTextFile(join(ROOT, "docs/search-box.md"));
  const block = [...page.matchAll(/```js\n([\s\S]*?)```/g)].map((m) => m[1])
    .find((code) => code.includes("transformSearchClient"));
  assert(block, "docs/search-box.md has the transformSearchClient snippet");
  return block;
}

Deno.test({
  name: "the docs' liteClient hosts snippet sends its searches and shows results in Chromium",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const snippet = await readmeSnippet();
    assert(snippet.includes("port: 8000"), snippet);
    const site = await startDocsSite();
    const port = new URL(site.url).port;
    let browser: Browser | undefined;
    try {
      browser = await launchBrowser();
      /** Runs `code` (the snippet, adapted) in a page of the site's origin. */
      const run = async (code: string) => {
        const page = await browser!.newPage();
        const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>t</title>
<link rel="stylesheet" href="/dist/style.css"></head><body><div id="search"></div>
<script type="module">
import searchBox, { liteClient } from "/dist/searchbox.js";
${
          code.replace("port: 8000", `port: ${port}`).replace(
            'indices: ["docs"]',
            'indices: ["mikrogql-docs"]',
          )
        }
</script></body></html>`;
        await page.route(
          `${site.url}/readme-client`,
          (route) => route.fulfill({ body: html, contentType: "text/html; charset=utf-8" }),
        );
        const searches: string[] = [];
        page.on("request", (r) => {
          if (r.url().includes("/1/indexes/")) searches.push(r.url());
        });
        await page.goto(`${site.url}/readme-client`);
        await page.click(".DocSearch-Button");
        await page.fill(".DocSearch-Input", "pagination");
        await page.waitForSelector(
          ".DocSearch-Hit mark, .DocSearch-NoResults, .DocSearch-ErrorScreen",
        );
        return { page, searches };
      };
      const { page, searches } = await run(snippet);
      assert(await page.isVisible(".DocSearch-Hit mark"), "hits for the query");
      assert(searches.length > 0 && searches.every((u) => u.startsWith(`${site.url}/1/indexes/`)));
      const broken = await run(snippet.replace(', accept: "read"', ""));
      assert(await broken.page.isVisible(".DocSearch-ErrorScreen"), "error screen without accept");
      assertEquals(broken.searches, []);
    } finally {
      await browser?.close();
      await site.close();
    }
  },
});
