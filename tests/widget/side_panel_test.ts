/// <reference lib="dom" />
/**
 * The Sidepanel of the script package (`dist/sidepanel.js`, `sidePanel()`)
 * in Chromium on a page of the docs site, against its Ask AI stand-in: the
 * button and `Ctrl/Cmd+I`, floating and inline, left and right, expand, full
 * screen on a phone, the new-conversation screen and its suggested
 * questions, an answer with stop and feedback, the conversation history
 * shared with the search box's storage, the hybrid mode with the search
 * box's modal, the instance API and callbacks, option errors, axe.
 */
import { assert, assertEquals, assertMatch, assertStringIncludes } from "@std/assert";
import type { Browser, Page } from "playwright-core";
import { axeViolations, browserTest, nextFrames } from "../support/browser.ts";
import { startDocsSite } from "../support/docs_site.ts";
import type { AskAiFaults } from "../../examples/docs-site/ask_ai_api.ts";

const askAiFaults: AskAiFaults = {};
const site = await startDocsSite({ askAiFaults });

const PANEL = ".DocSearch-Sidepanel";
const BUTTON = ".DocSearch-SidepanelButton";
const INPUT = `${PANEL} .DocSearch-Input`;

/** A fresh page with a container for the panel's button; `sidePanel(extra options)` mounted as `window.__panel`. */
async function mount(
  browser: Browser,
  extra = "",
  viewport = { width: 1280, height: 800 },
): Promise<Page> {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  (page as unknown as { errors: string[] }).errors = errors;
  await page.goto(`${site.url}/?manual`);
  await page.waitForFunction(() => "searchBox" in globalThis);
  await page.evaluate(`(async () => {
    const { sidePanel } = await import("/dist/sidepanel.js");
    window.__calls = [];
    const box = document.createElement("div");
    box.id = "ask-ai";
    document.querySelector("header").append(box);
    window.__panel = sidePanel({
      container: "#ask-ai",
      appId: docsSearchOptions.appId,
      apiKey: docsSearchOptions.apiKey,
      indices: docsSearchOptions.indices,
      transformSearchClient: docsSearchOptions.transformSearchClient,
      askAi: docsSearchOptions.askAi,
      onReady: () => __calls.push("ready"),
      onOpen: () => __calls.push("open"),
      onClose: () => __calls.push("close"),
      ${extra}
    });
  })()`);
  await page.waitForSelector(BUTTON);
  return page;
}

const calls = (page: Page) =>
  page.evaluate(() => (window as unknown as { __calls: string[] }).__calls);
const settled = (page: Page) =>
  page.waitForSelector(`${INPUT}:not([disabled])`, { timeout: 20_000 });
const closePage = async (page: Page) => {
  assertEquals((page as unknown as { errors: string[] }).errors, [], "no uncaught error");
  await page.context().close();
};

