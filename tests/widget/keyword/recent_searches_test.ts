/// <reference lib="dom" />
/**
 * Recent and favorite searches: saved on select, favorited, removed, their limits,
 * `disableUserPersonalization`, and a corrupt, full or unavailable localStorage. In a real
 * Chromium against the docs site and its local search API.
 */
import { assert, assertEquals } from "@std/assert";
import type { Page } from "playwright-core";
import { closePage, HIT, isOpen, keywordTest, search, texts } from "./search_page.ts";

await keywordTest(
  "search box: recent and favorite searches",
  async (t, { mount }) => {
    await t.step(
      "recent searches: saved on select (content as page), deleted, favorited",
      async () => {
        const page = await mount(`navigator: { navigate: () => {} }`);
        await page.click(".DocSearch-Button");
        assertEquals(await page.textContent(".DocSearch-StartScreen"), "No recent searches");
        await search(page, "pagination");
        await page.keyboard.press("Enter");
        await search(page, "transaction commits success");
        const first = await page.$eval(
          HIT,
          (e) => e.querySelector(".DocSearch-Hit-icon path")!.getAttribute("d"),
        );
        assertEquals(first, "M4 5h12M4 9h12M4 13h8", "the first hit is a content hit");
        await page.keyboard.press("Enter");
        await page.click(".DocSearch-Button");
        assertEquals(await texts(page, ".DocSearch-Hit-source"), ["Recent"]);
        assertEquals(await texts(page, `${HIT} .DocSearch-Hit-title`), [
          "The GraphQL generator",
          "Pagination",
        ]);
        assertEquals(
          await page.getAttribute(`${HIT} a`, "href"),
          "/docs/guides/graphql-generator.html",
        );
        await page.click(`${HIT} >> nth=1 >> [title="Save this search"]`);
        assertEquals(await texts(page, ".DocSearch-Hit-source"), ["Recent", "Favorite"]);
        assertEquals(await texts(page, `${HIT} .DocSearch-Hit-title`), [
          "The GraphQL generator",
          "Pagination",
        ]);
        await page.click(`${HIT} >> nth=0 >> [title="Remove this search from history"]`);
        assertEquals(await texts(page, ".DocSearch-Hit-source"), ["Favorite"]);
        await search(page, "pagination");
        await page.keyboard.press("Enter");
        await page.click(".DocSearch-Button");
        assertEquals(
          await texts(page, ".DocSearch-Hit-source"),
          ["Favorite"],
          "a favorite is not also recent",
        );
        await page.click(`${HIT} >> [title="Remove this search from favorites"]`);
        assertEquals(await page.textContent(".DocSearch-StartScreen"), "No recent searches");
        await page.keyboard.press("Escape");
        await page.reload();
        await page.evaluate(`searchBox(docsSearchOptions)`);
        await page.click(".DocSearch-Button");
        assertEquals(await page.textContent(".DocSearch-StartScreen"), "No recent searches");
        await closePage(page);
      },
    );

    await t.step(
      "recent limits: 7, then 4 once a favorite exists; recentSearchesLimit",
      async () => {
        const queries = [
          "Install",
          "Theming",
          "Escape",
          "Slash",
          "Pagination",
          "Loading entities",
          "Generated files",
          "Run the tests",
        ];
        const select = async (page: Page, count: number) => {
          for (const query of queries.slice(0, count)) {
            await search(page, query);
            await page.keyboard.press("Enter");
          }
          await page.click(".DocSearch-Button");
          await page.waitForSelector(".DocSearch-Hit-source");
        };
        const page = await mount(`navigator: { navigate: () => {} }`);
        await select(page, 8);
        assertEquals(await page.locator(HIT).count(), 7);
        await page.click(`${HIT} >> nth=6 >> [title="Save this search"]`);
        assertEquals(await page.locator(`.DocSearch-Hits:first-child ${HIT}`).count(), 4);
        assertEquals(await page.locator(HIT).count(), 5);
        assertEquals(
          await page.locator(`${HIT} >> nth=0 >> .DocSearch-Hit-title`).textContent(),
          "Run the tests",
        );
        await closePage(page);

        const custom = await mount(
          `navigator: { navigate: () => {} }, recentSearchesLimit: 2, recentSearchesWithFavoritesLimit: 1`,
        );
        await select(custom, 3);
        assertEquals(await custom.locator(HIT).count(), 2);
        await custom.click(`${HIT} >> nth=1 >> [title="Save this search"]`);
        assertEquals(await texts(custom, ".DocSearch-Hit-source"), ["Recent", "Favorite"]);
        assertEquals(await custom.locator(HIT).count(), 2);
        await closePage(custom);

        const favorites = await mount(`navigator: { navigate: () => {} }`);
        await favorites.evaluate(() => {
          const hit = (i: number) => ({
            objectID: `fav-${i}`,
            url: `/docs/guides/getting-started.html#fav-${i}`,
            type: "lvl2",
            content: null,
            hierarchy: { lvl0: "Guides", lvl1: "Getting started", lvl2: `Favorite ${i}` },
          });
          localStorage.setItem(
            "__DOCSEARCH_FAVORITE_SEARCHES__mikrogql-docs",
            JSON.stringify(Array.from({ length: 10 }, (_, i) => hit(i))),
          );
        });
        await select(favorites, 1);
        await favorites.click(`${HIT} >> nth=0 >> [title="Save this search"]`);
        const stored = await favorites.evaluate(() =>
          JSON.parse(localStorage.getItem("__DOCSEARCH_FAVORITE_SEARCHES__mikrogql-docs")!)
            .map((h: { objectID: string }) => h.objectID)
        );
        assertEquals(stored.length, 10, "at most 10 favorites");
        assertEquals(stored.at(-1), "fav-8");
        assertEquals(await favorites.locator(`.DocSearch-Hits >> nth=-1 >> ${HIT}`).count(), 10);
        await closePage(favorites);
      },
    );

    await t.step("disableUserPersonalization writes nothing", async () => {
      const page = await mount(
        `navigator: { navigate: () => {} }, disableUserPersonalization: true`,
      );
      await search(page, "pagination");
      await page.keyboard.press("Enter");
      await page.click(".DocSearch-Button");
      assertEquals(await page.textContent(".DocSearch-StartScreen"), "No recent searches");
      assertEquals(
        await page.evaluate(() =>
          Object.keys(localStorage).filter((k) => k.startsWith("__DOCSEARCH"))
        ),
        [],
      );
      await closePage(page);
    });

    await t.step(
      "corrupt, full or unavailable localStorage never breaks the search box",
      async () => {
        const setups = {
          corrupt: `localStorage.setItem("__DOCSEARCH_RECENT_SEARCHES__mikrogql-docs", "{not json");
        localStorage.setItem("__DOCSEARCH_FAVORITE_SEARCHES__mikrogql-docs", '[{"bogus":1}]');`,
          full:
            `Storage.prototype.setItem = () => { throw new DOMException("full", "QuotaExceededError"); };`,
          unavailable:
            `Object.defineProperty(window, "localStorage", { get() { throw new DOMException("denied", "SecurityError"); } });`,
        };
        for (const [name, setup] of Object.entries(setups)) {
          const page = await mount();
          await page.evaluate(
            `window.__destroy(); ${setup} searchBox({ ...docsSearchOptions, askAi: undefined, navigator: { navigate: () => {} } })`,
          );
          await page.click(".DocSearch-Button");
          await page.waitForSelector(".DocSearch-StartScreen");
          await search(page, "pagination");
          await page.keyboard.press("Enter");
          assert(!await isOpen(page), name);
          await page.click(".DocSearch-Button");
          await page.waitForSelector(".DocSearch-StartScreen, .DocSearch-Hit-source");
          if (name === "corrupt") {
            assertEquals(await texts(page, ".DocSearch-Hit-source"), [
              "Recent",
            ]);
          }
          await closePage(page);
        }
      },
    );
  },
);
