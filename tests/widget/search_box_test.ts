/// <reference lib="dom" />
/**
 * The search box in a real Chromium against the docs site and its local
 * search API (issue 6): opening and closing, search requests, results,
 * navigation, screens, recent and favorite searches, every option, hostile
 * hit content, accessibility.
 */
import { assert, assertEquals, assertMatch, assertStringIncludes } from "@std/assert";
import type { Browser, Page, Request } from "playwright-core";
import { axeViolations, browserTest, nextFrames, poll } from "../support/browser.ts";
import { runDeno, startDocsSite } from "../support/docs_site.ts";
import type { SearchApiFaults } from "../../examples/docs-site/search_api.ts";
import type { DocSearchRecord } from "../../examples/docs-site/records.ts";

const HOSTILE: DocSearchRecord = {
  objectID: "hostile-1",
  url: "/docs/guides/getting-started.html#hostile",
  anchor: "hostile",
  type: "lvl2",
  content: null,
  hierarchy: {
    lvl0: "Guides",
    lvl1: "Hostile <script>window.__pwned = 'script'</script>",
    lvl2: `Zanzibar <img src=x onerror="window.__pwned='img'"> payload`,
    lvl3: null,
    lvl4: null,
    lvl5: null,
    lvl6: null,
  },
};

const faults: SearchApiFaults = {};
const site = await startDocsSite({ faults, extraRecords: [HOSTILE] });
let browser: Browser;

const HIT = ".DocSearch-Hit";
const INPUT = ".DocSearch-Input";

/** A fresh page (own storage) of the docs site with the search box mounted with `extra` options (JS source). */
async function mount(extra = "", path = "/"): Promise<Page> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`${site.url}${path}${path.includes("?") ? "&" : "?"}manual`);
  await page.waitForFunction(() => "searchBox" in globalThis);
  // keyword search only: the Ask AI mode of the docs site is tested in ask_ai_test.ts
  await page.evaluate(
    `window.__destroy = searchBox({ ...docsSearchOptions, askAi: undefined, ${extra} })`,
  );
  return page;
}

/** Opens the modal by clicking the button and types `query`; waits for its hits. */
async function search(page: Page, query: string, waitFor = HIT): Promise<void> {
  if (!await page.isVisible(".DocSearch-Modal")) await page.click(".DocSearch-Button");
  await page.fill(INPUT, query);
  await page.waitForSelector(waitFor);
}

/** The search API requests the page sends, as parsed bodies. */
function recordRequests(page: Page): Array<{ requests: Array<Record<string, unknown>> }> {
  const bodies: Array<{ requests: Array<Record<string, unknown>> }> = [];
  page.on("request", (r: Request) => {
    if (r.url().includes("/1/indexes/")) bodies.push(JSON.parse(r.postData() ?? "{}"));
  });
  return bodies;
}

const texts = (page: Page, selector: string) =>
  page.$$eval(selector, (els) => els.map((e) => (e.textContent ?? "").trim()));

/** The key hint of the button, as drawn from `data-key`. */
const keyHint = (page: Page) =>
  page.$$eval(".DocSearch-Button-Key", (els) => els.map((e) => e.getAttribute("data-key")));

const isOpen = (page: Page) => page.isVisible(".DocSearch-Modal");

/** Waits until the modal is open (or closed); fails after 3 s. */
const waitOpen = (page: Page, open = true) =>
  page.waitForSelector(".DocSearch-Modal", { state: open ? "visible" : "detached", timeout: 3000 });

/** Asserts that the modal stays closed (once the page has handled the input and painted). */
async function assertStaysClosed(page: Page, message?: string) {
  await nextFrames(page);
  assert(!await isOpen(page), message);
}

const closePage = (page: Page) => page.context().close();

browserTest("search box (keyword search) in Chromium", site, async (t, launched) => {
  browser = launched;
  await steps(t);
});

