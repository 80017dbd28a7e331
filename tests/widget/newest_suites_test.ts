/// <reference lib="dom" />
/**
 * The behaviours DocSearch's newest tests assert (algolia/docsearch main after
 * v4.7.0: docsearch-react's `__tests__` — api, resultsScreen, keyboardShortcuts,
 * FeedbackActions, askai, ToolCall, useAskAi —, docsearch-core and the e2e
 * specs), re-expressed on our script package in Chromium against the docs
 * site (its search API holding the records below, its Ask AI stand-in). Where
 * we are deliberately safer than DocSearch (a `javascript:`/`data:`/`vbscript:`
 * hit URL: DocSearch runs it), the case asserts our behaviour.
 */
import { assert, assertEquals, assertStringIncludes } from "@std/assert";
import type { Browser, Page } from "playwright-core";
import { browserTest, nextFrames } from "../support/browser.ts";
import { startDocsSite } from "../support/docs_site.ts";
import type { DocSearchRecord } from "../../examples/docs-site/records.ts";
import type { AskAiFaults, AskAiRequestLog } from "../../examples/docs-site/ask_ai_api.ts";

const record = (
  objectID: string,
  url: string,
  type: DocSearchRecord["type"],
  lvl0: string,
  lvl1: string,
  lvl2: string | null = null,
): DocSearchRecord => ({
  objectID,
  url,
  anchor: null,
  type,
  content: null,
  hierarchy: { lvl0, lvl1, lvl2, lvl3: null, lvl4: null, lvl5: null, lvl6: null },
});

/** Hits of unsafe URLs (query `quokka`), entity-encoded text (`numbat`), one page with two sections (`wombat`). */
const RECORDS: DocSearchRecord[] = [
  record("js-url", "javascript:window.__ran='javascript'", "lvl1", "Unsafe", "Quokka script link"),
  record(
    "data-url",
    "data:text/html,<script>alert(1)</script>",
    "lvl1",
    "Unsafe",
    "Quokka data link",
  ),
  record("vb-url", " VBScript:msgbox(1)", "lvl1", "Unsafe", "Quokka vbscript link"),
  record(
    "entities",
    "/docs/guides/getting-started.html#entities",
    "lvl1",
    "Guides &amp; tips",
    "Numbat Q&amp;A about &lt;DocSearch /&gt; &lt;img src=x onerror=&quot;window.__ran='img'&quot;&gt;",
  ),
  record("page", "/docs/guides/wombat.html", "lvl1", "Wombats", "Wombat page"),
  record("s1", "/docs/guides/wombat.html#one", "lvl2", "Wombats", "Wombat page", "Wombat one"),
  record("s2", "/docs/guides/wombat.html#two", "lvl2", "Wombats", "Wombat page", "Wombat two"),
];

const askAiFaults: AskAiFaults = {};
const log: AskAiRequestLog[] = [];
const site = await startDocsSite({ extraRecords: RECORDS, askAiFaults, askAiLog: log });

const INPUT = ".DocSearch-Input";
const HIT = ".DocSearch-Hit";

/** A fresh page (own storage) with the docs site's search box; `askAi` off unless `extra` sets it. */
async function mount(browser: Browser, extra = "askAi: undefined"): Promise<Page> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`${site.url}/?manual`);
  await page.waitForFunction(() => "searchBox" in globalThis);
  await page.evaluate(`searchBox({ ...docsSearchOptions, ${extra} })`);
  await page.waitForSelector(".DocSearch-Button");
  return page;
}

async function search(page: Page, query: string) {
  if (!await page.isVisible(".DocSearch-Modal")) await page.click(".DocSearch-Button");
  await page.fill(INPUT, query);
  await page.waitForSelector(`${HIT}:has-text("${query}")`);
}

const ran = (page: Page) => page.evaluate(() => (window as { __ran?: string }).__ran ?? null);

