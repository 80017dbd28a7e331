/// <reference lib="dom" />
/**
 * The options in the page: bad options, `transformItems`, `transformSearchClient`, translations
 * and placeholder, `container`, `environment` and the theme. In a real Chromium against the docs
 * site and its local search API.
 */
import { assert, assertEquals, assertStringIncludes } from "@std/assert";
import type { SearchApiFaults } from "../../../examples/docs-site/search_api.ts";
import {
  assertStaysClosed,
  closePage,
  HIT,
  INPUT,
  keywordTest,
  search,
  texts,
} from "./search_page.ts";

const faults: SearchApiFaults = {};

await keywordTest("search box: options", async (t, { mount }) => {
  await t.step("bad options throw an Error naming the option", async () => {
    const page = await mount();
    const error = (options: string) =>
      page.evaluate(
        `(() => { try { searchBox({ ...docsSearchOptions, ${options} }); return "no error"; } catch (e) { return e.message; } })()`,
      );
    const both = await error("indices: undefined, indexName: undefined") as string;
    assertStringIncludes(both, "`indices`");
    assertStringIncludes(both, "`indexName`");
    assertStringIncludes(await error(`container: "#nothing-here"`) as string, "`container`");
    assertStringIncludes(await error("maxResultsPerGroup: 0") as string, "`maxResultsPerGroup`");
    assertStringIncludes(await error("apiKey: 1") as string, "`apiKey`");
    assertStringIncludes(
      await error(`translations: { modal: { searchBox: { enterKeyHint: "jump" } } }`) as string,
      "`translations.modal.searchBox.enterKeyHint`",
    );
    assertStringIncludes(
      await error(`keyboardShortcuts: { "Ctrl+J": true }`) as string,
      "`keyboardShortcuts`",
    );
    assertStringIncludes(await error(`transformItems: "no"`) as string, "`transformItems`");
    await closePage(page);
  });

  await t.step("transformItems runs before display", async () => {
    const page = await mount(
      `transformItems: (items) => items.filter((i) => i.type !== "content").map((i) => ({ ...i, hierarchy: { ...i.hierarchy, lvl0: "All " + i.hierarchy.lvl0 } }))`,
    );
    await search(page, "search");
    const groups = await texts(page, ".DocSearch-Hit-source");
    assert(groups.length > 0 && groups.every((g) => g.startsWith("All ")), groups.join());
    assertEquals(await page.locator(`${HIT} .DocSearch-Hit-icon path[d^="M4 5h12"]`).count(), 0);
    await closePage(page);
  });

  await t.step("transformSearchClient gets the search client", async () => {
    const page = await mount(
      `transformSearchClient: (client) => { window.__client = typeof client.search; const local = docsSearchOptions.transformSearchClient(); return { search: (p) => { window.__searches = (window.__searches ?? 0) + 1; return local.search(p); } }; }`,
    );
    await search(page, "cursor");
    assertEquals(await page.evaluate("window.__client"), "function");
    assert(await page.evaluate("window.__searches") as number >= 1);
    await closePage(page);
  });

  await t.step("translations and placeholder", async () => {
    const page = await mount(`translations: {
      button: { buttonText: "Suchen", buttonAriaLabel: "Dokumentation durchsuchen" },
      modal: {
        searchBox: { placeholderText: "Suche", enterKeyHint: "go", clearButtonTitle: "Leeren", closeButtonText: "Schließen" },
        noResultsScreen: { noResultsText: "Keine Treffer für" },
        startScreen: { noRecentSearchesText: "Keine letzten Suchen" },
        footer: { selectText: "Auswählen", closeText: "Schließen" },
      },
    }`);
    assertEquals(await page.textContent(".DocSearch-Button-Placeholder"), "Suchen");
    assertEquals(
      await page.getAttribute(".DocSearch-Button", "aria-label"),
      // The shortcut follows the translated label, as DocSearch 4.7.1 words it.
      "Dokumentation durchsuchen (Control+k)",
    );
    await page.click(".DocSearch-Button");
    assertEquals(await page.getAttribute(INPUT, "placeholder"), "Suche");
    assertEquals(await page.getAttribute(INPUT, "enterkeyhint"), "go");
    assertEquals(await page.textContent(".DocSearch-StartScreen"), "Keine letzten Suchen");
    assertEquals(await page.getAttribute(".DocSearch-Close", "title"), "Schließen");
    assertStringIncludes(await page.textContent(".DocSearch-Footer") ?? "", "Auswählen");
    await page.fill(INPUT, "qwzxqwzx");
    await page.waitForSelector(".DocSearch-NoResults");
    assertEquals(await page.textContent(".DocSearch-Title"), 'Keine Treffer für "qwzxqwzx"');
    await closePage(page);

    const plain = await mount(
      `placeholder: "Find anything", translations: { modal: { searchBox: { placeholderText: "ignored" } } }`,
    );
    await plain.click(".DocSearch-Button");
    assertEquals(await plain.getAttribute(INPUT, "placeholder"), "Find anything");
    await closePage(plain);

    const defaults = await mount();
    await defaults.click(".DocSearch-Button");
    assertEquals(await defaults.getAttribute(INPUT, "placeholder"), "Search docs");
    assertEquals(await defaults.getAttribute(INPUT, "enterkeyhint"), "search");
    await closePage(defaults);
  });

  await t.step(
    "container: first match of a selector, or an element; destroy removes it",
    async () => {
      const page = await mount();
      await page.evaluate(() => {
        document.querySelector("main")!.insertAdjacentHTML(
          "beforeend",
          '<div class="box" id="box1"></div><div class="box" id="box2"></div><div id="box3"></div>',
        );
      });
      await page.evaluate(
        `window.__destroy(); searchBox({ ...docsSearchOptions, container: ".box" });
      searchBox({ ...docsSearchOptions, container: document.querySelector("#box3") })`,
      );
      assertEquals(await page.locator("#search .DocSearch-Button").count(), 0);
      assertEquals(await page.locator("#box1 .DocSearch-Button").count(), 1);
      assertEquals(await page.locator("#box2 .DocSearch-Button").count(), 0);
      assertEquals(await page.locator("#box3 .DocSearch-Button").count(), 1);
      await page.click("#box3 .DocSearch-Button");
      assertEquals(await page.locator("#box3 .DocSearch-Modal").count(), 1);
      await closePage(page);
    },
  );

  await t.step(
    "environment: the search box of an iframe listens on the iframe's window",
    async () => {
      const page = await mount();
      await page.evaluate(async () => {
        const frame = document.createElement("iframe");
        frame.title = "inner";
        document.querySelector("main")!.append(frame);
        await new Promise((r) => setTimeout(r, 50));
        frame.contentDocument!.body.innerHTML = '<div id="inner"></div>';
      });
      await page.evaluate(`window.__destroy(); const frame = document.querySelector("iframe");
      searchBox({ ...docsSearchOptions, container: frame.contentDocument.querySelector("#inner"), environment: frame.contentWindow })`);
      await page.keyboard.press("Control+k");
      await assertStaysClosed(page, "the top window has no listener");
      const frame = page.frames()[1];
      await frame.focus("button");
      await page.keyboard.press("Escape");
      await frame.press("button", "Control+k");
      await frame.waitForSelector(".DocSearch-Modal");
      assert(await frame.evaluate(() => document.body.classList.contains("DocSearch--active")));
      await closePage(page);
    },
  );

  await t.step(
    "theme: DocSearch custom properties, dark on html[data-theme=dark] only (not the OS's preference)",
    async () => {
      const page = await mount();
      await page.click(".DocSearch-Button");
      const background = () =>
        page.evaluate(() =>
          getComputedStyle(document.querySelector(".DocSearch-Modal")!).backgroundColor
        );
      assertEquals(await background(), "rgb(245, 246, 247)");
      await page.evaluate(() => document.documentElement.dataset.theme = "dark");
      assertEquals(await background(), "rgb(21, 23, 42)");
      await page.evaluate(() => {
        delete document.documentElement.dataset.theme;
        document.documentElement.style.setProperty("--docsearch-modal-background", "rgb(1, 2, 3)");
      });
      assertEquals(await background(), "rgb(1, 2, 3)");
      await page.evaluate(() =>
        document.documentElement.style.removeProperty("--docsearch-modal-background")
      );
      await page.emulateMedia({ colorScheme: "dark" });
      assertEquals(await background(), "rgb(245, 246, 247)");
      await closePage(page);
    },
  );
}, faults);
