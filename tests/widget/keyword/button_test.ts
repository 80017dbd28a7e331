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
    // DocSearch 4.7.1's words (its keyboardShortcuts tests match /\(Control\+k\)/)
    assertEquals(await button.getAttribute("aria-label"), "Search (Control+k)");
    assertEquals(await button.getAttribute("aria-keyshortcuts"), "Control+k");
    assertEquals(await button.locator(".DocSearch-Button-Placeholder").textContent(), "Search");
    assertEquals(await keyHint(page), ["Ctrl", "K"]);
    assertEquals(
      await button.locator(".DocSearch-Button-Key--ctrl").evaluate((e) =>
        getComputedStyle(e, "::before").content
      ),
      '"Ctrl"',
    );
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
      "Meta+k",
    );
    assertEquals(await page.getAttribute(".DocSearch-Button", "aria-label"), "Search (Meta+k)");
    assertEquals(await page.locator(".DocSearch-Button-Key--ctrl").count(), 0);
    await context.close();
  });

  await t.step(
    "button: / off keeps the hint; Ctrl/Cmd+K off keeps the keys container, empty",
    async () => {
      const slashOff = await mount(`keyboardShortcuts: { "/": false }`);
      assertEquals(
        await slashOff.getAttribute(".DocSearch-Button", "aria-label"),
        "Search (Control+k)",
      );
      assertEquals(await keyHint(slashOff), ["Ctrl", "K"]);
      await closePage(slashOff);
      const off = await mount(`keyboardShortcuts: { "Ctrl/Cmd+K": false },
      translations: { button: { buttonAriaLabel: "Search the docs" } }`);
      assertEquals(await off.getAttribute(".DocSearch-Button", "aria-label"), "Search the docs");
      assertEquals(await off.getAttribute(".DocSearch-Button", "aria-keyshortcuts"), null);
      assertEquals(await off.locator(".DocSearch-Button-Keys").count(), 1);
      assertEquals(await off.locator(".DocSearch-Button-Keys").innerHTML(), "");
      assertEquals(await axeViolations(off), []);
      await closePage(off);
    },
  );
});