/** A stored hit (recent or favorite) in DocSearch's shape. */
const stored = (objectID: string, url: string) => ({
  objectID,
  url,
  type: "lvl1",
  content: null,
  anchor: null,
  hierarchy: {
    lvl0: "Stored",
    lvl1: `Stored ${objectID}`,
    lvl2: null,
    lvl3: null,
    lvl4: null,
    lvl5: null,
    lvl6: null,
  },
});

browserTest("DocSearch's newest tests, re-expressed, in Chromium", site, async (t, browser) => {
  await t.step(
    "a javascript:/data:/vbscript: hit runs nothing on click or Enter and is not stored (safer than DocSearch)",
    async () => {
      const page = await mount(browser);
      await search(page, "Quokka");
      const rows = page.locator(`${HIT}:has-text("Quokka")`);
      assertEquals(await rows.count(), 3);
      assertEquals(
        await page.$$eval(
          `${HIT} a`,
          (links) => links.filter((a) => a.hasAttribute("href")).length,
        ),
        0,
        "no unsafe href in the page",
      );
      for (let i = 0; i < 3; i++) await rows.nth(i).locator("a").click();
      await page.keyboard.press("Enter");
      await nextFrames(page);
      assertEquals(await ran(page), null);
      assertEquals(page.url(), `${site.url}/?manual`);
      await page.fill(INPUT, "");
      await page.waitForSelector(".DocSearch-StartScreen");
      assertEquals(await page.locator(".DocSearch-Hit").count(), 0, "nothing stored as recent");
      await page.context().close();
    },
  );

  await t.step("a hitComponent gets an unsafe hit without its URL", async () => {
    const page = await mount(
      browser,
      'askAi: undefined, hitComponent: ({ hit, children }) => html`<a class="mine" href=${hit.url}>${children}</a>`',
    );
    await search(page, "Quokka");
    const hrefs = await page.$$eval(
      `${HIT}:has-text("Quokka") a.mine`,
      (links) => links.map((a) => a.getAttribute("href")),
    );
    assertEquals(hrefs, ["", "", ""]);
    await page.context().close();
  });

  await t.step("unsafe recents and favorites (stored by DocSearch) are not shown", async () => {
    const page = await mount(browser);
    await page.evaluate((hits) => {
      localStorage.setItem("__DOCSEARCH_RECENT_SEARCHES__mikrogql-docs", JSON.stringify(hits));
      localStorage.setItem("__DOCSEARCH_FAVORITE_SEARCHES__mikrogql-docs", JSON.stringify(hits));
    }, [
      stored("bad", "javascript:window.__ran='recent'"),
      stored("worse", "JAVA\tSCRIPT:window.__ran='recent'"),
      stored("good", "/docs/guides/getting-started.html"),
    ]);
    await page.click(".DocSearch-Button");
    await page.waitForSelector(`${HIT}:has-text("Stored good")`);
    const titles = await page.$$eval(".DocSearch-Hit-title", (e) => e.map((x) => x.textContent));
    assertEquals(titles, ["Stored good", "Stored good"]);
    await page.keyboard.press("Enter");
    await page.waitForURL(/getting-started/);
    assertEquals(await ran(page), null);
    await page.context().close();
  });

  await t.step("entity-encoded record text is shown decoded, as text", async () => {
    const page = await mount(browser);
    await search(page, "Numbat");
    assertEquals(
      await page.textContent(`${HIT}:has-text("Numbat") .DocSearch-Hit-title`),
      `Numbat Q&A about <DocSearch /> <img src=x onerror="window.__ran='img'">`,
    );
    assertEquals(
      await page.textContent(
        `.DocSearch-Hits:has(${HIT}:has-text("Numbat")) .DocSearch-Hit-source`,
      ),
      "Guides & tips",
    );
    assertEquals(await page.locator(".DocSearch-Modal img, .DocSearch-Modal docsearch").count(), 0);
    await nextFrames(page);
    assertEquals(await ran(page), null);
    await page.context().close();
  });

  await t.step(
    "the hierarchy's last child has the end connector (resultsScreen.test)",
    async () => {
      const page = await mount(browser);
      await search(page, "Wombat");
      await page.waitForSelector(`${HIT}:has-text("Wombat two")`);
      assertEquals(
        await page.$$eval(
          ".DocSearch-Hit-Tree path",
          (paths) => paths.map((p) => p.getAttribute("d")),
        ),
        ["M8 6v42M20 27H8.3", "M8 6v21M20 27H8.3"],
      );
      await page.context().close();
    },
  );

  await t.step("`/` opens the modal while a button of the page has focus", async () => {
    const page = await mount(browser);
    await page.evaluate(() => {
      const button = document.createElement("button");
      button.id = "page-button";
      button.textContent = "A page button";
      document.body.append(button);
      button.focus();
    });
    await page.keyboard.press("/");
    await page.waitForSelector(`${INPUT}:focus`);
    assertEquals(await page.inputValue(INPUT), "", "the slash is not typed");
    await page.context().close();
  });

  await t.step("text selected on the page is the initial query", async () => {
    const page = await mount(browser);
    await page.evaluate(() => {
      const p = document.createElement("p");
      p.textContent = "Wombat one";
      document.body.append(p);
      getSelection()!.selectAllChildren(p);
    });
    await page.keyboard.press("Control+k");
    await page.waitForSelector(`${HIT}:has-text("Wombat one")`);
    assertEquals(await page.inputValue(INPUT), "Wombat one");
    await page.keyboard.press("Escape");
    await page.evaluate(() => getSelection()!.removeAllRanges());
    await page.keyboard.press("Control+k");
    await page.waitForSelector(`${INPUT}:focus`);
    assertEquals(await page.inputValue(INPUT), "", "no selection: empty");
    await page.context().close();
  });

  // Ask AI: the docs site's stand-in
  const askAi = `askAi: docsSearchOptions.askAi`;
  const ask = async (page: Page, question: string) => {
    if (!await page.isVisible(".DocSearch-Modal")) await page.click(".DocSearch-Button");
    await page.fill(INPUT, question);
    await page.waitForSelector(`.DocSearch-Hit[aria-selected="true"] .DocSearch-Hit--AskAI`);
    await page.keyboard.press("Enter");
    await page.waitForSelector(".DocSearch-AskAiScreen");
  };
  const settled = (page: Page) =>
    page.waitForSelector(`${INPUT}:not([disabled])`, { timeout: 20_000 });

  await t.step(
    "a failed feedback request shows its error, not the thanks; a later one thanks and is stored",
    async () => {
      const page = await mount(browser, askAi);
      let fail = true;
      await page.route("**/chat/feedback", (route) =>
        fail
          ? route.fulfill({
            status: 500,
            contentType: "application/json",
            body: JSON.stringify({ message: "Network down" }),
          })
          : route.fallback());
      await ask(page, "install");
      await settled(page);
      await page.click(".DocSearch-AskAiScreen-LikeButton");
      await page.waitForSelector(`.DocSearch-AskAiScreen-FeedbackError:has-text("Network down")`);
      assert(!(await page.textContent(".DocSearch-AskAiScreen-Actions"))!.includes("Thanks"));
      assert(await page.isVisible(".DocSearch-AskAiScreen-LikeButton"), "the buttons stay");
      fail = false;
      await page.click(".DocSearch-AskAiScreen-LikeButton");
      await page.waitForSelector(`.DocSearch-AskAiScreen-FeedbackText:has-text("Thanks")`);
      assertEquals(await page.locator(".DocSearch-AskAiScreen-FeedbackError").count(), 0);
      const feedback = await page.evaluate(() =>
        JSON.parse(localStorage.getItem("__DOCSEARCH_ASKAI_CONVERSATIONS__mikrogql-docs")!)[0]
          .messages.map((m: { feedback?: string }) => m.feedback ?? null)
      );
      assertEquals(feedback, [null, "like"], "stored as DocSearch stores it");
      await page.context().close();
    },
  );

  await t.step("the stop button has DocSearch's classes and stops the answer", async () => {
    const page = await mount(browser, askAi);
    askAiFaults.delayMs = 200;
    try {
      await ask(page, "install");
      await page.waitForSelector(".DocSearch-Actions .DocSearch-Action.DocSearch-StopStreaming");
      await page.click(".DocSearch-StopStreaming");
      await page.waitForSelector(".DocSearch-AskAiScreen-Stopped");
      assertEquals(await page.locator(".DocSearch-StopStreaming").count(), 0);
    } finally {
      delete askAiFaults.delayMs;
    }
    await page.context().close();
  });

  for (const code of ["AI-203", "AI-205", "AI-224", "AI-225"]) {
    await t.step(
      `a blocking error (${code}) disables the input until a new conversation`,
      async () => {
        const page = await mount(browser, askAi);
        askAiFaults.chatStatus = 429;
        askAiFaults.chatMessage = `Too many requests (${code})`;
        try {
          await ask(page, "install");
          await page.waitForSelector(".DocSearch-AskAiScreen-Error--ThreadDepth");
          assert(await page.isDisabled(INPUT), "the input is not usable");
        } finally {
          delete askAiFaults.chatStatus;
          delete askAiFaults.chatMessage;
        }
        await page.click(".DocSearch-ThreadDepthError-Link");
        await page.waitForSelector(`${INPUT}:not([disabled])`);
        await page.context().close();
      },
    );
  }

  await t.step(
    "conversations under DocSearch's key and shape; its own entries listed",
    async () => {
      const page = await mount(browser, askAi);
      await page.evaluate(() =>
        localStorage.setItem(
          "__DOCSEARCH_ASKAI_CONVERSATIONS__mikrogql-docs",
          JSON.stringify([{
            objectID: "from-docsearch",
            query: "asked with DocSearch",
            type: "askAI",
            messages: [{
              id: "u1",
              role: "user",
              parts: [{ type: "text", text: "asked with DocSearch" }],
            }],
          }]),
        )
      );
      await ask(page, "install");
      await settled(page);
      const entries = await page.evaluate(() =>
        JSON.parse(localStorage.getItem("__DOCSEARCH_ASKAI_CONVERSATIONS__mikrogql-docs")!)
          .map((c: { query: string; type: string }) => [c.query, c.type])
      );
      assertEquals(entries, [["install", "askAI"], ["asked with DocSearch", "askAI"]]);
      await page.keyboard.press("Escape");
      await page.fill(INPUT, "");
      await page.waitForSelector(`.DocSearch-AskAiConversation:has-text("asked with DocSearch")`);
      await page.context().close();
    },
  );

  await t.step("agentStudio sends searchParameters under `algolia`, as DocSearch", async () => {
    const page = await mount(
      browser,
      `askAi: { assistantId: "agent-9", baseUrl: location.origin, agentStudio: true,
        searchParameters: { "mikrogql-docs": { filters: "type:content" } } }`,
    );
    const before = log.length;
    await ask(page, "install");
    await settled(page);
    const chat = log.slice(before).find((r) => r.path.includes("/agents/agent-9/completions"))!;
    const body = chat.body as Record<string, unknown>;
    assertEquals(body.algolia, {
      searchParameters: { "mikrogql-docs": { filters: "type:content" } },
    });
    assert(!("searchParameters" in body));
    await page.context().close();
  });

  await t.step("the Searched for line stays once the answer streams (ToolCall.test)", async () => {
    const page = await mount(browser, askAi);
    await ask(page, "install");
    await settled(page);
    assertStringIncludes(
      await page.textContent(".DocSearch-AskAiScreen-ToolCall") ?? "",
      "Searched for",
    );
    await page.context().close();
  });
});
