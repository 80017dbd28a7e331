/// <reference lib="dom" />
/**
 * The search box looks like DocSearch v4: our modal and
 * `@docsearch/js` 4.x (a dev-only dependency, bundled from
 * `fixtures/docsearch_v4.ts`, with `@docsearch/css`) render the same hits in
 * Chromium at 1280×800 and 390×844, light and dark, and the no-results
 * screen; their layout metrics (button size, modal width and position, search
 * bar and input height, hit row heights, group title and footer positions)
 * agree within 2 px, and so does their look (the active hit's tint, the group
 * titles' colour, ↵ on the active hit only, the footer's labels). The Ask AI
 * screen too, both asking the docs site's Ask AI stand-in (in place of the
 * hosted backend) the same question: the disclaimer, the card and its
 * question heading, the answer's text box, the actions at the card's right,
 * the sources' title and first chip, the footer and its labels. Both
 * screenshots are saved in a folder the test prints.
 *
 * Pixel parity: every pair of screenshots (the button, the start screen,
 * results, no results, Ask AI; two viewports, two themes) is also compared
 * with a perceptual diff (`pixelmatch`, per-pixel YIQ threshold 0.1,
 * anti-aliased pixels not counted); the share of differing pixels, printed
 * per screen, must stay under {@link PIXEL_THRESHOLDS} (the differences we
 * keep on purpose, listed there). A failing pair's diff image is saved beside
 * its screenshots.
 */
import { Buffer } from "node:buffer";
import { assert, assertEquals } from "@std/assert";
import { join } from "@std/path";
import type { Browser, Page } from "playwright-core";
import { clearPageStorage, launchBrowser } from "../support/browser.ts";
import { startDocsSite } from "../support/docs_site.ts";
import { buildDocSearch } from "../support/docsearch_v4.ts";
import { DEFAULT_SEARCH_PARAMETERS } from "../../widget/search.ts";
import pixelmatch from "pixelmatch";
import { PNG } from "pngjs";

const ORIGIN = "http://visual.test";
const QUERY = "search";
const NO_RESULTS = "zzzxqj";
const TOLERANCE_PX = 2;

/**
 * The largest share of differing pixels (pixelmatch) accepted per screen, whole page, at
 * [1280x800, 390x844] (light and dark alike), set a little above what the test measures (it
 * prints the figures). What differs on purpose: no backdrop blur behind the overlay (it made
 * painting the results about 3x slower, bench/keystroke.ts): the page behind differs wherever
 * the overlay covers text; the start screen without recent searches shows "No recent searches"
 * at the modal's height (the spec's `startScreen.noRecentSearchesText`) where DocSearch 4.7.1
 * collapses the modal to its search bar and footer (most of the 1280x800 start screen's 37 %);
 * our footer's "Powered by" text; the Ask AI screen's "Searched for" line, which stays once the
 * answer streams (as DocSearch's tests after 4.7.0 expect; 4.7.1 drops it), so the answer below
 * sits 40 px lower (its text and code pills, most of the Ask AI share, more in dark); the hit icons
 * (ours are stroked 20 px SVGs of our own); the Sidepanel's screens (ours is the search box's Ask
 * AI view in a panel with an input for DocSearch's auto-growing textarea, which is two lines tall
 * at 1280 px, with a disclaimer under it; its header's buttons and new-conversation screen).
 */
const PIXEL_THRESHOLDS: Record<string, [number, number]> = {
  button: [0.001, 0.001],
  start: [0.38, 0.007],
  results: [0.002, 0.005],
  "no-results": [0.003, 0.008],
  "ask-ai": [0.035, 0.1],
  sidepanel: [0.025, 0.035],
};

/** Two PNG screenshots of one size, decoded. */
function decodePair(a: Uint8Array, b: Uint8Array): [PNG, PNG] {
  const left = PNG.sync.read(Buffer.from(a));
  const right = PNG.sync.read(Buffer.from(b));
  assertEquals([right.width, right.height], [left.width, left.height], "screenshots of one size");
  return [left, right];
}

