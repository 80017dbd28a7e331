/// <reference lib="dom" />
/**
 * What the search box downloads and when, in Chromium
 * against the bundle of `deno task bundle`: the button and the shortcuts up
 * front, the modal's chunk on intent or when idle, the Ask AI chunk on the
 * first use of Ask AI only, and keys typed while a chunk loads reach the
 * input. Every step opens its own page.
 */
import { assert, assertEquals } from "@std/assert";
import type { Browser, Page, Request } from "playwright-core";
import { browserTest } from "../support/browser.ts";
import { openSearchPage, startDocsSite } from "../support/docs_site.ts";

const site = await startDocsSite();
let browser: Browser;

const INPUT = ".DocSearch-Input";
const MODAL_CHUNK = /\/dist\/search_modal-[\w-]+\.js$/;
const ASK_AI_CHUNK = /\/dist\/view-[\w-]+\.js$/;

/** The paths of the bundle's files the page requests, in order, from now on. */
function recordScripts(page: Page): string[] {
  const paths: string[] = [];
  page.on("request", (r: Request) => {
    const { pathname } = new URL(r.url());
    if (pathname.startsWith("/dist/") && pathname.endsWith(".js")) paths.push(pathname);
  });
  return paths;
}

/** Holds every request for `pattern` until the returned function is called. */
async function holdRequests(page: Page, pattern: RegExp): Promise<() => void> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => release = resolve);
  await page.route(pattern, async (route) => {
    await released;
    await route.continue();
  });
  return release;
}

browserTest("search box downloads in Chromium", site, async (t, launched) => {
  browser = launched;
  await steps(t);
});

async function steps(t: Deno.TestContext) {
  await t.step(
    "the page loads the entry; the modal's chunk comes when the page is idle",
    async () => {
      const context = await browser.newContext();
      const page = await context.newPage();
      const scripts = recordScripts(page);
      const modalChunk = page.waitForRequest(MODAL_CHUNK);
      await page.goto(`${site.url}/`);
      await page.waitForSelector(".DocSearch-Button");
      await modalChunk; // nobody touched the button: requestIdleCallback
      assertEquals(scripts[0], "/dist/searchbox.js");
      assert(!scripts.some((p) => ASK_AI_CHUNK.test(p)), `no Ask AI chunk: ${scripts}`);
      await context.close();
    },
  );

  await t.step("keys typed while the modal's chunk loads reach the input", async () => {
    const page = await openSearchPage(browser, site);
    const release = await holdRequests(page, MODAL_CHUNK);
    // a fresh page: the idle prefetch is held too, so the chunk has not arrived
    await page.reload();
    await page.waitForFunction(() => "searchBox" in globalThis);
    await page.evaluate(`searchBox({ ...docsSearchOptions, askAi: undefined })`);
    const searched = page.waitForRequest((r) =>
      r.url().includes("/1/indexes/") && (r.postData() ?? "").includes('"query":"pagin"')
    );
    await page.keyboard.press("Control+K");
    await page.waitForSelector(`${INPUT}:focus`);
    assertEquals(await page.locator(".DocSearch-Dropdown").count(), 0, "only the shell shows");
    await page.keyboard.type("pagi");
    await page.keyboard.press("Backspace");
    await page.keyboard.type("in");
    release();
    await page.waitForSelector(".DocSearch-Dropdown");
    await searched;
    await page.waitForSelector(".DocSearch-Hit mark");
    assertEquals(await page.inputValue(INPUT), "pagin");
    assert(await page.evaluate(() => document.activeElement?.matches(".DocSearch-Input")));
    await page.keyboard.type("ation");
    assertEquals(await page.inputValue(INPUT), "pagination");
    await page.keyboard.press("Escape");
    await page.waitForSelector(".DocSearch-Modal", { state: "detached" });
    await page.context().close();
  });

  await t.step("the Ask AI chunk is not requested before Ask AI is used", async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const scripts = recordScripts(page);
    await page.goto(`${site.url}/`); // the docs site's own search box, with Ask AI
    await page.click(".DocSearch-Button");
    await page.fill(INPUT, "theming");
    await page.waitForSelector(".DocSearch-Hit a");
    await page.waitForSelector(".DocSearch-Hit--AskAI");
    await page.fill(INPUT, "");
    await page.waitForSelector(".DocSearch-StartScreen, .DocSearch-AskAiConversations");
    assert(scripts.some((p) => MODAL_CHUNK.test(p)), `the modal's chunk: ${scripts}`);
    assert(!scripts.some((p) => ASK_AI_CHUNK.test(p)), `no Ask AI chunk yet: ${scripts}`);
    await page.fill(INPUT, "theming");
    await page.waitForSelector('.DocSearch-Hit[aria-selected="true"] .DocSearch-Hit--AskAI');
    const askAiChunk = page.waitForRequest(ASK_AI_CHUNK);
    await page.keyboard.press("Enter");
    await askAiChunk;
    await page.waitForSelector(".DocSearch-AskAiScreen");
    await context.close();
  });
}
