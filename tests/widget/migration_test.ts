/// <reference lib="dom" />
/**
 * A page written for DocSearch 4.7.1 switches to the search box by changing its import: the page
 * (its own CSS custom properties for DocSearch's dark theme, `theme: "dark"`, the lifecycle
 * callbacks, the instance it drives) first runs `@docsearch/js` 4.7.1 with `@docsearch/css`,
 * where a user searches and opens a hit (DocSearch stores the recent search); then the same page
 * imports `searchbox.js` and links our `style.css` instead. Same origin, same storage: the user's
 * recent search is on our start screen, the theme is the same (`html[data-theme]`, the page's
 * custom properties, the computed colours), and the script drives our instance as it drove
 * DocSearch's, with the same callbacks in the same order. In Chromium, both libraries' search
 * requests answered by the docs site's search API.
 */
import { assert, assertEquals } from "@std/assert";
import { join } from "@std/path";
import type { Page } from "playwright-core";
import { browserTest } from "../support/browser.ts";
import { startDocsSite } from "../support/docs_site.ts";
import { buildDocSearch } from "../support/docsearch_v4.ts";

const ORIGIN = "http://migrating.test";
const RECENT_KEY = "__DOCSEARCH_RECENT_SEARCHES__mikrogql-docs";

/** The site's page; `lib` decides only the stylesheet's and the script's URLs. */
function pageHtml(lib: "docsearch" | "ours"): string {
  const [css, js] = lib === "docsearch"
    ? ["/docsearch/style.css", "/docsearch/docsearch.mjs"]
    : ["/ours/style.css", "/ours/searchbox.js"];
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Docs</title>
<link rel="stylesheet" href="${css}">
<style>
html[data-theme="dark"] {
  --docsearch-highlight-color: rgb(200, 30, 90);
  --docsearch-text-color: rgb(220, 210, 200);
  --docsearch-modal-background: rgb(10, 20, 30);
}
</style></head>
<body><header><div id="search"></div></header><main><p>Docs</p></main>
<script type="module">
import docsearch from "${js}";
window.events = [];
window.search = docsearch({
  container: "#search",
  appId: "APP",
  apiKey: "KEY",
  indices: ["mikrogql-docs"],
  theme: "dark",
  translations: { button: { buttonText: "Find" } },
  onReady: () => events.push("ready"),
  onOpen: () => events.push("open:" + search.isOpen),
  onClose: () => events.push("close"),
});
</script></body></html>`;
}

/** What the test reads of the page with the modal open on its start screen. */
function startScreen(page: Page) {
  return page.evaluate(() => {
    const style = (selector: string, property: string) => {
      const e = document.querySelector(selector);
      return e ? getComputedStyle(e).getPropertyValue(property) : null;
    };
    const texts = (selector: string) =>
      [...document.querySelectorAll(selector)].map((e) => e.textContent?.trim());
    return {
      theme: document.documentElement.getAttribute("data-theme"),
      sources: texts(".DocSearch-Hit-source"),
      titles: texts(".DocSearch-Hit-title"),
      modalBackground: style(".DocSearch-Modal", "background-color"),
      activeHit: style('.DocSearch-Hit[aria-selected="true"] a', "background-color"),
      sourceColour: style(".DocSearch-Hit-source", "color"),
      activeIcon: style('.DocSearch-Hit[aria-selected="true"] .DocSearch-Hit-icon', "color"),
      buttonText: texts(".DocSearch-Button-Placeholder"),
    };
  });
}

const site = await startDocsSite();
const docsearchDir = await buildDocSearch();

browserTest("a DocSearch 4.7.1 page switches to the search box by its import", site, async (
  t,
  browser,
) => {
  let lib: "docsearch" | "ours" = "docsearch";
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await context.route(`${ORIGIN}/**`, (route) => {
    const path = new URL(route.request().url()).pathname;
    const [, dir, file] = path.split("/");
    if (dir === "ours") return route.fulfill({ path: join(site.distDir, file) });
    if (dir === "docsearch") return route.fulfill({ path: join(docsearchDir, file) });
    return route.fulfill({ contentType: "text/html", body: pageHtml(lib) });
  });
  // both libraries send their searches to the hosted API: the docs site answers
  await context.route(/\/1\/indexes\/(\*|%2A)\/queries/, async (route) => {
    const response = await fetch(`${site.url}/1/indexes/*/queries`, {
      method: "POST",
      body: route.request().postData(),
    });
    await route.fulfill({
      status: response.status,
      contentType: "application/json",
      headers: { "access-control-allow-origin": "*" },
      body: await response.text(),
    });
  });
  const page = await context.newPage();

  /**
   * Loads `/` with `lib`, drives the instance, and returns what the page shows and logged; with
   * `recent`, once the start screen shows a hit (the recent searches render after the modal).
   */
  const visit = async (recent = false) => {
    await page.goto(`${ORIGIN}/`);
    await page.waitForSelector(".DocSearch-Button");
    await page.waitForFunction("events.includes('ready')");
    const before = await page.evaluate("({ ready: search.isReady, open: search.isOpen })");
    await page.evaluate("search.open()");
    await page.waitForSelector(".DocSearch-Modal");
    await page.waitForFunction("search.isOpen");
    if (recent) await page.waitForSelector(".DocSearch-Hit-title");
    return { before, screen: await startScreen(page) };
  };

  let theirs: Awaited<ReturnType<typeof visit>>;
  await t.step("DocSearch 4.7.1: a user searches and opens a hit", async () => {
    await visit();
    await page.fill(".DocSearch-Input", "search");
    await page.waitForSelector(".DocSearch-Hit a");
    const title = await page.textContent(".DocSearch-Hit-title");
    await Promise.all([page.waitForURL(/\/docs\//), page.click(".DocSearch-Hit a")]);
    const stored = await page.evaluate((key) => localStorage.getItem(key), RECENT_KEY);
    assert(stored, `DocSearch stored the recent search under ${RECENT_KEY}`);
    theirs = await visit(true);
    assertEquals(theirs.screen.titles[0], title, "DocSearch shows its recent search");
  });

  await t.step("the same page importing searchbox.js keeps theme and recent searches", async () => {
    lib = "ours";
    const ours = await visit(true);
    assertEquals(ours.before, { ready: true, open: false });
    assertEquals(ours, theirs);
    assertEquals(ours.screen.theme, "dark");
    assertEquals(
      [ours.screen.modalBackground, ours.screen.sourceColour, ours.screen.activeIcon],
      ["rgb(10, 20, 30)", "rgb(220, 210, 200)", "rgb(200, 30, 90)"],
      "the page's custom properties for the dark theme",
    );
    assertEquals(ours.screen.buttonText, ["Find"]);
    assert(ours.screen.titles.length > 0);
  });

  await t.step("close() and destroy() as DocSearch's", async () => {
    const run = async () => {
      await page.goto(`${ORIGIN}/`);
      await page.waitForFunction("events.includes('ready')");
      await page.evaluate("search.open()");
      await page.waitForFunction("search.isOpen");
      await page.evaluate("search.close()");
      await page.waitForFunction("!search.isOpen");
      await page.waitForFunction("events.length === 3");
      await page.evaluate("search.destroy()");
      return await page.evaluate(() => ({
        // deno-lint-ignore no-explicit-any
        events: (window as any).events,
        // deno-lint-ignore no-explicit-any
        ready: (window as any).search.isReady,
        button: document.querySelectorAll(".DocSearch-Button").length,
        theme: document.documentElement.getAttribute("data-theme"),
      }));
    };
    const ours = await run();
    lib = "docsearch";
    const docsearch = await run();
    assertEquals(ours, docsearch);
    assertEquals(ours.events, ["ready", "open:true", "close"]);
  });

  await context.close();
});
