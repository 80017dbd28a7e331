/// <reference lib="dom" />
/**
 * The search button: DocSearch's structure, texts, the key hint (Ctrl K, ⌘ K on Apple platforms),
 * its accessible name and shortcuts, axe. In a real Chromium against the docs site and its local
 * search API.
 */
import { assertEquals } from "@std/assert";
import { axeViolations } from "../../support/browser.ts";
import { closePage, keyHint, keywordTest } from "./search_page.ts";

await keywordTest("search box: the button", async (t, { site, browser, mount }) => {
  await t.step("button: DocSearch structure, texts, Ctrl K hint, aria, axe clean", async () => {
    const page = await mount();
    const button = page.locator("#search > button.DocSearch.DocSearch-Button");
    assertEquals(await button.getAttribute("aria-label"), "Search");
    assertEquals(await button.getAttribute("aria-keyshortcuts"), "Control+K /");
    assertEquals(await button.locator(".DocSearch-Button-Placeholder").textContent(), "Search");
    assertEquals(await keyHint(page), ["Ctrl", "K"]);
    assertEquals(await button.locator("svg").count(), 1);
    assertEquals(await axeViolations(page), []);
    await closePage(page);
  });

  await t.step("button: ⌘ K on Apple platforms", async () => {
    const context = await browser.newContext();
    await context.addInitScript(() =>
      Object.defineProperty(Navigator.prototype, "platform", { get: () => "MacIntel" })
    );
    const page = await context.newPage();
    await page.goto(`${site.url}/`);
    await page.waitForSelector(".DocSearch-Button-Key");
    assertEquals(await keyHint(page), ["⌘", "K"]);
    assertEquals(
      await page.getAttribute(".DocSearch-Button", "aria-keyshortcuts"),
      "Meta+K /",
    );
    await context.close();
  });
});
