/// <reference lib="dom" />
/**
 * DocSearch's own v4 test suites, re-expressed for the script package and run against both
 * libraries: every case below is a behaviour that algolia/docsearch's tests assert (its api,
 * keyboardShortcuts, imperative and DocSearchButton unit tests, its Cypress search and Ask AI
 * specs), written once and run on the same page, options and hits with `@docsearch/js` 4.7.1 and
 * with our bundle. A case passes when it holds for both, so each assertion is checked to be
 * DocSearch 4.7.1's behaviour as well as ours. Where the two markups differ in ways DocSearch's
 * tests reach into (the ids of its listbox options, the SVG inside a footer key), the case finds
 * the element by what both have (a row's title attribute, the source's title, an aria-label on or
 * in the key). Searches go to the docs site's search API, Ask AI to its stand-in.
 */
import { assert, assertEquals } from "@std/assert";
import { Buffer } from "node:buffer";
import { join } from "@std/path";
import type { Browser, Page } from "playwright-core";
import { browserTest, clearPageStorage, nextFrames } from "../support/browser.ts";
import { startDocsSite } from "../support/docs_site.ts";
import { buildDocSearch } from "../support/docsearch_v4.ts";

// https: a secure context, as a docs site (the clipboard needs one)
const ORIGIN = "https://suites.test";
type Lib = "docsearch" | "ours";

