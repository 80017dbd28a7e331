/// <reference lib="dom" />
/**
 * The DocSearch 4.7.1 API a migrating site uses: the instance `searchBox()` returns (`open`,
 * `close`, `isOpen`, `isReady`, `destroy`), the `onReady`/`onOpen`/`onClose` callbacks and
 * `theme: "light" | "dark"` (the page's `html[data-theme]` while mounted, restored on destroy). In
 * a real Chromium against the docs site and its local search API.
 */
import { assert, assertEquals } from "@std/assert";
import type { Page } from "playwright-core";
import { closePage, isOpen, keywordTest, waitOpen } from "./search_page.ts";
import { nextFrames } from "../../support/browser.ts";

/** The page's `html[data-theme]`, `null` when it has none. */
const pageTheme = (page: Page) =>
  page.evaluate(() => document.documentElement.getAttribute("data-theme"));

const modalBackground = (page: Page) =>
  page.evaluate(() =>
    getComputedStyle(document.querySelector(".DocSearch-Modal")!).backgroundColor
  );

/** What the instance says, read in the page. */
const state = (page: Page) =>
  page.evaluate("({ isReady: __box.isReady, isOpen: __box.isOpen })") as Promise<
    { isReady: boolean; isOpen: boolean }
  >;

await keywordTest("search box: the DocSearch 4.7.1 instance API", async (t, { mount }) => {
  await t.step("open(), close(), isOpen, isReady, destroy()", async () => {
    const page = await mount();
    assertEquals(await state(page), { isReady: true, isOpen: false });
    await page.evaluate("__box.open()");
    await waitOpen(page);
    assertEquals(await state(page), { isReady: true, isOpen: true });
    await page.evaluate("__box.close()");
    await waitOpen(page, false);
    assertEquals(await state(page), { isReady: true, isOpen: false });
    // isOpen follows the user too
    await page.keyboard.press("Control+k");
    await waitOpen(page);
    assertEquals(await state(page), { isReady: true, isOpen: true });
    await page.evaluate("__box.destroy()");
    await waitOpen(page, false);
    assertEquals(await page.locator(".DocSearch-Button").count(), 0, "the button is removed");
    assertEquals(await state(page), { isReady: false, isOpen: false });
    assert(!await page.evaluate(() => document.body.classList.contains("DocSearch--active")));
    // after destroy: neither the shortcuts nor open() do anything
    await page.keyboard.press("Control+k");
    await page.evaluate("__box.open()");
    await nextFrames(page);
    assert(!await isOpen(page));
    await closePage(page);
  });

  await t.step("onReady once, after searchBox() returned; onOpen and onClose", async () => {
    const page = await mount(
      `onReady() { (window.__events ??= []).push("ready:" + window.__box?.isReady) },
       onOpen() { (window.__events ??= []).push("open") },
       onClose() { (window.__events ??= []).push("close") },`,
    );
    const events = () => page.evaluate("window.__events ?? []") as Promise<string[]>;
    await page.waitForFunction("window.__events?.length === 1");
    assertEquals(await events(), ["ready:true"], "the instance exists when onReady runs");
    await page.click(".DocSearch-Button");
    await page.waitForFunction("window.__events.length === 2");
    // `/` while open changes nothing: no second onOpen
    await page.keyboard.press("/");
    await page.keyboard.press("Escape");
    await page.waitForFunction("window.__events.length === 3");
    await page.evaluate("__box.open()");
    await page.waitForFunction("window.__events.length === 4");
    await page.evaluate("__box.close()");
    await page.waitForFunction("window.__events.length === 5");
    await nextFrames(page);
    assertEquals(await events(), ["ready:true", "open", "close", "open", "close"]);
    await closePage(page);
  });

  await t.step(
    'theme "dark": html[data-theme=dark] while mounted, the page\'s own value back on destroy',
    async () => {
      const page = await mount(`theme: "dark"`);
      assertEquals(await pageTheme(page), "dark");
      await page.click(".DocSearch-Button");
      await waitOpen(page);
      assertEquals(await modalBackground(page), "rgb(21, 23, 42)");
      await page.evaluate("__box.destroy()");
      assertEquals(await pageTheme(page), null, "the page had none");

      await page.evaluate(`document.documentElement.dataset.theme = "light";
        window.__box = searchBox({ ...docsSearchOptions, askAi: undefined, theme: "dark" })`);
      assertEquals(await pageTheme(page), "dark");
      await page.evaluate("__box.destroy()");
      assertEquals(await pageTheme(page), "light", "the page's light is restored");
      await closePage(page);
    },
  );

  await t.step('theme "light" on a dark page; left out, the page\'s theme rules', async () => {
    const page = await mount(`theme: "light"`);
    await page.evaluate("__box.destroy()");
    await page.evaluate(`document.documentElement.dataset.theme = "dark";
      window.__box = searchBox({ ...docsSearchOptions, askAi: undefined, theme: "light" })`);
    assertEquals(await pageTheme(page), "light");
    await page.click(".DocSearch-Button");
    await waitOpen(page);
    assertEquals(await modalBackground(page), "rgb(245, 246, 247)");
    await page.evaluate("__box.destroy()");
    assertEquals(await pageTheme(page), "dark");
    await page.evaluate(`window.__box = searchBox({ ...docsSearchOptions, askAi: undefined })`);
    assertEquals(await pageTheme(page), "dark", "no theme: data-theme untouched");
    await page.click(".DocSearch-Button");
    await waitOpen(page);
    assertEquals(await modalBackground(page), "rgb(21, 23, 42)");
    await closePage(page);
  });
});
