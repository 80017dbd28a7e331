/// <reference lib="dom" />
/**
 * Moving across the results and opening a hit: the clear button, the arrow keys, Enter, a click,
 * and the navigator's new tab and new window. In a real Chromium against the docs site and its
 * local search API.
 */
import { assert, assertEquals } from "@std/assert";
import { closePage, HIT, INPUT, isOpen, keywordTest, search, waitOpen } from "./search_page.ts";

await keywordTest("search box: navigation", async (t, { site, mount }) => {
  await t.step("the clear button empties the query and shows the start screen", async () => {
    const page = await mount();
    await search(page, "keyboard");
    assert(await page.isVisible(".DocSearch-Clear"));
    assert(await page.isVisible(".DocSearch-Divider"), "Clear | ×");
    assertEquals(await page.textContent(".DocSearch-Clear"), "Clear");
    assertEquals(await page.getAttribute(".DocSearch-Clear", "aria-label"), "Clear the query");
    await page.click(".DocSearch-Clear");
    assertEquals(await page.inputValue(INPUT), "");
    await page.waitForSelector(".DocSearch-StartScreen");
    assert(!await page.isVisible(".DocSearch-Clear"));
    assert(!await page.isVisible(".DocSearch-Divider"));
    assert(
      await page.evaluate(() => document.activeElement?.classList.contains("DocSearch-Input")),
    );
    await closePage(page);
  });

  await t.step("ArrowDown/ArrowUp move across groups and wrap; Enter navigates", async () => {
    const page = await mount();
    await search(page, "search");
    const state = () =>
      page.evaluate(() => {
        const input = document.querySelector(".DocSearch-Input")!;
        const selected = [...document.querySelectorAll(".DocSearch-Hit[role=row]")].map((e) =>
          e.getAttribute("aria-selected") === "true"
        );
        return {
          index: selected.indexOf(true),
          count: selected.filter(Boolean).length,
          total: selected.length,
          descendant: input.getAttribute("aria-activedescendant"),
          activeId: document.querySelector('[aria-selected="true"] [role=gridcell]')!.id,
        };
      });
    let s = await state();
    assertEquals([s.index, s.count], [0, 1]);
    assertEquals(s.descendant, s.activeId);
    await page.keyboard.press("ArrowUp");
    s = await state();
    assertEquals(s.index, s.total - 1);
    assertEquals(s.descendant, s.activeId);
    await page.waitForFunction(
      () => {
        const hit = document.querySelector('[aria-selected="true"] [role=gridcell]')!
          .getBoundingClientRect();
        const box = document.querySelector(".DocSearch-Dropdown")!.getBoundingClientRect();
        return hit.top >= box.top && hit.bottom <= box.bottom;
      },
      undefined,
      { timeout: 2000 },
    ); // the active hit is scrolled into view
    await page.keyboard.press("ArrowDown");
    await page.keyboard.press("ArrowDown");
    await page.keyboard.press("ArrowDown");
    s = await state();
    assertEquals(s.index, 2);
    const href = await page.getAttribute('.DocSearch-Hit[aria-selected="true"] a', "href");
    await Promise.all([page.waitForURL(`${site.url}${href}`), page.keyboard.press("Enter")]);
    await closePage(page);
  });

  await t.step("a click on a hit navigates to it", async () => {
    const page = await mount();
    await search(page, "transactions");
    const href = await page.getAttribute(`${HIT} a`, "href");
    await Promise.all([page.waitForURL(`${site.url}${href}`), page.click(HIT)]);
    assertEquals(new URL(page.url()).pathname, "/docs/guides/graphql-generator.html");
    await closePage(page);
  });

  await t.step(
    "navigator: Enter, Ctrl+Enter (new tab), Shift+Enter (new window); IME Enter ignored",
    async () => {
      const page = await mount(`navigator: {
      navigate: (p) => (window.__nav ??= []).push(["navigate", p.itemUrl, p.state.query]),
      navigateNewTab: (p) => (window.__nav ??= []).push(["tab", p.itemUrl]),
      navigateNewWindow: (p) => (window.__nav ??= []).push(["window", p.itemUrl]),
    }`);
      await search(page, "transactions");
      const url = await page.getAttribute(`${HIT} a`, "href");
      await page.evaluate(() =>
        document.querySelector(".DocSearch-Input")!.dispatchEvent(
          new KeyboardEvent("keydown", { key: "Enter", isComposing: true, bubbles: true }),
        )
      );
      await page.keyboard.press("Control+Enter");
      await page.keyboard.press("Shift+Enter");
      assert(await isOpen(page), "new tab and new window keep the modal open");
      await page.keyboard.press("Enter");
      assertEquals(await page.evaluate("window.__nav"), [
        ["tab", url],
        ["window", url],
        ["navigate", url, "transactions"],
      ]);
      await waitOpen(page, false);
      await closePage(page);
    },
  );
});
