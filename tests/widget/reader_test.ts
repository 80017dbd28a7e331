/// <reference lib="dom" />
/**
 * What a reader of the page meets around the search box, in Chromium with classic (15 px) scrollbars: the scroll position
 * is kept on close, opening shifts nothing, a light site stays light under a
 * dark OS preference, the input's attributes, the mobile layout, and axe on
 * every keyword screen. Every step opens its own page.
 */
import { assert, assertEquals, assertThrows } from "@std/assert";
import type { Browser, Page } from "playwright-core";
import { axeViolations, browserTest } from "../support/browser.ts";
import { openSearchPage, type SearchPageOptions, startDocsSite } from "../support/docs_site.ts";
import { resolveOptions } from "../../widget/options.ts";

const site = await startDocsSite();
let browser: Browser;

const HIT = ".DocSearch-Hit";
const INPUT = ".DocSearch-Input";
const open = (options?: SearchPageOptions) => openSearchPage(browser, site, options);
const closePage = (page: Page) => page.context().close();

/** Makes the page tall enough to scroll, with a centred and a right-aligned element to watch. */
async function addTallContent(page: Page): Promise<void> {
  await page.evaluate(() => {
    document.querySelector("main")!.insertAdjacentHTML(
      "beforeend",
      '<div id="centred" style="width:200px;margin:0 auto">centred</div>' +
        '<div id="right" style="text-align:right">right</div>' +
        '<div style="height:4000px">tall</div>',
    );
  });
}

const pageY = (page: Page) => page.evaluate(() => globalThis.scrollY);
const waitClosed = (page: Page) => page.waitForSelector(".DocSearch-Modal", { state: "detached" });
const buttonFocused = (page: Page) =>
  page.evaluate(() => document.activeElement?.classList.contains("DocSearch-Button") ?? false);

browserTest("search box and the page around it in Chromium", site, async (t, launched) => {
  browser = launched;
  await steps(t);
});

