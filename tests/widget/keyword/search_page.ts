/// <reference lib="dom" />
/**
 * The keyword search box on a page of the docs site, for the tests of
 * `tests/widget/keyword/`: the test with its site and browser, mounting the
 * search box with extra options, searching, the
 * search requests sent, and what the tests read of the page (texts, the
 * button's key hint, whether the modal is open).
 *
 * @module
 */
import { assert } from "@std/assert";
import type { Browser, Page, Request } from "playwright-core";
import { browserTest, clearPageStorage, nextFrames } from "../../support/browser.ts";
import { startDocsSite } from "../../support/docs_site.ts";
import type { DocSearchRecord } from "../../../examples/docs-site/records.ts";
import type { SearchApiFaults } from "../../../examples/docs-site/search_api.ts";
import type { DocsSite } from "../../../examples/docs-site/server.ts";

/** A record with markup and script in its headings, added to `mikrogql-docs` (query `zanzibar`). */
export const HOSTILE: DocSearchRecord = {
  objectID: "hostile-1",
  url: "/docs/guides/getting-started.html#hostile",
  anchor: "hostile",
  type: "lvl2",
  content: null,
  hierarchy: {
    lvl0: "Guides",
    lvl1: "Hostile <script>window.__pwned = 'script'</script>",
    lvl2: `Zanzibar <img src=x onerror="window.__pwned='img'"> payload`,
    lvl3: null,
    lvl4: null,
    lvl5: null,
    lvl6: null,
  },
};

/** A result row. */
export const HIT = ".DocSearch-Hit";
/** The modal's search input. */
export const INPUT = ".DocSearch-Input";

/** What the steps of a {@link keywordTest} get. */
export interface KeywordTestContext {
  /** The docs site, with {@link HOSTILE} in `mikrogql-docs`, and its bundle's directory. */
  site: DocsSite & { distDir: string };
  browser: Browser;
  /**
   * A fresh page (own storage) of the site with the search box mounted with
   * `extra` options (JS source), Ask AI off; the page has the instance as `window.__box` and its
   * `destroy` as `window.__destroy`.
   */
  mount(extra?: string, path?: string): Promise<Page>;
}

/**
 * Registers the browser test `name` of the keyword search box: starts a docs
 * site (with {@link HOSTILE}, its search API failing as `faults` says) and
 * runs `steps` in Chromium (`browserTest`).
 */
export async function keywordTest(
  name: string,
  steps: (t: Deno.TestContext, context: KeywordTestContext) => Promise<void>,
  faults: SearchApiFaults = {},
): Promise<void> {
  const site = await startDocsSite({ faults, extraRecords: [HOSTILE] });
  browserTest(
    `${name} in Chromium`,
    site,
    (t, browser) => steps(t, { site, browser, mount: mounter(site, browser) }),
  );
}

/**
 * Pages {@link closePage} gave back, to be mounted again: a page of a browser context of its own
 * costs a renderer process (about 0.6 s of CPU on the CI machine, more than most steps), loading
 * it again a fifth of that.
 */
const idlePages: Page[] = [];

/**
 * A page for a step, in a browser context of its own (two pages a step holds at once do not share
 * storage): a page given back, with what its last step left behind (storage, listeners, emulated
 * colour scheme) cleared, or a new one.
 */
async function freshPage(browser: Browser): Promise<Page> {
  const page = idlePages.pop();
  if (!page || page.context().browser() !== browser) {
    return await (await browser.newContext()).newPage();
  }
  page.removeAllListeners();
  await page.emulateMedia({ colorScheme: "light" });
  // the page is still on the docs site, where its last step left it
  await clearPageStorage(page);
  return page;
}

function mounter(site: DocsSite, browser: Browser): KeywordTestContext["mount"] {
  return async (extra = "", path = "/") => {
    const page = await freshPage(browser);
    await page.goto(`${site.url}${path}${path.includes("?") ? "&" : "?"}manual`);
    await page.waitForFunction(() => "searchBox" in globalThis);
    // keyword search only: the Ask AI mode of the docs site is tested in ask_ai_test.ts
    await page.evaluate(
      `window.__box = searchBox({ ...docsSearchOptions, askAi: undefined, ${extra} }); window.__destroy = __box.destroy`,
    );
    return page;
  };
}

/** Opens the modal by clicking the button and types `query`; waits for its hits. */
export async function search(page: Page, query: string, waitFor = HIT): Promise<void> {
  if (!await page.isVisible(".DocSearch-Modal")) await page.click(".DocSearch-Button");
  await page.fill(INPUT, query);
  await page.waitForSelector(waitFor);
}

/** The search API requests the page sends, as parsed bodies. */
export function recordRequests(page: Page): Array<{ requests: Array<Record<string, unknown>> }> {
  const bodies: Array<{ requests: Array<Record<string, unknown>> }> = [];
  page.on("request", (r: Request) => {
    if (r.url().includes("/1/indexes/")) bodies.push(JSON.parse(r.postData() ?? "{}"));
  });
  return bodies;
}

/** The trimmed texts of the elements matching `selector`. */
export const texts = (page: Page, selector: string): Promise<string[]> =>
  page.$$eval(selector, (els) => els.map((e) => (e.textContent ?? "").trim()));

/** The key hint of the button, as drawn from `data-key`. */
export const keyHint = (page: Page): Promise<Array<string | null>> =>
  page.$$eval(".DocSearch-Button-Key", (els) => els.map((e) => e.getAttribute("data-key")));

/** Whether the modal is open. */
export const isOpen = (page: Page): Promise<boolean> => page.isVisible(".DocSearch-Modal");

/** Waits until the modal is open (or closed); fails after 3 s. */
export const waitOpen = (page: Page, open = true): Promise<unknown> =>
  page.waitForSelector(".DocSearch-Modal", { state: open ? "visible" : "detached", timeout: 3000 });

/** Asserts that the modal stays closed (once the page has handled the input and painted). */
export async function assertStaysClosed(page: Page, message?: string): Promise<void> {
  await nextFrames(page);
  assert(!await isOpen(page), message);
}

/** Ends a step's use of `page` (from `mount`): the next step's `mount` loads it again. */
export function closePage(page: Page): Promise<void> {
  idlePages.push(page);
  return Promise.resolve();
}
