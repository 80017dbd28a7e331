/// <reference lib="dom" />
/**
 * Opening and closing the modal: click, Ctrl/Cmd+K, `/` (not while typing in a field), Escape,
 * the backdrop, the shortcuts turned off, the scroll lock and the focus trap. In a real Chromium
 * against the docs site and its local search API.
 */
import { assert, assertEquals } from "@std/assert";
import {
  assertStaysClosed,
  closePage,
  INPUT,
  keywordTest,
  search,
  waitOpen,
} from "./search_page.ts";

await keywordTest("search box: opening and closing", async (t, { mount }) => {
  await t.step("click opens; Escape closes, returns focus, unlocks the body", async () => {
    const page = await mount();
    await page.click(".DocSearch-Button");
    await page.waitForSelector(".DocSearch-Modal");
    assert(await page.evaluate(() => document.body.classList.contains("DocSearch--active")));
    assert(
      await page.evaluate(() => document.activeElement?.classList.contains("DocSearch-Input")),
    );
    await page.keyboard.press("Escape");
    await waitOpen(page, false);
    assert(!await page.evaluate(() => document.body.classList.contains("DocSearch--active")));
    assert(
      await page.evaluate(() => document.activeElement?.classList.contains("DocSearch-Button")),
    );
    await closePage(page);
  });

  await t.step("Ctrl+K toggles, Meta+K opens, / opens but never closes", async () => {
    const page = await mount();
    await page.keyboard.press("Control+k");
    await waitOpen(page);
    await page.keyboard.press("Control+k");
    await waitOpen(page, false);
    await page.keyboard.press("Meta+k");
    await waitOpen(page);
    await page.keyboard.press("Escape");
    await page.keyboard.press("/");
    await waitOpen(page);
    await page.keyboard.press("/");
    await waitOpen(page);
    assertEquals(await page.inputValue(INPUT), "/");
    await closePage(page);
  });

  await t.step("/ typed in a page input does not open; Ctrl+K there does", async () => {
    const page = await mount();
    await page.evaluate(() => {
      const input = document.createElement("input");
      input.id = "page-input";
      input.setAttribute("aria-label", "page input");
      document.querySelector("main")!.append(input);
      const editable = document.createElement("div");
      editable.id = "page-editable";
      editable.contentEditable = "true";
      document.querySelector("main")!.append(editable);
    });
    await page.click("#page-input");
    await page.keyboard.type("a/b");
    assertEquals(await page.inputValue("#page-input"), "a/b");
    await assertStaysClosed(page);
    await page.click("#page-editable");
    await page.keyboard.type("/");
    await assertStaysClosed(page);
    await page.click("#page-input");
    await page.keyboard.press("Control+k");
    await waitOpen(page);
    await closePage(page);
  });

  await t.step("a click on the backdrop closes; a click in the modal does not", async () => {
    const page = await mount();
    await page.click(".DocSearch-Button");
    await page.click(".DocSearch-Footer");
    await waitOpen(page);
    await page.mouse.click(5, 5);
    await waitOpen(page, false);
    await closePage(page);
  });

  await t.step("keyboardShortcuts off: no Ctrl+K, no /, no hint; Escape still closes", async () => {
    const page = await mount(`keyboardShortcuts: { "Ctrl/Cmd+K": false, "/": false }`);
    assertEquals(await page.locator(".DocSearch-Button-Key").count(), 0);
    assertEquals(await page.getAttribute(".DocSearch-Button", "aria-keyshortcuts"), null);
    assertEquals(await page.getAttribute(".DocSearch-Button", "aria-label"), "Search");
    await page.keyboard.press("Control+k");
    await page.keyboard.press("/");
    await assertStaysClosed(page);
    await page.click(".DocSearch-Button");
    await page.keyboard.press("Escape");
    await waitOpen(page, false);
    await closePage(page);
  });

  await t.step("scroll locked without layout shift, restored on close", async () => {
    const page = await mount();
    await page.evaluate(() => {
      document.querySelector("main")!.insertAdjacentHTML(
        "beforeend",
        '<div id="tall" style="height:3000px">tall</div>',
      );
    });
    const measure = () =>
      page.evaluate(() => ({
        x: document.querySelector("#tall")!.getBoundingClientRect().right,
        scrollbar: innerWidth - document.documentElement.clientWidth,
        overflow: getComputedStyle(document.body).overflow,
      }));
    const before = await measure();
    assert(before.scrollbar > 0, "the page has a classic scrollbar to compensate");
    await page.click(".DocSearch-Button");
    const open = await measure();
    assertEquals(open.overflow, "hidden");
    assertEquals(open.x, before.x);
    await page.keyboard.press("Escape");
    await page.waitForFunction(() => getComputedStyle(document.body).overflow !== "hidden");
    assertEquals(await measure(), before);
    await closePage(page);
  });

  await t.step("focus stays inside the modal on Tab and Shift+Tab", async () => {
    const page = await mount();
    await search(page, "keyboard");
    for (let i = 0; i < 8; i++) {
      await page.keyboard.press(i % 3 === 2 ? "Shift+Tab" : "Tab");
      assert(
        await page.evaluate(() =>
          document.querySelector(".DocSearch-Container")!.contains(document.activeElement)
        ),
      );
    }
    await closePage(page);
  });
});