function pageHtml(lib: Lib): string {
  const [css, js] = lib === "docsearch"
    ? ["/docsearch/style.css", "/docsearch/docsearch.mjs"]
    : ["/ours/style.css", "/ours/searchbox.js"];
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Docs</title>
<link rel="stylesheet" href="${css}"></head>
<body><header><div id="search"></div></header><main><p>Docs</p><input aria-label="page input"></main>
<script type="module">
import docsearch from "${js}";
window.mount = (extra = {}) =>
  window.search = docsearch({
    container: "#search",
    appId: "APP",
    apiKey: "KEY",
    indices: ["mikrogql-docs"],
    ...extra,
  });
window.noResultSearch = () =>
  Promise.resolve({ results: [{ hits: [], nbHits: 0, hitsPerPage: 0, page: 0, nbPages: 0, processingTimeMS: 0, query: "", params: "" }] });
window.ready = true;
</script></body></html>`;
}

const site = await startDocsSite();
const docsearchDir = await buildDocSearch();

/** The page of each library, made at its first case and reused by the others (see {@link open}). */
const pages = new Map<Lib, Page>();

/**
 * The page of `lib` with the search box mounted afresh with `extra` (JS source). One page per
 * library serves every case: a browser context per case costs a renderer process (about 0.6 s of
 * CPU on the CI machine, most of a case's time). Between cases what a case leaves behind is
 * cleared (local and session storage, the clipboard) and the page is loaded again.
 */
async function open(browser: Browser, lib: Lib, extra = "{}"): Promise<Page> {
  let page = pages.get(lib);
  if (page) {
    // the page is still on the suite's origin, where the last case left it
    await clearPageStorage(page, { clipboard: true });
  } else {
    page = await newPage(browser, lib);
    pages.set(lib, page);
  }
  await page.goto(`${ORIGIN}/`);
  await page.waitForFunction("window.ready");
  await page.evaluate(`mount(${extra})`);
  await page.waitForSelector(".DocSearch-Button");
  return page;
}

/** A page of `lib` in a browser context of its own, its requests answered by the docs site. */
async function newPage(browser: Browser, lib: Lib): Promise<Page> {
  const context = await browser.newContext({
    viewport: { width: 1280, height: 800 },
    permissions: ["clipboard-read", "clipboard-write"],
  });
  await context.route(`${ORIGIN}/**`, (route) => {
    const [, dir, file] = new URL(route.request().url()).pathname.split("/");
    if (dir === "ours") return route.fulfill({ path: join(site.distDir, file) });
    if (dir === "docsearch") return route.fulfill({ path: join(docsearchDir, file) });
    return route.fulfill({ contentType: "text/html", body: pageHtml(lib) });
  });
  // the hosted search API and Ask AI backend: the docs site answers both libraries
  await context.route(/algolia\.(net|com)\//, async (route) => {
    const request = route.request();
    const cors = {
      "access-control-allow-origin": "*",
      "access-control-allow-headers": "*",
      "access-control-allow-methods": "POST, OPTIONS",
    };
    if (request.method() === "OPTIONS") return route.fulfill({ status: 204, headers: cors });
    const url = new URL(request.url());
    const response = await fetch(`${site.url}${url.pathname}${url.search}`, {
      method: "POST",
      headers: request.headers(),
      body: request.postData(),
    });
    await route.fulfill({
      status: response.status,
      headers: { ...Object.fromEntries(response.headers), ...cors },
      body: Buffer.from(await response.arrayBuffer()),
    });
  });
  return await context.newPage();
}

const MODAL = ".DocSearch-Modal";
const INPUT = ".DocSearch-Input";
const modalOpen = (page: Page) => page.isVisible(MODAL);
const waitOpen = (page: Page, open = true) =>
  page.waitForSelector(MODAL, { state: open ? "visible" : "detached", timeout: 5000 });

/** Opens the modal with the button and waits for its focused input. */
async function openModal(page: Page) {
  await page.click(".DocSearch-Button");
  await page.waitForSelector(`${INPUT}:focus`);
}

/** Types a query that matches (and waits for the hits), or one that does not. */
async function typeQuery(page: Page, query = "search") {
  await page.fill(INPUT, query);
}

/** Visits the first hit of `search`, then reopens the modal on the start screen. */
async function visitFirstHit(page: Page) {
  await openModal(page);
  await typeQuery(page);
  await page.waitForSelector(".DocSearch-Hits .DocSearch-Hit a");
  await Promise.all([
    page.waitForURL(/\/docs\//),
    page.click(".DocSearch-Hits:not(.DocSearch-AskAi-Section) .DocSearch-Hit a >> nth=0"),
  ]);
  await page.waitForFunction("window.ready");
  await page.evaluate("mount()");
  await openModal(page);
  await page.waitForSelector(".DocSearch-Hit-source");
}

/** The row of the first hit of the group titled `title`. */
const firstOf = (page: Page, title: string) =>
  page.locator(`.DocSearch-Hits:has(.DocSearch-Hit-source:has-text("${title}")) .DocSearch-Hit`)
    .first();

/** Leaves the focus on the page's body (Cypress types its keys there). */
const blur = (page: Page) => page.evaluate(() => (document.activeElement as HTMLElement)?.blur());

type Case = [name: string, extra: string, steps: (page: Page) => Promise<void>];

const CASES: Case[] = [
  // api.test.tsx
  ["renders with minimal parameters", "{}", async (page) => {
    assert(await page.locator(".DocSearch").count() > 0);
  }],
  [
    "translations: the button's text and label",
    `{ translations: { button: { buttonText: "Recherche", buttonAriaLabel: "Recherche" } } }`,
    async (page) => {
      assertEquals(await page.textContent(".DocSearch-Button-Placeholder"), "Recherche");
      assertEquals(
        await page.getAttribute(".DocSearch-Button", "aria-label"),
        "Recherche (Control+k)",
      );
    },
  ],
  [
    "translations: the no-results screen, with getMissingResultsUrl's link",
    `{ transformSearchClient: (client) => ({ ...client, search: noResultSearch }),
       getMissingResultsUrl: () => "https://example.com/missing",
       translations: { modal: { noResultsScreen: { noResultsText: "Pas de résultats pour",
         reportMissingResultsText: "Ouvrez une issue", reportMissingResultsLinkText: "Lien du repo" } } } }`,
    async (page) => {
      await openModal(page);
      await typeQuery(page, "q");
      await page.waitForSelector(".DocSearch-NoResults");
      const text = await page.textContent(".DocSearch-NoResults") ?? "";
      assert(text.includes("Pas de résultats pour"), text);
      assert(text.includes("Ouvrez une issue"), text);
      assertEquals(
        await page.getAttribute('.DocSearch-NoResults a:text-is("Lien du repo")', "href"),
        "https://example.com/missing",
      );
    },
  ],
  [
    "translations: the search bar (input label, clear and close buttons)",
    `{ translations: { modal: { searchBox: { searchInputLabel: "Recherche", clearButtonTitle: "Effacer",
       clearButtonAriaLabel: "Effacer la requête", closeButtonText: "Fermer", closeButtonAriaLabel: "Fermer la fenêtre" } } } }`,
    async (page) => {
      await openModal(page);
      assertEquals(await page.textContent(".DocSearch-MagnifierLabel"), "Recherche");
      assertEquals(await page.getAttribute(".DocSearch-Clear", "aria-label"), "Effacer la requête");
      assertEquals((await page.textContent(".DocSearch-Clear"))?.trim(), "Effacer");
      assertEquals(await page.getAttribute(".DocSearch-Close", "aria-label"), "Fermer la fenêtre");
      assertEquals(await page.getAttribute(".DocSearch-Close", "title"), "Fermer");
    },
  ],
  [
    "translations: the footer's texts and its keys' labels",
    `{ translations: { modal: { footer: { closeText: "Pour fermer", closeKeyAriaLabel: "Touche d'échappement",
       navigateText: "Pour naviguer", navigateUpKeyAriaLabel: "Flèche vers le haut",
       navigateDownKeyAriaLabel: "Flèche vers le bas", selectText: "Pour sélectionner",
       selectKeyAriaLabel: "Touche d'entrée", poweredByText: "Propulsé par" } } } }`,
    async (page) => {
      await openModal(page);
      const footer = await page.textContent(".DocSearch-Footer") ?? "";
      for (const text of ["Pour fermer", "Pour naviguer", "Pour sélectionner", "Propulsé par"]) {
        assert(footer.includes(text), `${text} in ${footer}`);
      }
      for (
        const label of [
          "Touche d'échappement",
          "Flèche vers le haut",
          "Flèche vers le bas",
          "Touche d'entrée",
        ]
      ) {
        const selector =
          `.DocSearch-Footer [aria-label="${label}"]:is(.DocSearch-Commands-Key, .DocSearch-Commands-Key *, .DocSearch-Commands-Key + .DocSearch-Label)`;
        assert(await page.locator(selector).count() > 0, label);
      }
    },
  ],
  [
    "getMissingResultsUrl: no link by default",
    `{ transformSearchClient: (client) => ({ ...client, search: noResultSearch }) }`,
    async (page) => {
      await openModal(page);
      await typeQuery(page, "q");
      await page.waitForSelector(".DocSearch-NoResults");
      assert((await page.textContent(".DocSearch-NoResults"))?.includes("No results found for"));
      assertEquals(await page.locator(".DocSearch-NoResults a").count(), 0);
    },
  ],
  [
    "getMissingResultsUrl: the link with the query",
    `{ transformSearchClient: (client) => ({ ...client, search: noResultSearch }),
       getMissingResultsUrl: ({ query }) => "https://github.com/algolia/docsearch/issues/new?title=" + query }`,
    async (page) => {
      await openModal(page);
      await typeQuery(page, "q");
      await page.waitForSelector(".DocSearch-NoResults a");
      assertEquals(
        await page.getAttribute(".DocSearch-NoResults a", "href"),
        "https://github.com/algolia/docsearch/issues/new?title=q",
      );
    },
  ],
  // keyboardShortcuts.test.tsx and DocSearchButton.test.tsx
  ["shortcuts: the Ctrl/Cmd+K hint by default", "{}", async (page) => {
    assert(/\(Control\+k\)/.test(await page.getAttribute(".DocSearch-Button", "aria-label") ?? ""));
    assertEquals(await page.locator(".DocSearch-Button-Keys").count(), 1);
    assertEquals(await page.locator(".DocSearch-Button-Key--ctrl").count(), 1);
  }],
  // Each shortcut on a page of its own (DocSearch 4.7.1 at times misses one pressed again just
  // after its modal closed).
  ["shortcuts: Ctrl+K opens by default", "{}", async (page) => {
    await page.keyboard.press("Control+k");
    await waitOpen(page);
  }],
  ["shortcuts: / opens by default", "{}", async (page) => {
    await blur(page);
    await page.keyboard.press("/");
    await waitOpen(page);
  }],
  [
    "shortcuts: Ctrl/Cmd+K off: no hint, label alone, keys container kept, no Ctrl+K",
    `{ keyboardShortcuts: { "Ctrl/Cmd+K": false } }`,
    async (page) => {
      assertEquals(await page.getAttribute(".DocSearch-Button", "aria-label"), "Search");
      assertEquals(await page.locator(".DocSearch-Button-Keys").count(), 1);
      assertEquals(await page.locator(".DocSearch-Button-Key").count(), 0);
      await page.keyboard.press("Control+k");
      await nextFrames(page);
      assert(!await modalOpen(page));
    },
  ],
  [
    "shortcuts: / off: no /, the hint stays, Ctrl+K works",
    `{ keyboardShortcuts: { "/": false } }`,
    async (page) => {
      assert(
        /\(Control\+k\)/.test(await page.getAttribute(".DocSearch-Button", "aria-label") ?? ""),
      );
      assertEquals(await page.locator(".DocSearch-Button-Key").count(), 2);
      await page.keyboard.press("/");
      await nextFrames(page);
      assert(!await modalOpen(page));
      await page.keyboard.press("Control+k");
      await waitOpen(page);
    },
  ],
  [
    "shortcuts: all off; Escape still closes",
    `{ keyboardShortcuts: { "Ctrl/Cmd+K": false, "/": false } }`,
    async (page) => {
      await page.keyboard.press("Control+k");
      await page.keyboard.press("/");
      await nextFrames(page);
      assert(!await modalOpen(page));
      await openModal(page);
      await page.keyboard.press("Escape");
      await waitOpen(page, false);
    },
  ],
  // imperative.test.tsx (the instance of the script package)
  [
    "instance: isReady after mount, isOpen false; open() and close(); onReady once; onOpen, onClose once each",
    `{ onReady: () => (window.log ??= []).push("ready"), onOpen: () => (window.log ??= []).push("open"),
       onClose: () => (window.log ??= []).push("close") }`,
    async (page) => {
      await page.waitForFunction("window.log?.includes('ready')");
      assertEquals(await page.evaluate("[search.isReady, search.isOpen]"), [true, false]);
      await page.evaluate("search.open()");
      await waitOpen(page);
      await page.waitForFunction("search.isOpen");
      await page.evaluate("search.open()");
      await nextFrames(page);
      await page.evaluate("search.close()");
      await waitOpen(page, false);
      await page.waitForFunction("!search.isOpen");
      await nextFrames(page);
      assertEquals(await page.evaluate("window.log"), ["ready", "open", "close"]);
    },
  ],
  // cypress/e2e/search.spec.ts: Start
  ["open on the button: visible, input focused, page scroll locked", "{}", async (page) => {
    await openModal(page);
    assertEquals(await page.$eval("body", (b) => getComputedStyle(b).overflow), "hidden");
  }],
  // Cypress's {meta}K (caps lock) is left out: in headless Chromium on Linux, DocSearch 4.7.1
  // itself does not open on Playwright's Meta+K
  // Each shortcut on a page of its own: DocSearch 4.7.1 at times misses a shortcut pressed
  // again just after its modal closed (seen with Control+K and / under load), which is not what
  // these cases assert.
  ...(["Control+k", "Control+K", "Meta+k", "/"].map((keys) =>
    [`open with ${keys}`, "{}", async (page: Page) => {
      await blur(page);
      await page.keyboard.press(keys);
      await page.waitForSelector(`${INPUT}:focus`);
    }] as Case
  )),
  // End
  ["close with Escape, a click outside, Ctrl+K, Meta+K", "{}", async (page) => {
    for (const close of ["Escape", "outside", "Control+k", "Meta+k"]) {
      await openModal(page);
      if (close === "outside") await page.mouse.click(5, 5);
      else await page.keyboard.press(close);
      await waitOpen(page, false);
    }
  }],
  // Search
  ["results after a query; the query can be cleared", "{}", async (page) => {
    await openModal(page);
    await typeQuery(page);
    await page.waitForSelector(".DocSearch-Hits");
    await page.click(".DocSearch-Clear");
    await page.waitForSelector(".DocSearch-Hits", { state: "detached" });
    assertEquals(await page.inputValue(INPUT), "");
  }],
  ["keyboard navigation leads to a result", "{}", async (page) => {
    await openModal(page);
    await typeQuery(page);
    await page.waitForSelector(".DocSearch-Hits .DocSearch-Hit a");
    await page.keyboard.press("ArrowDown");
    await page.keyboard.press("ArrowDown");
    await page.keyboard.press("ArrowUp");
    await Promise.all([page.waitForURL(/\/docs\//), page.keyboard.press("Enter")]);
  }],
  ["pointer navigation leads to a result", "{}", async (page) => {
    await openModal(page);
    await typeQuery(page);
    await page.waitForSelector(".DocSearch-Hits .DocSearch-Hit a");
    await Promise.all([
      page.waitForURL(/\/docs\//),
      page.click(".DocSearch-Hits .DocSearch-Hit a >> nth=1"),
    ]);
  }],
  ["no results when the query does not match", "{}", async (page) => {
    await openModal(page);
    await typeQuery(page, "zzzxqj");
    await page.waitForSelector(".DocSearch-NoResults");
    assert((await page.textContent(".DocSearch-NoResults"))?.includes("No results found for"));
  }],
  ["the input has no aria-controls before a query", "{}", async (page) => {
    await openModal(page);
    assertEquals(await page.getAttribute(INPUT, "aria-controls"), null);
  }],
  // Recent and Favorites
  ["a visited result is a recent search", "{}", async (page) => {
    await visitFirstHit(page);
    await firstOf(page, "Recent").waitFor();
  }],
  ["a recent search can be removed", "{}", async (page) => {
    await visitFirstHit(page);
    await firstOf(page, "Recent").locator('[title="Remove this search from history"]').click();
    await page.waitForSelector(".DocSearch-Hits", { state: "detached" });
  }],
  [
    "a recent search can be saved as a favorite, and removed from the favorites",
    "{}",
    async (page) => {
      await visitFirstHit(page);
      await firstOf(page, "Recent").locator('[title="Save this search"]').click();
      await firstOf(page, "Favorite").locator('[title="Remove this search from favorites"]')
        .click();
      await page.waitForSelector(".DocSearch-Hits", { state: "detached" });
    },
  ],
  // cypress/e2e/askai.spec.ts
  [
    "Ask AI: a hit of its own on search; Enter opens the Ask AI screen, the question, the answer",
    `{ askAi: "mikrogql-docs-assistant" }`,
    async (page) => {
      await openModal(page);
      await typeQuery(page);
      await page.waitForSelector(".DocSearch-Hits:not(.DocSearch-AskAi-Section)");
      assert(await page.isVisible(".DocSearch-AskAi-Section"));
      await page.keyboard.press("Enter");
      await page.waitForSelector(".DocSearch-AskAiScreen");
      assertEquals(await page.textContent(".DocSearch-AskAiScreen-Query"), "search");
      await page.waitForSelector(".DocSearch-AskAiScreen-Message .DocSearch-Markdown-Content");
    },
  ],
  [
    "Ask AI: a click on its hit opens it; copy puts the answer on the clipboard",
    `{ askAi: "mikrogql-docs-assistant" }`,
    async (page) => {
      await openModal(page);
      await typeQuery(page);
      await page.waitForSelector(".DocSearch-AskAi-Section .DocSearch-Hit");
      await page.click(".DocSearch-AskAi-Section .DocSearch-Hit");
      await page.waitForSelector(".DocSearch-AskAiScreen-Response");
      await page.waitForSelector(".DocSearch-AskAiScreen-CopyButton");
      await page.click(".DocSearch-AskAiScreen-CopyButton");
      await page.waitForFunction(async () => (await navigator.clipboard.readText()).length > 0);
    },
  ],
];

browserTest(
  "DocSearch's v4 test suites, on DocSearch 4.7.1 and on ours",
  site,
  async (t, browser) => {
    // SUITES_ONLY=<text>: only the cases whose name holds it
    const only = Deno.env.get("SUITES_ONLY");
    for (const [name, extra, steps] of CASES.filter(([name]) => !only || name.includes(only))) {
      await t.step(name, async (t) => {
        for (const lib of ["docsearch", "ours"] as const) {
          await t.step(lib, async () => await steps(await open(browser, lib, extra)));
        }
      });
    }
    for (const page of pages.values()) await page.context().close();
  },
);