/**
 * Asserts the pixel diff of `screen`'s screenshots against its threshold; prints the share. Both
 * screenshots are saved as taken (`<name>-ours.png`, `<name>-docsearch.png`); a failing pair also
 * gets its diff image (`<name>-diff.png`), encoded only then (pngjs's encoder costs more CPU than
 * the comparison).
 */
async function assertPixels(name: string, screen: string, ours: Uint8Array, theirs: Uint8Array) {
  await Deno.writeFile(join(shots, `${name}-ours.png`), ours);
  await Deno.writeFile(join(shots, `${name}-docsearch.png`), theirs);
  const [left, right] = decodePair(ours, theirs);
  const { width, height } = left;
  const share = pixelmatch(left.data, right.data, undefined, width, height, { threshold: 0.1 }) /
    (width * height);
  const threshold = PIXEL_THRESHOLDS[screen][name.startsWith("1280x") ? 0 : 1];
  console.log(
    `pixel diff ${name}: ${(share * 100).toFixed(2)}% (threshold ${(threshold * 100).toFixed(2)}%)`,
  );
  if (share <= threshold) return;
  const diff = new PNG({ width, height });
  pixelmatch(left.data, right.data, diff.data, width, height, { threshold: 0.1 });
  await Deno.writeFile(join(shots, `${name}-diff.png`), PNG.sync.write(diff));
  assert(
    false,
    `${name}: ${(share * 100).toFixed(2)}% of the pixels differ; see ${shots}/${name}-diff.png`,
  );
}

/**
 * The Ask AI stand-in's answer to both: the Markdown an assistant writes, with bold, inline code
 * (DocSearch sets it on a pill), a list and links.
 */
const ANSWER = `Here is what the documentation says about \`search\`:

- **Adding the search box to a page**: pass \`transformSearchClient\` to send the search to another server ([Adding the search box to a page](/docs/guides/search-box.html#pointing-the-search-box-at-another-server))
- **Translations**: \`modal.searchBox\` holds the clear and close button texts and the placeholder ([Translations](/docs/reference/translations.html#search-bar-texts))
- **Rendering results**: \`hitComponent\` renders a hit, and \`resultsFooterComponent\` the line under the results ([Search box options](/docs/reference/options.html))

For more, see [Adding the search box to a page](/docs/guides/search-box.html).`;

const site = await startDocsSite({ askAiFaults: { answer: ANSWER } });
const docsearchDir = await buildDocSearch();
const shots = await Deno.makeTempDir({ prefix: "searchbox-visual-" });
console.log(`visual test screenshots (ours | DocSearch v4): ${shots}`);
let browser: Browser;

/** The page of `lib`: a header with the search box, the same options for both. */
function pageHtml(lib: "ours" | "docsearch", dark: boolean, askAi: boolean): string {
  const head = lib === "ours"
    ? `<link rel="stylesheet" href="/ours/style.css">`
    : `<link rel="stylesheet" href="/docsearch/style.css"><script src="/docsearch/docsearch.js"></script>`;
  const start = lib === "ours"
    ? `<script type="module">import searchBox from "/ours/searchbox.js"; searchBox(options);</script>`
    : `<script>docsearch(options)</script>`;
  return `<!doctype html><html lang="en"${
    dark ? ' data-theme="dark"' : ""
  }><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>${lib}</title>${head}
<style>body{margin:0;font-family:system-ui,sans-serif}#top{display:flex;padding:8px 16px}</style></head>
<body><div id="top"><div id="search"></div></div><main><p>Page</p></main>
<script>var options = { container: "#search", appId: "APP", apiKey: "KEY", indices: ["docs"]${
    askAi ? `, askAi: "mikrogql-docs-assistant"` : ""
  } };</script>
${start}</body></html>`;
}

/** One answer per query, fetched once from the docs site's search API and given to both. */
const answers = new Map<string, Promise<{ status: number; body: string }>>();