browserTest("Sidepanel (script package) in Chromium", site, async (t, browser) => {
  await t.step(
    "button and Ctrl+I open and close it; new conversation, suggested questions, an answer, feedback",
    async () => {
      const page = await mount(browser);
      assertEquals(await page.getAttribute(BUTTON, "aria-label"), "Ask AI (Control+i)");
      assertEquals(await page.getAttribute(BUTTON, "aria-keyshortcuts"), "Control+i");
      assertEquals(await calls(page), ["ready"]);
      await page.click(BUTTON);
      await page.waitForSelector(
        `${PANEL}.DocSearch-Sidepanel--floating.DocSearch-Sidepanel--right`,
      );
      await page.waitForSelector(`${INPUT}:focus`);
      assertEquals(await page.getAttribute(BUTTON, "aria-expanded"), "true");
      const box = (await page.locator(PANEL).boundingBox())!;
      // floating: 16 px (DocSearch's 1rem) from the right, top and bottom edges
      assertEquals([box.x + box.width, box.y, box.width, box.height], [1264, 16, 360, 768]);
      await page.waitForSelector(".DocSearch-NewConversationScreen-SuggestedQuestion");
      assertEquals(
        await page.locator(".DocSearch-NewConversationScreen-SuggestedQuestion").count(),
        3,
      );
      await page.click(".DocSearch-NewConversationScreen-SuggestedQuestion >> nth=0");
      await page.waitForSelector(`${PANEL} .DocSearch-AskAiScreen-Response`);
      await settled(page);
      // no keyword search in the panel: the assistant's searched queries are text, not buttons
      assertEquals(
        await page.$$eval(
          `${PANEL} .DocSearch-AskAiScreen-ToolCallQuery`,
          (e) => [...new Set(e.map((x) => x.tagName))],
        ),
        ["SPAN"],
      );
      await page.click(`${PANEL} .DocSearch-AskAiScreen-LikeButton`);
      await page.waitForSelector(`${PANEL} .DocSearch-AskAiScreen-FeedbackText:has-text("Thanks")`);
      await page.click(".DocSearch-Sidepanel-Close");
      await page.waitForSelector(PANEL, { state: "detached" });
      await page.waitForSelector(`${BUTTON}:focus`);
      await page.keyboard.press("Control+i");
      await page.waitForSelector(PANEL);
      // Ctrl+I toggles: open, then closed again
      await page.keyboard.press("Control+i");
      await page.waitForSelector(PANEL, { state: "detached" });
      await page.keyboard.press("Control+i");
      await page.waitForSelector(`${INPUT}:focus`);
      await page.keyboard.press("Escape");
      await page.waitForSelector(PANEL, { state: "detached" });
      assertEquals(await calls(page), ["ready", "open", "close", "open", "close", "open", "close"]);
      await closePage(page);
    },
  );

  await t.step(
    "the panel's chunk loads on intent, not with the page; no search box file",
    async () => {
      const context = await browser.newContext();
      const page = await context.newPage();
      const scripts: string[] = [];
      page.on("request", (r) => {
        const { pathname } = new URL(r.url());
        if (pathname.startsWith("/dist/") && pathname.endsWith(".js")) scripts.push(pathname);
      });
      await page.goto(`${site.url}/docs/guides/getting-started.html?manual`);
      await page.waitForFunction(() => "searchBox" in globalThis);
      const before = scripts.length; // the page's own search box bundle
      await page.evaluate(`(async () => {
      const { sidePanel } = await import("/dist/sidepanel.js");
      sidePanel({ container: "header", appId: "mikrogql", apiKey: "k", indices: ["mikrogql-docs"],
        askAi: { assistantId: "mikrogql-docs-assistant", baseUrl: location.origin } });
    })()`);
      await page.waitForSelector(BUTTON);
      await nextFrames(page);
      const mounted = scripts.slice(before);
      assertEquals(mounted[0], "/dist/sidepanel.js");
      assert(!mounted.some((p) => /side_panel-/.test(p)), `no panel chunk yet: ${mounted}`);
      assert(
        !mounted.some((p) => /searchbox|search_modal/.test(p)),
        `no search box file: ${mounted}`,
      );
      await page.hover(BUTTON);
      await page.waitForFunction(
        () => performance.getEntriesByType("resource").some((e) => /side_panel-/.test(e.name)),
      );
      await page.context().close();
    },
  );

  await t.step(
    "history: the panel's conversations are the search box's (one storage)",
    async () => {
      const page = await mount(browser);
      await page.evaluate(() =>
        (window as unknown as { __panel: { open(m: unknown): void } }).__panel
          .open({ query: "How do I install it?" })
      );
      await page.waitForSelector(`${PANEL} .DocSearch-AskAiScreen-Response`);
      await settled(page);
      const stored = await page.evaluate(() =>
        JSON.parse(localStorage.getItem("__DOCSEARCH_ASKAI_CONVERSATIONS__mikrogql-docs")!)
          .map((c: { query: string }) => c.query)
      );
      assertEquals(stored, ["How do I install it?"]);
      await page.click(`${PANEL} .DocSearch-Menu-trigger`);
      await page.click(`${PANEL} .DocSearch-Menu-item >> nth=1`);
      await page.waitForSelector(
        `${PANEL} .DocSearch-AskAiConversation:has-text("How do I install it?")`,
      );
      // and the search box lists it on its start screen
      await page.evaluate("searchBox({ ...docsSearchOptions })");
      await page.click(".DocSearch-Button");
      await page.waitForSelector(
        `.DocSearch-Modal .DocSearch-AskAiConversation:has-text("How do I install it?")`,
      );
      await closePage(page);
    },
  );

  await t.step("stop: DocSearch's stop button stops the answer in the panel", async () => {
    const page = await mount(browser);
    askAiFaults.delayMs = 200;
    try {
      await page.click(BUTTON);
      await page.fill(INPUT, "install");
      await page.keyboard.press("Enter");
      await page.click(`${PANEL} .DocSearch-StopStreaming`);
      await page.waitForSelector(`${PANEL} .DocSearch-AskAiScreen-Stopped`);
    } finally {
      delete askAiFaults.delayMs;
    }
    await closePage(page);
  });

  await t.step(
    "inline on the left pushes the page's main; expand widens; close restores",
    async () => {
      const page = await mount(browser, `variant: "inline", side: "left", pushSelector: "main"`);
      const margin = () => page.$eval("main", (m) => (m as HTMLElement).style.marginLeft);
      const before = await margin();
      await page.click(BUTTON);
      await page.waitForSelector(`${PANEL}.DocSearch-Sidepanel--inline.DocSearch-Sidepanel--left`);
      assertEquals(await margin(), "360px");
      assertEquals((await page.locator(PANEL).boundingBox())!.x, 0);
      await page.click(".DocSearch-Sidepanel-Action-expand");
      await page.waitForSelector(`${PANEL}.DocSearch-Sidepanel--expanded`);
      assertEquals(await margin(), "580px");
      assertEquals(
        await page.getAttribute(".DocSearch-Sidepanel-Action-expand", "aria-pressed"),
        "true",
      );
      await page.click(".DocSearch-Sidepanel-Close");
      await page.waitForSelector(PANEL, { state: "detached" });
      assertEquals(await margin(), before);
      await closePage(page);
    },
  );

  await t.step("mobile (390x844): full screen, no expand button, nothing pushed", async () => {
    const page = await mount(browser, `variant: "inline"`, { width: 390, height: 844 });
    await page.click(BUTTON);
    await page.waitForSelector(`${INPUT}:focus`);
    const box = (await page.locator(PANEL).boundingBox())!;
    assertEquals([box.x, box.y, box.width, box.height], [0, 0, 390, 844]);
    assert(!await page.isVisible(".DocSearch-Sidepanel-Action-expand"));
    assertEquals(await page.$eval("main", (m) => (m as HTMLElement).style.marginRight), "");
    await closePage(page);
  });

  await t.step("hybrid: the search box's Ask AI row opens the question in the panel", async () => {
    const page = await mount(browser);
    await page.evaluate("searchBox({ ...docsSearchOptions })");
    await page.click(".DocSearch-Button");
    await page.fill(".DocSearch-Modal .DocSearch-Input", "install");
    await page.waitForSelector(`.DocSearch-Hit[aria-selected="true"] .DocSearch-Hit--AskAI`);
    await page.keyboard.press("Enter");
    await page.waitForSelector(".DocSearch-Modal", { state: "detached" });
    await page.waitForSelector(`${PANEL} .DocSearch-AskAiScreen-Query:has-text("install")`);
    await settled(page);
    assertEquals(await page.locator(".DocSearch-Modal").count(), 0);
    // without a panel (hybrid off), the modal keeps its own Ask AI
    await page.evaluate(() =>
      (window as unknown as { __panel: { destroy(): void } }).__panel.destroy()
    );
    await page.click(".DocSearch-Button");
    await page.fill(".DocSearch-Modal .DocSearch-Input", "install");
    await page.waitForSelector(`.DocSearch-Hit[aria-selected="true"] .DocSearch-Hit--AskAI`);
    await page.keyboard.press("Enter");
    await page.waitForSelector(".DocSearch-Modal .DocSearch-AskAiScreen");
    await closePage(page);
  });

  await t.step("instance: open/close/isOpen/isReady/destroy; keyboardShortcuts off", async () => {
    const page = await mount(
      browser,
      `keyboardShortcuts: { "Ctrl/Cmd+I": false }, button: { variant: "inline" }`,
    );
    assertEquals(await page.getAttribute(BUTTON, "aria-label"), "Ask AI");
    assertStringIncludes(await page.textContent(BUTTON) ?? "", "Ask AI");
    await page.keyboard.press("Control+i");
    await nextFrames(page);
    assertEquals(await page.locator(PANEL).count(), 0, "the shortcut is off");
    const state = () =>
      page.evaluate(() => {
        const p = (window as unknown as { __panel: { isOpen: boolean; isReady: boolean } }).__panel;
        return [p.isOpen, p.isReady];
      });
    await page.evaluate("__panel.open()");
    await page.waitForSelector(PANEL);
    assertEquals(await state(), [true, true]);
    await page.evaluate("__panel.close()");
    await page.waitForSelector(PANEL, { state: "detached" });
    await page.evaluate("__panel.destroy()");
    assertEquals(await state(), [false, false]);
    assertEquals(await page.locator(BUTTON).count(), 0);
    await closePage(page);
  });

  await t.step("invalid options throw naming the option", async () => {
    const page = await mount(browser);
    const error = (options: string) =>
      page.evaluate(`import("/dist/sidepanel.js").then(({ sidePanel }) => {
        try { sidePanel({ container: "#ask-ai", appId: "a", apiKey: "k", ${options} }); return "no error"; }
        catch (e) { return e.message; }
      })`);
    assertMatch(await error(`indices: ["d"]`) as string, /`askAi` \(or `assistantId`\)/);
    assertMatch(
      await error(`assistantId: "x", indices: ["d"], variant: "top"`) as string,
      /`variant`/,
    );
    assertMatch(await error(`assistantId: "x", indices: ["d"], side: "up"`) as string, /`side`/);
    assertMatch(await error(`assistantId: "x", indices: ["d"], width: -3`) as string, /`width`/);
    assertMatch(
      await error(`assistantId: "x", indices: ["d"], container: "#none"`) as string,
      /`container`/,
    );
    await closePage(page);
  });

  for (const colorScheme of ["light", "dark"] as const) {
    await t.step(`axe: no violation with the panel open (${colorScheme})`, async () => {
      const page = await mount(browser, colorScheme === "dark" ? `theme: "dark"` : "");
      await page.click(BUTTON);
      await page.waitForSelector(".DocSearch-NewConversationScreen-SuggestedQuestion");
      const violations = await axeViolations(page);
      assertEquals(violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(" ")}`), []);
      await closePage(page);
    });
  }
});
