/// <reference lib="dom" />
/**
 * The search requests: one multi-index request per keystroke with the default parameters, the
 * deprecated `indexName`, an index entry's parameters, the error screen, the loading indicator
 * after 300 ms, stale answers dropped, the 512-character cap and `initialQuery`. In a real
 * Chromium against the docs site and its local search API.
 */
import { assert, assertEquals, assertStringIncludes } from "@std/assert";
import { nextFrames, poll } from "../../support/browser.ts";
import type { SearchApiFaults } from "../../../examples/docs-site/search_api.ts";
import {
  closePage,
  HIT,
  INPUT,
  keywordTest,
  recordRequests,
  search,
  texts,
} from "./search_page.ts";

const faults: SearchApiFaults = {};

await keywordTest("search box: search requests", async (t, { mount }) => {
  await t.step("one multi-index request per keystroke with the default parameters", async () => {
    const page = await mount();
    const bodies = recordRequests(page);
    await page.click(".DocSearch-Button");
    await page.keyboard.type("tra", { delay: 50 });
    await page.waitForSelector(HIT);
    await poll(() => bodies.length >= 3, "a request per keystroke");
    await nextFrames(page);
    assertEquals(bodies.map((b) => b.requests[0].query), ["t", "tr", "tra"]);
    const [first, second] = bodies[2].requests;
    assertEquals([first.indexName, second.indexName], ["mikrogql-docs", "mikrogql-readme"]);
    assertEquals(first.attributesToRetrieve, [
      "hierarchy.lvl0",
      "hierarchy.lvl1",
      "hierarchy.lvl2",
      "hierarchy.lvl3",
      "hierarchy.lvl4",
      "hierarchy.lvl5",
      "hierarchy.lvl6",
      "content",
      "type",
      "url",
    ]);
    assertEquals((first.attributesToSnippet as string[]).at(-1), "content:15");
    assertEquals((first.attributesToSnippet as string[]).length, 7);
    assertEquals(first.snippetEllipsisText, "…");
    assertEquals([first.highlightPreTag, first.highlightPostTag], ["<mark>", "</mark>"]);
    assertEquals(first.hitsPerPage, 20);
    await closePage(page);
  });

  await t.step("deprecated indexName + searchParameters are entry 0", async () => {
    const page = await mount(
      `indices: undefined, indexName: "mikrogql-readme", searchParameters: { hitsPerPage: 2 }`,
    );
    const bodies = recordRequests(page);
    await search(page, "deno");
    assertEquals(bodies.at(-1)!.requests.length, 1);
    assertEquals(bodies.at(-1)!.requests[0].indexName, "mikrogql-readme");
    assertEquals(bodies.at(-1)!.requests[0].hitsPerPage, 2);
    assertEquals(await page.locator(HIT).count(), 2);
    await closePage(page);
  });

  await t.step("an index entry's searchParameters override the defaults", async () => {
    const page = await mount(
      `indices: [{ name: "mikrogql-docs", searchParameters: { facetFilters: ["hierarchy.lvl0:Reference"], hitsPerPage: 3 } }, "mikrogql-readme"]`,
    );
    const bodies = recordRequests(page);
    await search(page, "search");
    assertEquals(bodies.at(-1)!.requests[0].hitsPerPage, 3);
    assertEquals(bodies.at(-1)!.requests[1].hitsPerPage, 20);
    assertEquals(await texts(page, ".DocSearch-Hit-source"), ["Reference", "README"]);
    await closePage(page);
  });

  await t.step("error screen on HTTP 5xx and on an unreachable API", async () => {
    const page = await mount();
    faults.status = 503;
    try {
      await search(page, "cursor", ".DocSearch-ErrorScreen");
    } finally {
      delete faults.status;
    }
    assertEquals(
      await page.textContent(".DocSearch-ErrorScreen .DocSearch-Title"),
      "Unable to fetch results",
    );
    assertStringIncludes(
      await page.textContent(".DocSearch-ErrorScreen") ?? "",
      "network connection",
    );
    await page.fill(INPUT, "cursors");
    await page.waitForSelector(HIT);
    await closePage(page);

    const closed = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    const port = (closed.addr as Deno.NetAddr).port;
    closed.close();
    const down = await mount(
      `transformSearchClient: () => liteClient("mikrogql", "key", { hosts: [{ url: "127.0.0.1", port: ${port}, protocol: "http", accept: "read" }] }),
       translations: { modal: { errorScreen: { titleText: "Search is down", helpText: "Try later." } } }`,
    );
    await search(down, "cursor", ".DocSearch-ErrorScreen");
    assertEquals(await texts(down, ".DocSearch-ErrorScreen p"), ["Search is down", "Try later."]);
    await closePage(down);
  });

  await t.step("loading indicator only after 300 ms", async () => {
    const page = await mount();
    faults.delays = { slowness: 900 };
    try {
      await page.click(".DocSearch-Button");
      await page.waitForSelector(INPUT);
      // the time from the keystroke to the stalled state, measured in the page
      await page.evaluate(() => {
        const w = globalThis as unknown as {
          __typed: number;
          __stalled?: number;
          __indicatorShown?: boolean;
        };
        w.__typed = performance.now();
        new MutationObserver((_, observer) => {
          if (!document.querySelector(".DocSearch-Container--Stalled")) return;
          w.__stalled = performance.now();
          // whether the indicator shows in the stalled state, read at once: on a loaded machine
          // the answer (900 ms later) may come before the test could look
          const indicator = document.querySelector(".DocSearch-LoadingIndicator");
          w.__indicatorShown = indicator !== null &&
            indicator.getBoundingClientRect().width > 0 &&
            getComputedStyle(indicator).visibility !== "hidden";
          observer.disconnect();
        }).observe(document.body, { subtree: true, childList: true, attributes: true });
      });
      await page.fill(INPUT, "slowness");
      await page.waitForSelector(".DocSearch-Container--Stalled");
      const { stalledAfter, indicatorShown } = await page.evaluate(() => {
        const w = globalThis as unknown as {
          __typed: number;
          __stalled: number;
          __indicatorShown: boolean;
        };
        return { stalledAfter: w.__stalled - w.__typed, indicatorShown: w.__indicatorShown };
      });
      assert(stalledAfter >= 300, `stalled after ${stalledAfter} ms, not before 300 ms`);
      assert(indicatorShown, "the loading indicator shows in the stalled state");
      await page.waitForSelector(".DocSearch-Container--Stalled", { state: "detached" });
    } finally {
      delete faults.delays;
    }
    await closePage(page);
  });

  await t.step("a stale answer never replaces the latest one", async () => {
    const page = await mount();
    const answers: Array<{ query: string; urls: string[] }> = [];
    page.on("response", async (r) => {
      if (!r.url().includes("/1/indexes/")) return;
      const query = JSON.parse(r.request().postData()!).requests[0].query;
      const { results } = await r.json();
      // deno-lint-ignore no-explicit-any
      answers.push({ query, urls: results.flatMap((x: any) => x.hits.map((h: any) => h.url)) });
    });
    faults.delays = { gen: 700 };
    try {
      await page.click(".DocSearch-Button");
      const genSent = page.waitForRequest((r) =>
        r.url().includes("/1/indexes/") && JSON.parse(r.postData()!).requests[0].query === "gen"
      );
      await page.fill(INPUT, "gen");
      await genSent;
      await page.fill(INPUT, "generated files");
      await page.waitForSelector(HIT);
      await poll(() => answers.length === 2, "both answers arrived");
      await nextFrames(page);
    } finally {
      delete faults.delays;
    }
    assertEquals(
      answers.map((a) => a.query),
      ["generated files", "gen"],
      "the answer for 'gen' came last",
    );
    const shown = await page.$$eval(
      `${HIT} a`,
      (links) => links.map((a) => a.getAttribute("href")),
    );
    const [latest, stale] = answers;
    assert(shown.every((url) => latest.urls.includes(url!)), "only hits of the latest answer");
    assert(
      shown.some((url) => !stale.urls.includes(url!)) || stale.urls.length > latest.urls.length,
    );
    assertEquals(await page.inputValue(INPUT), "generated files");
    await closePage(page);
  });

  await t.step("queries are capped at 512 characters; initialQuery fills the input", async () => {
    const page = await mount(`initialQuery: "search ".repeat(100)`);
    const bodies = recordRequests(page);
    await page.click(".DocSearch-Button");
    await page.waitForSelector(HIT);
    assertEquals((bodies[0].requests[0].query as string).length, 512);
    assertEquals((await page.inputValue(INPUT)).length, 512);
    await closePage(page);

    const short = await mount(`initialQuery: "pagination"`);
    await short.click(".DocSearch-Button");
    await short.waitForSelector(HIT);
    assertEquals(await short.inputValue(INPUT), "pagination");
    await closePage(short);
  });
}, faults);