/** Each library's page in the current browser and the HTML its next load gets (see `openPage`). */
const pages = new Map<Browser, Map<"ours" | "docsearch", { page: Page; html: string }>>();

/**
 * `lib`'s page, at `viewport`, loaded with `html` on fresh storage. One page per library serves
 * every screen: a new page costs a renderer process (about 0.6 s of CPU on the CI machine); what
 * the last screen left behind (storage, listeners) is cleared before the page is loaded again.
 */
async function openPage(
  lib: "ours" | "docsearch",
  viewport: { width: number; height: number },
  dark: boolean,
  askAi = false,
  html = pageHtml(lib, dark, askAi),
): Promise<Page> {
  const ofBrowser = pages.get(browser) ?? new Map();
  pages.set(browser, ofBrowser);
  const reused = ofBrowser.get(lib);
  if (reused) {
    const { page } = reused;
    reused.html = html;
    page.removeAllListeners();
    // still on the test's origin, where the last screen left it
    await clearPageStorage(page);
    await page.setViewportSize(viewport);
    await page.goto(`${ORIGIN}/`);
    await page.waitForSelector(".DocSearch-Button, .DocSearch-SidepanelButton");
    return page;
  }
  const page = await browser.newPage({ viewport });
  const entry = { page, html };
  ofBrowser.set(lib, entry);
  // both ask the hosted Ask AI backend: the docs site's stand-in answers (one answer per question)
  await page.route("https://askai.algolia.com/**", async (route) => {
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
  await page.route(`${ORIGIN}/**`, (route) => {
    const path = new URL(route.request().url()).pathname;
    if (path === "/") {
      return route.fulfill({ contentType: "text/html", body: entry.html });
    }
    const [, dir, file] = path.split("/");
    const root = dir === "ours" ? site.distDir : docsearchDir;
    return route.fulfill({ path: join(root, file) });
  });
  await page.route(/\/1\/indexes\/(\*|%2A)\/queries/, async (route) => {
    const { requests } = JSON.parse(route.request().postData() ?? "{}");
    const query = requests?.[0]?.query ?? "";
    if (!answers.has(query)) {
      answers.set(
        query,
        fetch(`${site.url}/1/indexes/*/queries`, {
          method: "POST",
          body: JSON.stringify({
            requests: [{ ...DEFAULT_SEARCH_PARAMETERS, indexName: "mikrogql-docs", query }],
          }),
        }).then(async (r) => ({ status: r.status, body: await r.text() })),
      );
    }
    const answer = await answers.get(query)!;
    await route.fulfill({
      status: answer.status,
      contentType: "application/json",
      headers: { "access-control-allow-origin": "*" },
      body: answer.body,
    });
  });
  await page.goto(`${ORIGIN}/`);
  await page.waitForSelector(".DocSearch-Button, .DocSearch-SidepanelButton");
  return page;
}

/** A page with the Sidepanel of `lib` (ours: `sidepanel.js`; DocSearch's: `@docsearch/sidepanel-js` 4.7.0). */
function sidePanelHtml(lib: "ours" | "docsearch", dark: boolean): string {
  const mount = lib === "ours"
    ? `import { sidePanel } from "/ours/sidepanel.js";
sidePanel({ container: "#search", appId: "APP", apiKey: "KEY", indices: ["docs"],
  askAi: "mikrogql-docs-assistant", theme: "${dark ? "dark" : "light"}" });`
    : `import sidepanel from "/docsearch/sidepanel.mjs";
sidepanel({ container: "#search", appId: "APP", apiKey: "KEY", indexName: "docs",
  assistantId: "mikrogql-docs-assistant", theme: "${dark ? "dark" : "light"}" });`;
  return `<!doctype html><html lang="en"${dark ? ' data-theme="dark"' : ""}><head>
<meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${lib}</title><link rel="stylesheet" href="/${lib}/${
    lib === "ours" ? "style.css" : "sidepanel.css"
  }">
<style>body{margin:0;font-family:system-ui,sans-serif}#top{display:flex;padding:8px 16px}</style></head>
<body><div id="top"><div id="search"></div></div><main><p>Page</p></main>
<script type="module">${mount}</script></body></html>`;
}

type Box = [number, number, number, number];

/** The layout metrics compared with DocSearch's, rounded to 0.1 px. */
async function metrics(page: Page) {
  const box = (selector: string, all = false) =>
    page.$$eval(selector, (elements, all) =>
      elements.slice(0, all ? 6 : 1).map((e) => {
        const r = e.getBoundingClientRect();
        return [r.left, r.top, r.width, r.height].map((v) => Math.round(v * 10) / 10);
      }), all) as Promise<Box[]>;
  return {
    look: await page.evaluate(() => {
      const style = (selector: string) => {
        const e = document.querySelector(selector);
        return e && getComputedStyle(e);
      };
      const visible = (selector: string) =>
        [...document.querySelectorAll(selector)].filter((e) => e.getClientRects().length > 0)
          .length;
      return {
        activeHit: style('.DocSearch-Hit[aria-selected="true"] a')?.backgroundColor,
        hit: style('.DocSearch-Hit[aria-selected="false"] a')?.backgroundColor,
        groupTitle: style(".DocSearch-Hit-source")?.color,
        modal: style(".DocSearch-Modal")?.backgroundColor,
        enterKeys: visible(".DocSearch-Hit-action svg"),
        footer: [...document.querySelectorAll(".DocSearch-Commands .DocSearch-Label")]
          .map((e) => e.textContent),
      };
    }),
    button: (await box(".DocSearch-Button"))[0],
    modal: (await box(".DocSearch-Modal"))[0],
    searchBar: (await box(".DocSearch-Form"))[0],
    input: (await box(".DocSearch-Input"))[0],
    hitRows: await box(".DocSearch-Hit", true),
    groupTitles: await box(".DocSearch-Hit-source", true),
    footer: (await box(".DocSearch-Footer"))[0],
  };
}

type Metrics = Awaited<ReturnType<typeof metrics>>;

/** Renders `lib` with the answer to `query`; returns its metrics and screenshot. */
async function render(
  lib: "ours" | "docsearch",
  viewport: { width: number; height: number },
  dark: boolean,
  query: string,
  screen: string,
): Promise<{ metrics: Metrics; png: Uint8Array; buttonPng: Uint8Array }> {
  const page = await openPage(lib, viewport, dark);
  const button = (await metrics(page)).button;
  await page.evaluate(() => document.fonts.ready);
  const buttonPng = await page.screenshot();
  await page.click(".DocSearch-Button");
  await page.fill(".DocSearch-Input", query);
  await page.waitForSelector(screen);
  await page.mouse.move(0, 0);
  await page.evaluate(() => document.fonts.ready);
  const result = { ...await metrics(page), button };
  const png = await page.screenshot();
  return { metrics: result, png, buttonPng };
}

/** The differences larger than the tolerance, as readable lines. */
function differences(ours: Metrics, theirs: Metrics): string[] {
  const lines: string[] = [];
  const names = ["x", "y", "width", "height"];
  if (JSON.stringify(ours.look) !== JSON.stringify(theirs.look)) {
    lines.push(`look: ours ${JSON.stringify(ours.look)}, DocSearch ${JSON.stringify(theirs.look)}`);
  }
  for (const key of Object.keys(theirs) as Array<keyof Metrics>) {
    if (key === "look") continue;
    const a = ours[key] as Box | Box[];
    const b = theirs[key] as Box | Box[];
    const rowsA = (Array.isArray(a[0]) ? a : [a]) as Box[];
    const rowsB = (Array.isArray(b[0]) ? b : [b]) as Box[];
    if (rowsA.length !== rowsB.length) {
      lines.push(`${key}: ${rowsA.length} elements, DocSearch ${rowsB.length}`);
    }
    for (let i = 0; i < Math.min(rowsA.length, rowsB.length); i++) {
      for (let j = 0; j < 4; j++) {
        if (Math.abs(rowsA[i][j] - rowsB[i][j]) > TOLERANCE_PX) {
          lines.push(`${key}[${i}].${names[j]}: ours ${rowsA[i][j]}, DocSearch ${rowsB[i][j]}`);
        }
      }
    }
  }
  return lines;
}

/**
 * The Ask AI screen's layout metrics: the disclaimer, the card, the question heading it, the
 * answer's text box (its left edge and width: the Markdown of the two differs in margins), the
 * actions (their size and right edge), the sources' title and first chip (left edge, size), the
 * footer with its labels, and the look of the answer (inline code's pill colour, the links' and
 * the question's weights).
 */
async function askAiMetrics(page: Page) {
  return await page.evaluate(() => {
    const box = (selector: string) => {
      const e = document.querySelector(selector);
      if (!e) return null;
      const r = e.getBoundingClientRect();
      return [r.left, r.top, r.width, r.height].map((v) => Math.round(v * 10) / 10);
    };
    const card = box(".DocSearch-AskAiScreen-Response")!;
    const actions = box(".DocSearch-AskAiScreen-Actions")!;
    const chip = box(".DocSearch-AskAiScreen-RelatedSources-Item-Link")!;
    const title = box(".DocSearch-AskAiScreen-RelatedSources-Title")!;
    const text = box(".DocSearch-Markdown-Content")!;
    const style = (selector: string) => getComputedStyle(document.querySelector(selector)!);
    return {
      labels: [...document.querySelectorAll(".DocSearch-Commands .DocSearch-Label")]
        .map((e) => e.textContent),
      // inline code on its pill, links and question in DocSearch's weights
      styles: [
        style(".DocSearch-Markdown-Content code").backgroundColor,
        style(".DocSearch-Markdown-Content a").fontWeight,
        style(".DocSearch-AskAiScreen-Query").fontWeight,
      ],
      disclaimer: box(".DocSearch-AskAiScreen-Disclaimer"),
      card: card.slice(0, 3),
      question: box(".DocSearch-AskAiScreen-Query"),
      text: [text[0], text[2]],
      // right edge and size of the actions, relative to the card
      actions: [card[0] + card[2] - (actions[0] + actions[2]), actions[2], actions[3]],
      // the sources below the card: the title's and the first chip's offset and size
      sourcesTitle: [title[0], title[3]],
      chip: [chip[0], chip[3]],
      footer: box(".DocSearch-Footer"),
    };
  });
}

Deno.test({
  name: "the Ask AI screen is laid out as DocSearch v4's in Chromium (within 2 px)",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn(t) {
    browser = await launchBrowser();
    try {
      for (const viewport of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
        for (const dark of [false, true]) {
          const name = `${viewport.width}x${viewport.height}-${dark ? "dark" : "light"}-ask-ai`;
          await t.step(name, async () => {
            const shot = async (lib: "ours" | "docsearch") => {
              const page = await openPage(lib, viewport, dark, true);
              const errors: string[] = [];
              page.on("pageerror", (error) => errors.push(error.message));
              await page.click(".DocSearch-Button");
              await page.fill(".DocSearch-Input", QUERY);
              await page.waitForSelector(
                '.DocSearch-Hit[aria-selected="true"] .DocSearch-Hit--AskAI',
              );
              await page.keyboard.press("Enter");
              await page.waitForSelector(".DocSearch-AskAiScreen-RelatedSources-Item-Link");
              await page.waitForSelector(".DocSearch-AskAiScreen-Actions");
              await page.mouse.move(0, 0);
              await page.evaluate(() => document.fonts.ready);
              const metrics = await askAiMetrics(page);
              assertEquals(errors, [], `${lib}: no uncaught error`);
              const png = await page.screenshot();
              return { metrics, png };
            };
            const ours = await shot("ours");
            const theirs = await shot("docsearch");
            await assertPixels(name, "ask-ai", ours.png, theirs.png);
            const lines: string[] = [];
            for (const [key, value] of Object.entries(theirs.metrics)) {
              const mine = ours.metrics[key as keyof typeof ours.metrics] as unknown;
              if (key === "labels" || key === "styles") {
                if (JSON.stringify(mine) !== JSON.stringify(value)) {
                  lines.push(
                    `${key}: ours ${JSON.stringify(mine)}, DocSearch ${JSON.stringify(value)}`,
                  );
                }
                continue;
              }
              const a = mine as number[];
              const b = value as number[];
              b.forEach((v, i) => {
                if (Math.abs(a[i] - v) > TOLERANCE_PX) {
                  lines.push(`${key}[${i}]: ours ${a[i]}, DocSearch ${v}`);
                }
              });
            }
            assertEquals(lines, [], `see ${shots}/${name}-ours.png and -docsearch.png`);
          });
        }
      }
    } finally {
      await browser.close();
    }
  },
});

Deno.test({
  name: "the Sidepanel looks like @docsearch/sidepanel-js 4.7.0's in Chromium (pixels)",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn(t) {
    browser = await launchBrowser();
    try {
      for (const viewport of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
        for (const dark of [false, true]) {
          const name = `${viewport.width}x${viewport.height}-${dark ? "dark" : "light"}-sidepanel`;
          await t.step(name, async () => {
            const shot = async (lib: "ours" | "docsearch") => {
              const page = await openPage(lib, viewport, dark, true, sidePanelHtml(lib, dark));
              await page.click(".DocSearch-SidepanelButton");
              await page.waitForSelector(".DocSearch-Sidepanel :is(input, textarea)");
              await page.mouse.move(0, 0);
              await page.evaluate(() => document.fonts.ready);
              // the panel's opening transition
              await page.evaluate(() =>
                Promise.all(document.getAnimations().map((a) => a.finished))
              );
              return await page.screenshot();
            };
            const ours = await shot("ours");
            const theirs = await shot("docsearch");
            await assertPixels(name, "sidepanel", ours, theirs);
          });
        }
      }
    } finally {
      await browser.close();
    }
  },
});

Deno.test({
  name: "search box looks like DocSearch v4 in Chromium (layout metrics within 2 px)",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn(t) {
    browser = await launchBrowser();
    try {
      const cases = [
        ...[false, true].map((dark) => ({ dark, query: QUERY, screen: ".DocSearch-Hit-source" })),
        // the no-results screen keeps the modal's height, with its icon
        ...[false, true].map((dark) => ({
          dark,
          query: NO_RESULTS,
          screen: ".DocSearch-NoResults svg",
        })),
        // the start screen (no recent search): pixels only
        ...[false, true].map((dark) => ({ dark, query: "", screen: ".DocSearch-Footer" })),
      ];
      for (const viewport of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
        for (const { dark, query, screen } of cases) {
          const kind = query === NO_RESULTS ? "no-results" : query === "" ? "start" : "results";
          const name = `${viewport.width}x${viewport.height}-${dark ? "dark" : "light"}-${kind}`;
          await t.step(name, async () => {
            const ours = await render("ours", viewport, dark, query, screen);
            const theirs = await render("docsearch", viewport, dark, query, screen);
            await assertPixels(name, kind, ours.png, theirs.png);
            if (kind === "results") {
              await assertPixels(
                name.replace("results", "button"),
                "button",
                ours.buttonPng,
                theirs.buttonPng,
              );
            }
            if (kind === "start") return; // pixels only: the metrics read the hit rows
            if (query === QUERY) {
              const { look } = ours.metrics;
              assertEquals(look.enterKeys, 1, "↵ on the active hit only");
              assert(look.activeHit && look.activeHit !== look.hit, "the active hit is tinted");
            }
            assertEquals(
              differences(ours.metrics, theirs.metrics),
              [],
              `see ${shots}/${name}-ours.png and -docsearch.png`,
            );
          });
        }
      }
    } finally {
      await browser.close();
      await site.close();
    }
  },
});