async function steps(t: Deno.TestContext) {
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
    assertEquals(await page.locator(".DocSearch-Button-Keys").count(), 0);
    assertEquals(await page.getAttribute(".DocSearch-Button", "aria-keyshortcuts"), null);
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
        const w = globalThis as unknown as { __typed: number; __stalled?: number };
        w.__typed = performance.now();
        new MutationObserver((_, observer) => {
          if (!document.querySelector(".DocSearch-Container--Stalled")) return;
          w.__stalled = performance.now();
          observer.disconnect();
        }).observe(document.body, { subtree: true, childList: true, attributes: true });
      });
      await page.fill(INPUT, "slowness");
      await page.waitForSelector(".DocSearch-Container--Stalled");
      const stalledAfter = await page.evaluate(() => {
        const w = globalThis as unknown as { __typed: number; __stalled: number };
        return w.__stalled - w.__typed;
      });
      assert(stalledAfter >= 300, `stalled after ${stalledAfter} ms, not before 300 ms`);
      assert(await page.isVisible(".DocSearch-LoadingIndicator"));
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

  await t.step("hitComponent: html helper, string and component styles", async () => {
    const styles = {
      html:
        `hitComponent: ({ hit, children }, { html }) => html\`<a class="mine" href=\${hit.url}>\${children}</a>\``,
      string:
        `hitComponent: ({ hit }) => '<a class="mine" href="' + hit.url + '">' + hit.type + '</a>'`,
      component:
        `hitComponent: ({ hit }, { html }) => (props) => html\`<a class="mine" href=\${props.hit.url}>\${props.hit.type}</a>\``,
    };
    for (const [style, option] of Object.entries(styles)) {
      const page = await mount(option);
      await search(page, "transactions");
      assertEquals(
        await page.locator(`${HIT} a.mine`).count(),
        await page.locator(HIT).count(),
        style,
      );
      const text = await page.textContent(`${HIT} a.mine`);
      if (style === "html") {
        assertEquals(await page.locator(`${HIT} a.mine .DocSearch-Hit-title`).count() > 0, true);
      } else assertMatch(text ?? "", /^(lvl\d|content)$/);
      await closePage(page);
    }
  });

  await t.step("resultsFooterComponent gets the query and nbHits", async () => {
    const page = await mount(
      `resultsFooterComponent: ({ state }, { html }) => html\`<a href="/all">See all \${state.context.nbHits} results for \${state.query}</a>\``,
    );
    await search(page, "keyboard");
    const footer = await page.textContent(".DocSearch-HitsFooter");
    assertMatch(footer ?? "", /^See all \d+ results for keyboard$/);
    const hits = Number(footer!.match(/\d+/)![0]);
    assert(hits >= await page.locator(HIT).count());
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
      "Dokumentation durchsuchen",
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

  await t.step("recent limits: 7, then 4 once a favorite exists; recentSearchesLimit", async () => {
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
        "__DOCSEARCH_FAVORITE_SEARCHES__mikrogql-mikrogql-docs",
        JSON.stringify(Array.from({ length: 10 }, (_, i) => hit(i))),
      );
    });
    await select(favorites, 1);
    await favorites.click(`${HIT} >> nth=0 >> [title="Save this search"]`);
    const stored = await favorites.evaluate(() =>
      JSON.parse(localStorage.getItem("__DOCSEARCH_FAVORITE_SEARCHES__mikrogql-mikrogql-docs")!)
        .map((h: { objectID: string }) => h.objectID)
    );
    assertEquals(stored.length, 10, "at most 10 favorites");
    assertEquals(stored.at(-1), "fav-8");
    assertEquals(await favorites.locator(`.DocSearch-Hits >> nth=-1 >> ${HIT}`).count(), 10);
    await closePage(favorites);
  });

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

  await t.step("disableUserPersonalization writes nothing", async () => {
    const page = await mount(`navigator: { navigate: () => {} }, disableUserPersonalization: true`);
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
        corrupt:
          `localStorage.setItem("__DOCSEARCH_RECENT_SEARCHES__mikrogql-mikrogql-docs", "{not json");
        localStorage.setItem("__DOCSEARCH_FAVORITE_SEARCHES__mikrogql-mikrogql-docs", '[{"bogus":1}]');`,
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

  await t.step(
    "SearchBox component: props, modal in portalContainer or document.body",
    async () => {
      await runDeno([
        "bundle",
        "--quiet",
        "--platform",
        "browser",
        "-o",
        `${site.distDir}/component_page.js`,
        "tests/widget/fixtures/component_page.ts",
      ]);
      const page = await mount();
      await page.evaluate(() => {
        document.querySelector("main")!.insertAdjacentHTML(
          "beforeend",
          '<div id="app"></div><div id="portal"></div>',
        );
      });
      await page.evaluate("window.__destroy()");
      await page.addScriptTag({ type: "module", url: "/dist/component_page.js" });
      await page.waitForFunction(() => "mountSearchBox" in globalThis);
      await page.evaluate(
        `mountSearchBox({ portalContainer: document.querySelector("#portal"), translations: { button: { buttonText: "Find" } } })`,
      );
      assertEquals(await page.textContent("#app .DocSearch-Button-Placeholder"), "Find");
      await page.click("#app .DocSearch-Button");
      await page.fill("#portal .DocSearch-Input", "theming");
      await page.waitForSelector(`#portal ${HIT}`);
      assertEquals(await page.locator("#app .DocSearch-Modal").count(), 0);
      await page.keyboard.press("Escape");
      assertEquals(await page.locator("#portal .DocSearch-Modal").count(), 0);

      await page.evaluate(`mountSearchBox({ portalContainer: undefined })`);
      await page.keyboard.press("Control+k");
      assert(
        await page.evaluate(() =>
          document.querySelector(".DocSearch-Modal")!.closest("body > div") !== null
        ),
      );
      assertEquals(
        await page.locator("#portal .DocSearch-Modal, #app .DocSearch-Modal").count(),
        0,
      );
      await closePage(page);
    },
  );
}
