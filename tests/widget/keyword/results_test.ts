/// <reference lib="dom" />
/**
 * The results: groups by lvl0 in index priority order and their cap, a page's hits together with
 * title and path by type, the no-results screen, hostile hit content shown as text, axe. In a
 * real Chromium against the docs site and its local search API.
 */
import { assert, assertEquals, assertMatch, assertStringIncludes } from "@std/assert";
import { axeViolations, nextFrames } from "../../support/browser.ts";
import { closePage, HIT, INPUT, keywordTest, search, texts } from "./search_page.ts";

await keywordTest("search box: results", async (t, { mount }) => {
  await t.step("results grouped by lvl0 in index priority order, 5 per group", async () => {
    const page = await mount();
    await search(page, "search");
    const groups = await texts(page, ".DocSearch-Hit-source");
    assertEquals(groups.at(-1), "README");
    assert(groups.indexOf("Guides") < groups.indexOf("README"));
    const counts = await page.$$eval(
      ".DocSearch-Hits",
      (sections) => sections.map((s) => s.querySelectorAll(".DocSearch-Hit").length),
    );
    assert(counts.every((n) => n >= 1 && n <= 5), `counts ${counts}`);
    assert(counts.some((n) => n === 5), "a group is capped");
    assertMatch(await page.innerHTML(".DocSearch-Hit-title mark"), /^search$/i);
    await closePage(page);
  });

  await t.step("maxResultsPerGroup caps each group", async () => {
    const page = await mount("maxResultsPerGroup: 2");
    await search(page, "search");
    const counts = await page.$$eval(
      ".DocSearch-Hits",
      (sections) => sections.map((s) => s.querySelectorAll(".DocSearch-Hit").length),
    );
    assert(counts.every((n) => n <= 2) && counts.includes(2), `counts ${counts}`);
    await closePage(page);
  });

  await t.step("hits of a page together, child hits marked; title and path by type", async () => {
    const page = await mount();
    await search(page, "keyboard");
    const rows = await page.$$eval(HIT, (els) =>
      els.map((e) => ({
        child: e.classList.contains("DocSearch-Hit--Child"),
        href: e.querySelector("a")!.getAttribute("href")!,
        title: e.querySelector(".DocSearch-Hit-title")!.textContent,
        path: e.querySelector(".DocSearch-Hit-path")?.textContent ?? null,
      })));
    const pageRow = rows.findIndex((r) => r.href === "/docs/reference/keyboard-shortcuts.html");
    assert(pageRow >= 0, JSON.stringify(rows));
    assert(!rows[pageRow].child);
    assertEquals(rows[pageRow].title, "Keyboard shortcuts");
    assert(
      rows[pageRow + 1].child && rows[pageRow + 1].href.startsWith("/docs/reference/keyboard"),
    );
    const section = rows.find((r) =>
      r.href === "/docs/guides/search-box.html#keyboard-navigation"
    )!;
    assertEquals([section.title, section.path], [
      "Keyboard navigation",
      "Adding the search box to a page",
    ]);
    const content = rows.find((r) => r.title?.startsWith("The keyboardShortcuts option"));
    assertEquals(content?.path, "Keyboard shortcuts");
    await closePage(page);
  });

  await t.step(
    "no results: query, suggestions from earlier results, missing-results link",
    async () => {
      const page = await mount(
        `getMissingResultsUrl: ({ query }) => "https://example.com/issues/new?title=" + encodeURIComponent(query)`,
      );
      await search(page, "cursor");
      const earlier = await texts(page, ".DocSearch-Hit-source");
      await page.fill(INPUT, "qwzxqwzx");
      await page.waitForSelector(".DocSearch-NoResults");
      assertEquals(await page.textContent(".DocSearch-Title"), 'No results found for "qwzxqwzx"');
      assertEquals(await texts(page, ".DocSearch-Prefill"), earlier.slice(0, 3));
      assertStringIncludes(
        await page.textContent(".DocSearch-NoResults") ?? "",
        "Try searching for",
      );
      const link = page.locator(".DocSearch-NoResults a");
      assertEquals(await link.textContent(), "Let us know.");
      assertEquals(
        await link.getAttribute("href"),
        "https://example.com/issues/new?title=qwzxqwzx",
      );
      assertStringIncludes(
        await page.textContent(".DocSearch-NoResults") ?? "",
        "Believe this query should return results?",
      );
      assertEquals(await axeViolations(page), []);
      await page.click(".DocSearch-Prefill");
      assertEquals(await page.inputValue(INPUT), earlier[0]);
      await page.waitForSelector(HIT);
      await closePage(page);
    },
  );

  await t.step("axe: 0 violations on the open modal with results", async () => {
    const page = await mount();
    await search(page, "search box");
    assertEquals(await axeViolations(page), []);
    await closePage(page);
  });

  await t.step("hostile hit content is shown as text and never runs", async () => {
    const page = await mount();
    await search(page, "zanzibar");
    await nextFrames(page); // an injected element would be in the page by now (checked below)
    assertEquals(await page.evaluate("window.__pwned"), undefined);
    assertEquals(await page.locator(".DocSearch-Modal img, .DocSearch-Modal script").count(), 0);
    const hit = page.locator(HIT).first();
    assertStringIncludes(await hit.textContent() ?? "", "<img src=x onerror=");
    assertStringIncludes(await hit.textContent() ?? "", "<script>");
    assertEquals(await page.$$eval(`${HIT} mark`, (m) => m.map((e) => e.innerHTML)), ["Zanzibar"]);
    await closePage(page);
  });
});