async function steps(t: Deno.TestContext) {
  await t.step("closing keeps the reader's place; focus returns to the button", async () => {
    const page = await open();
    await addTallContent(page);
    const ways: Array<[string, (page: Page) => Promise<void>, (page: Page) => Promise<void>]> = [
      ["Ctrl+K, Escape", (p) => p.keyboard.press("Control+K"), (p) => p.keyboard.press("Escape")],
      ["/, Ctrl+K", (p) => p.keyboard.press("/"), (p) => p.keyboard.press("Control+K")],
      [
        "click, backdrop",
        (p) => p.click(".DocSearch-Button"),
        (p) => p.mouse.click(5, 790),
      ],
    ];
    for (const [name, openIt, closeIt] of ways) {
      // with the button (partly) scrolled out of view, a plain focus() scrolls back to it
      await page.evaluate((y) => scrollTo(0, y), name.startsWith("click") ? 20 : 600);
      await openIt(page);
      await page.waitForSelector(INPUT);
      // (Playwright's click first scrolls the button fully into view)
      const before = await pageY(page);
      assert(before > 0);
      await closeIt(page);
      await waitClosed(page);
      assertEquals(await pageY(page), before, name);
      assert(await buttonFocused(page), `${name}: focus is back on the button`);
    }
    await closePage(page);
  });

  await t.step("navigating hits scrolls the list, never the page", async () => {
    const page = await open({ extra: "maxResultsPerGroup: 20" });
    await addTallContent(page);
    await page.evaluate(() => scrollTo(0, 600));
    await page.keyboard.press("Control+K");
    await page.fill(INPUT, "search");
    await page.waitForSelector(HIT);
    const rows = await page.locator(HIT).count();
    assert(rows > 8, `enough hits to scroll the list (got ${rows})`);
    for (let i = 0; i < rows - 1; i++) await page.keyboard.press("ArrowDown");
    const visible = await page.evaluate(() => {
      const list = document.querySelector(".DocSearch-Dropdown")!.getBoundingClientRect();
      const row = document.querySelector('[aria-selected="true"] [role=gridcell]')!
        .getBoundingClientRect();
      return {
        list: [list.top, list.bottom],
        row: [row.top, row.bottom],
        inside: row.top >= list.top - 1 && row.bottom <= list.bottom + 1,
        scrolled: document.querySelector(".DocSearch-Dropdown")!.scrollTop,
      };
    });
    assert(visible.inside, `the active row is inside the list: ${JSON.stringify(visible)}`);
    assert(visible.scrolled > 0, "the list scrolled");
    assertEquals(await pageY(page), 600, "the page did not scroll");
    await page.keyboard.press("ArrowUp");
    for (let i = 0; i < rows - 2; i++) await page.keyboard.press("ArrowUp");
    assertEquals(
      await page.evaluate(() => document.querySelector(".DocSearch-Dropdown")!.scrollTop),
      0,
      "back on the first row, the list is at its top (under the sticky group title)",
    );
    await page.keyboard.press("Escape");
    await waitClosed(page);
    assertEquals(await pageY(page), 600);
    assert(await buttonFocused(page));
    await closePage(page);
  });

  await t.step("opening shifts nothing on a page with a classic scrollbar", async () => {
    const page = await open();
    await addTallContent(page);
    const measure = () =>
      page.evaluate(() => {
        const at = (selector: string) => {
          const r = document.querySelector(selector)!.getBoundingClientRect();
          return [r.left, r.top, r.width];
        };
        return {
          scrollbar: innerWidth - document.documentElement.clientWidth,
          button: at(".DocSearch-Button"),
          centred: at("#centred"),
          right: at("#right"),
          header: at("header"),
        };
      });
    const before = await measure();
    assertEquals(before.scrollbar, 15, "Chromium shows its classic 15 px scrollbar");
    await page.click(".DocSearch-Button");
    await page.waitForSelector(INPUT);
    const opened = await measure();
    assertEquals(opened.scrollbar, 0, "the scrollbar is hidden while open");
    assertEquals({ ...opened, scrollbar: 15 }, before, "no element moved");
    await page.keyboard.press("Escape");
    await waitClosed(page);
    assertEquals(await measure(), before);
    await closePage(page);
  });

  await t.step(
    "a light site stays light under a dark OS preference; theme auto follows it",
    async () => {
      const colours = (page: Page) =>
        page.evaluate(() => ({
          button: getComputedStyle(document.querySelector(".DocSearch-Button")!).backgroundColor,
          modal: document.querySelector(".DocSearch-Modal") &&
            getComputedStyle(document.querySelector(".DocSearch-Modal")!).backgroundColor,
        }));
      const light = await open({ colorScheme: "dark" });
      assert(await light.evaluate(() => matchMedia("(prefers-color-scheme: dark)").matches));
      const lightButton = (await colours(light)).button;
      await light.click(".DocSearch-Button");
      await light.waitForSelector(INPUT);
      const lightColours = await colours(light);
      await light.evaluate(() => document.documentElement.dataset.theme = "dark");
      const darkColours = await colours(light);
      assert(darkColours.modal !== lightColours.modal, "html[data-theme=dark] switches");
      await closePage(light);

      const reference = await open({ colorScheme: "light" });
      assertEquals((await colours(reference)).button, lightButton, "same button as on a light OS");
      await reference.click(".DocSearch-Button");
      await reference.waitForSelector(INPUT);
      assertEquals(await colours(reference), lightColours, "same modal as on a light OS");
      await closePage(reference);

      const auto = await open({ colorScheme: "dark", extra: `theme: "auto"` });
      await auto.click(".DocSearch-Button");
      await auto.waitForSelector(INPUT);
      assertEquals(await colours(auto), darkColours, `theme: "auto" follows the OS`);
      await auto.evaluate(() => document.documentElement.dataset.theme = "light");
      assertEquals(await colours(auto), lightColours, "html[data-theme=light] wins over the OS");
      await closePage(auto);

      assertThrows(
        () => resolveOptions({ appId: "a", apiKey: "k", indices: ["i"], theme: "dim" as "auto" }),
        Error,
        "`theme`",
      );
    },
  );

  await t.step("the input: no autocorrect, autocapitalize or spellcheck", async () => {
    const page = await open();
    await page.click(".DocSearch-Button");
    const input = page.locator(INPUT);
    assertEquals(await input.getAttribute("autocorrect"), "off");
    assertEquals(await input.getAttribute("autocapitalize"), "off");
    assertEquals(await input.getAttribute("spellcheck"), "false");
    assertEquals(await input.getAttribute("autocomplete"), "off");
    assertEquals(
      await input.evaluate((e: HTMLInputElement) => [e.spellcheck, e.autocapitalize]),
      [false, "none"],
    );
    // Chromium's boolean `autocorrect` property, where it exists
    assert(await input.evaluate((e) => !(e as unknown as { autocorrect?: boolean }).autocorrect));
    await closePage(page);
  });

  await t.step(
    "mobile (390×844): Close clips nothing, the footer stays at the bottom",
    async () => {
      const page = await open({
        viewport: { width: 390, height: 844 },
        extra: `placeholder: "Search docs or ask AI a question"`,
      });
      await page.click(".DocSearch-Button");
      await page.waitForSelector(INPUT);
      const layout = await page.evaluate(() => {
        const input = document.querySelector<HTMLInputElement>(".DocSearch-Input")!;
        const style = getComputedStyle(input);
        const context = document.createElement("canvas").getContext("2d")!;
        context.font = style.font;
        const inputBox = input.getBoundingClientRect();
        const close = document.querySelector(".DocSearch-Close")!.getBoundingClientRect();
        const footer = document.querySelector(".DocSearch-Footer")!.getBoundingClientRect();
        return {
          placeholder: context.measureText(input.placeholder).width,
          room: input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight),
          overlap: close.left < inputBox.right,
          closeVisible: close.width > 0 && close.right <= innerWidth,
          footerBottom: footer.bottom,
          height: innerHeight,
        };
      });
      assert(
        layout.placeholder <= layout.room,
        `the placeholder (${layout.placeholder} px) fits the input (${layout.room} px)`,
      );
      assert(!layout.overlap && layout.closeVisible, "× sits beside the input");
      assertEquals(layout.footerBottom, layout.height, "footer at the bottom (start screen)");
      await page.fill(INPUT, "zzzxqj");
      await page.waitForSelector(".DocSearch-NoResults");
      assertEquals(
        await page.evaluate(() =>
          document.querySelector(".DocSearch-Footer")!.getBoundingClientRect().bottom
        ),
        layout.height,
        "footer at the bottom (no results)",
      );
      await closePage(page);
    },
  );

  await t.step("axe: 0 violations on every keyword screen, desktop and mobile", async () => {
    for (const viewport of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
      const label = `${viewport.width}×${viewport.height}`;
      const page = await open({ viewport, extra: `navigator: { navigate() {} }` });
      await page.click(".DocSearch-Button");
      await page.waitForSelector(".DocSearch-StartScreen");
      assertEquals(await axeViolations(page), [], `${label}: start screen, no recents`);
      for (const query of ["pagination", "cursors", "translations"]) {
        await page.fill(INPUT, query);
        await page.waitForSelector(`${HIT} mark`);
        await page.keyboard.press("Enter");
        await page.click(".DocSearch-Button");
      }
      await page.waitForSelector(`${HIT} [title="Save this search"]`);
      await page.click(`${HIT} >> nth=1 >> [title="Save this search"]`);
      await page.waitForSelector(
        '.DocSearch-Hits:has([title="Remove this search from favorites"])',
      );
      await page.keyboard.press("ArrowDown");
      assertEquals(
        await page.getAttribute(INPUT, "aria-activedescendant"),
        await page.getAttribute(`${HIT}[aria-selected="true"] [role=gridcell]`, "id"),
      );
      assertEquals(await page.locator(`${HIT}[aria-selected="true"]`).count(), 1);
      assertEquals(await axeViolations(page), [], `${label}: start screen, recents and favorites`);
      await page.fill(INPUT, "keyboard");
      await page.waitForSelector(`${HIT} mark`);
      assertEquals(await axeViolations(page), [], `${label}: results`);
      await page.fill(INPUT, "zzzxqj");
      await page.waitForSelector(".DocSearch-NoResults");
      assertEquals(await axeViolations(page), [], `${label}: no results`);
      await closePage(page);
    }
    const closed = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    const port = (closed.addr as Deno.NetAddr).port;
    closed.close();
    const down = await open({
      extra:
        `transformSearchClient: () => liteClient("mikrogql", "key", { hosts: [{ url: "127.0.0.1", port: ${port}, protocol: "http", accept: "read" }] })`,
    });
    await down.click(".DocSearch-Button");
    await down.fill(INPUT, "cursor");
    await down.waitForSelector(".DocSearch-ErrorScreen");
    assertEquals(await axeViolations(down), [], "error screen");
    await closePage(down);
  });
}
