/// <reference lib="dom" />
/**
 * The search box's Ask AI mode in a real Chromium against the docs site's
 * Ask AI stand-in: the Ask AI row, the streamed answer and its
 * states, tool calls, sources, copy, feedback, stop, follow-ups, history,
 * suggested questions, the agent platform, every error path, hostile
 * Markdown, accessibility.
 */
import { assert, assertEquals, assertMatch, assertStringIncludes } from "@std/assert";
import type { Browser, Page } from "playwright-core";
import { axeViolations, browserTest, clearPageStorage, nextFrames } from "../support/browser.ts";
import { startDocsSite } from "../support/docs_site.ts";
import { createTokenSource } from "../../widget/ask_ai/token.ts";
import { storedItem } from "../../widget/stored_list.ts";
import type { AskAiFaults, AskAiRequestLog } from "../../examples/docs-site/ask_ai_api.ts";

const askAiFaults: AskAiFaults = {};
const log: AskAiRequestLog[] = [];
const site = await startDocsSite({ askAiFaults, askAiLog: log });
let browser: Browser;
/** The page every step mounts the search box on (see {@link mount}). */
let page: Page | undefined;
/** Uncaught errors of the page since its last mount. */
let pageErrors: string[] = [];

const INPUT = ".DocSearch-Input";
const ANSWER = ".DocSearch-AskAiScreen-Response";

/**
 * The page (clipboard allowed) with the docs site's search box (Ask AI on) plus `extra` options,
 * on fresh storage. One page serves every step: a browser context per step costs a renderer
 * process (about 0.6 s of CPU on the CI machine); what the last step stored or copied is cleared
 * before the page is loaded again.
 */
async function mount(extra = ""): Promise<Page> {
  if (page) {
    await clearPageStorage(page, { clipboard: true });
  } else {
    const context = await browser.newContext({
      permissions: ["clipboard-read", "clipboard-write"],
    });
    page = await context.newPage();
    page.on("pageerror", (error) => pageErrors.push(`${error.message}\n${error.stack}`));
  }
  await page.goto(`${site.url}/?manual`);
  pageErrors = [];
  await page.waitForFunction(() => "searchBox" in globalThis);
  await page.evaluate(`
    window.__rejections = [];
    addEventListener("unhandledrejection", (e) => window.__rejections.push(String(e.reason)));
    searchBox({ ...docsSearchOptions, ${extra} })`);
  return page;
}

/** Holds every answer's text (after its tool calls) until the returned function is called. */
function holdText(): () => void {
  let release!: () => void;
  askAiFaults.holdText = new Promise<void>((resolve) => release = resolve);
  return () => {
    release();
    delete askAiFaults.holdText;
  };
}

/** Types `question` in the keyword search and asks it through the Ask AI row. */
async function ask(page: Page, question: string) {
  if (!await page.isVisible(".DocSearch-Modal")) await page.click(".DocSearch-Button");
  await page.fill(INPUT, question);
  await page.waitForSelector(`.DocSearch-Hit[aria-selected="true"] .DocSearch-Hit--AskAI`);
  await page.keyboard.press("Enter");
  await page.waitForSelector(".DocSearch-AskAiScreen");
}

/** Waits until no answer streams (the question input is enabled again). */
const settled = (page: Page) =>
  page.waitForSelector(`${INPUT}:not([disabled])`, { timeout: 20_000 });

const requests = (path: string | RegExp) =>
  log.filter((r) => typeof path === "string" ? r.path === path : path.test(r.path));

/** Asserts that the page met no unhandled rejection and no uncaught error since its mount. */
const assertPageClean = async (page: Page) => {
  assertEquals(await page.evaluate("window.__rejections"), [], "no unhandled rejection");
  assertEquals(pageErrors, [], "no uncaught error");
};

Deno.test("Ask AI token: one request in flight, cached in sessionStorage, renewed 30 s before expiry", async () => {
  reset();
  sessionStorage.clear();
  const token = createTokenSource({
    baseUrl: site.url,
    assistantId: "mikrogql-docs-assistant",
    environment: globalThis as unknown as Window,
    cache: storedItem(
      globalThis as unknown as Window,
      "sessionStorage",
      "__DOCSEARCH_ASKAI_TOKEN__mikrogql-docs-assistant",
    ),
  });
  const [a, b] = await Promise.all([token(), token()]);
  assertEquals(a, b);
  assertEquals(requests("/chat/token").length, 1, "one request for two concurrent callers");
  assertEquals(sessionStorage.getItem("__DOCSEARCH_ASKAI_TOKEN__mikrogql-docs-assistant"), a);
  assertEquals(await token(), a);
  assertEquals(requests("/chat/token").length, 1, "the cached token is used");

  askAiFaults.tokenTtlSeconds = 31;
  sessionStorage.clear();
  await token();
  assertEquals(requests("/chat/token").length, 2);
  await token();
  assertEquals(requests("/chat/token").length, 2, "31 s left: still fresh");
  askAiFaults.tokenTtlSeconds = 29;
  sessionStorage.clear();
  await token();
  await token();
  assertEquals(requests("/chat/token").length, 4, "29 s left: renewed on every use");

  askAiFaults.tokenStatus = 401;
  sessionStorage.clear();
  const error = await token().then(() => null, (e: Error) => e.message);
  assertEquals(error, "The assistant is not available");
  reset();
});

browserTest("search box Ask AI mode in Chromium", site, async (t, launched) => {
  browser = launched;
  await steps(t);
});

function reset() {
  for (const key of Object.keys(askAiFaults)) delete askAiFaults[key as keyof AskAiFaults];
  log.length = 0;
}

async function steps(t: Deno.TestContext) {
  const step = (name: string, fn: () => Promise<void>) =>
    t.step(name, async () => {
      reset();
      await fn();
    });

  await step(
    "the Ask AI row comes first and is active; Enter asks; states and protocol",
    async () => {
      const page = await mount();
      await page.click(".DocSearch-Button");
      assertEquals(
        await page.getAttribute(INPUT, "placeholder"),
        "Search docs or ask AI a question",
      );
      await page.fill(INPUT, "theming");
      await page.waitForSelector(".DocSearch-Hit a");
      const first = page.locator(".DocSearch-Hit").first();
      assertEquals(await first.getAttribute("aria-selected"), "true");
      assertEquals((await first.textContent())?.trim(), "Ask AI: theming");
      assertEquals(
        await page.getAttribute(INPUT, "aria-activedescendant"),
        await first.locator("[role=gridcell]").getAttribute("id"),
      );
      assertEquals(await axeViolations(page), []);

      askAiFaults.delayMs = 60;
      await page.keyboard.press("Enter");
      await page.waitForSelector(".DocSearch-AskAiScreen-Thinking");
      assertEquals(await page.textContent(".DocSearch-AskAiScreen-Query"), "theming");
      assert(await page.isDisabled(INPUT), "the input is disabled while the answer streams");
      assertEquals(await page.getAttribute(INPUT, "placeholder"), "Answering...");
      await page.waitForSelector(".DocSearch-Markdown-Content");
      assertEquals(await page.locator(".DocSearch-AskAiScreen-Thinking").count(), 0);
      const partial = await page.textContent(".DocSearch-Markdown-Content");
      await settled(page);
      const full = await page.textContent(".DocSearch-Markdown-Content");
      assert(full!.length > partial!.length, "the answer streamed in pieces");
      assertStringIncludes(full!, 'Here is what the documentation says about "theming"');
      assertEquals(await page.getAttribute(INPUT, "placeholder"), "Ask another question...");
      assertEquals(await page.getAttribute(INPUT, "enterkeyhint"), "enter");
      assertStringIncludes(
        await page.textContent(".DocSearch-AskAiScreen-Disclaimer") ?? "",
        "Answers are generated with AI",
      );

      const [token] = requests("/chat/token");
      assertEquals(token.headers["x-algolia-assistant-id"], "mikrogql-docs-assistant");
      const [chat] = requests("/chat");
      assertMatch(chat.headers.authorization, /^TOKEN [\w-]+\.[\w-]+\.local$/);
      assertEquals(chat.headers["x-algolia-api-key"], "search-only-key");
      assertEquals(chat.headers["x-algolia-application-id"], "mikrogql");
      assertEquals(chat.headers["x-algolia-index-name"], "mikrogql-docs");
      assertEquals(chat.headers["x-algolia-assistant-id"], "mikrogql-docs-assistant");
      assertEquals(chat.headers["x-ai-sdk-version"], "v5");
      const body = chat.body as {
        id: string;
        trigger: string;
        messages: Array<{ role: string; parts: unknown[] }>;
      };
      assertEquals(body.trigger, "submit-message");
      assert(typeof body.id === "string" && body.id.length > 0);
      assertEquals(body.messages.map((m) => m.role), ["user"]);
      assertEquals(body.messages[0].parts, [{ type: "text", text: "theming" }]);
      await assertPageClean(page);
    },
  );

  await step(
    "tool calls: Searching..., Searching for, Searched for; a query goes back to keyword search",
    async () => {
      const page = await mount();
      const release = holdText();
      askAiFaults.delayMs = 250;
      await ask(page, "pagination cursors");
      await page.waitForFunction(() =>
        document.querySelector(".DocSearch-AskAiScreen-ToolCall")?.textContent === "Searching..."
      );
      await page.waitForFunction(() =>
        document.querySelector(".DocSearch-AskAiScreen-ToolCall")?.textContent ===
          'Searching for "pagination cursors"'
      );
      await page.waitForFunction(() =>
        document.querySelector(".DocSearch-AskAiScreen-ToolCall")?.textContent ===
          'Searched for "pagination cursors"'
      );
      delete askAiFaults.delayMs;
      await page.click(".DocSearch-AskAiScreen-ToolCallQuery");
      await page.waitForSelector(".DocSearch-Hit a");
      assertEquals(await page.inputValue(INPUT), "pagination cursors");
      release();
      await assertPageClean(page);
    },
  );

  await step(
    "consecutive searches aggregated; aggregatedToolCallText and aggregatedToolCallNode",
    async () => {
      askAiFaults.toolQueries = ["pagination", "cursor", "order"];
      const page = await mount();
      let release = holdText();
      await ask(page, "paging");
      await page.waitForFunction(() =>
        document.querySelector(".DocSearch-AskAiScreen-ToolCall")?.textContent ===
          'Searched for "pagination", "cursor" and "order"'
      );
      release();
      await settled(page);
      assertEquals(
        await page.locator(".DocSearch-AskAiScreen-ToolCall").allTextContents(),
        ['Searched for "pagination", "cursor" and "order"'],
        "the Searched for line stays once the answer streams (DocSearch's newest ToolCall tests)",
      );
      await assertPageClean(page);

      const custom = await mount(`translations: { modal: { askAiScreen: {
      aggregatedToolCallText: (queries) => ({ before: queries.length + " searches: ", separator: " / ", lastSeparator: " & ", after: "." }),
    } } }`);
      release = holdText();
      await ask(custom, "paging");
      await custom.waitForFunction(() =>
        document.querySelector(".DocSearch-AskAiScreen-ToolCall")?.textContent ===
          '3 searches: "pagination" / "cursor" & "order".'
      );
      release();
      await assertPageClean(custom);

      const node = await mount(`translations: { modal: { askAiScreen: {
      aggregatedToolCallNode: (queries, onClick) => html\`<button type="button" class="mine" onClick=\${() => onClick(queries[1])}>\${queries.join("+")}</button>\`,
    } } }`);
      release = holdText();
      await ask(node, "paging");
      await node.waitForSelector(".DocSearch-AskAiScreen-ToolCall .mine");
      assertEquals(
        await node.textContent(".DocSearch-AskAiScreen-ToolCall .mine"),
        "pagination+cursor+order",
      );
      await node.click(".mine");
      await node.waitForSelector(".DocSearch-Hit a");
      assertEquals(await node.inputValue(INPUT), "cursor");
      release();
      await assertPageClean(node);
    },
  );

  await step("related sources: links of the answer, deduplicated", async () => {
    const page = await mount();
    await ask(page, "How do I add the search box to a page?");
    await settled(page);
    assertEquals(
      await page.textContent(".DocSearch-AskAiScreen-RelatedSources-Title"),
      "Related sources",
    );
    const links = await page.$$eval(
      ".DocSearch-AskAiScreen-RelatedSources a",
      (as) => as.map((a) => a.getAttribute("href")),
    );
    const inAnswer = await page.$$eval(
      ".DocSearch-Markdown-Content a",
      (as) => as.map((a) => a.getAttribute("href")),
    );
    assert(inAnswer.length > links.length, "the answer repeats a link");
    assertEquals(links, [...new Set(inAnswer)]);
    assert(links.every((l) => l!.startsWith("/docs/")));
    // chips opening in a new tab
    assertEquals(
      await page.$$eval(
        ".DocSearch-AskAiScreen-RelatedSources-Item-Link",
        (as) =>
          as.map((a) =>
            `${a.getAttribute("target")} ${a.getAttribute("rel")} ${
              a.querySelector("svg") !== null
            }`
          ),
      ),
      links.map(() => "_blank noopener noreferrer true"),
    );
    // paragraphs are paragraphs
    assertEquals(await page.locator(".DocSearch-Markdown-Content br").count(), 0);
    assert(await page.locator(".DocSearch-Markdown-Content > p").count() >= 2);
    assertEquals(await page.locator(".DocSearch-Markdown-Content > ul").count(), 1);
    await assertPageClean(page);
  });

  await step("v4's layout: disclaimer, then per question a card, sources after it", async () => {
    const page = await mount();
    await ask(page, "How do I add the search box to a page?");
    await settled(page);
    // DocSearch 4.7.1's structure and classes, in its order
    const shape = await page.evaluate(() => {
      const screen = document.querySelector(".DocSearch-AskAiScreen")!;
      const children = (e: Element | null) => [...(e?.children ?? [])].map((c) => c.className);
      return {
        screen: screen.className,
        top: children(screen),
        exchange: children(document.querySelector(".DocSearch-AskAiScreen-Response-Container")),
        card: children(document.querySelector(".DocSearch-AskAiScreen-Response")),
        question: document.querySelector(".DocSearch-AskAiScreen-Message--user > p")?.className,
        answer: children(document.querySelector(".DocSearch-AskAiScreen-Message--assistant")),
        actions: [...document.querySelectorAll(".DocSearch-AskAiScreen-Actions > button")].map((
          b,
        ) => b.getAttribute("title")),
      };
    });
    assertEquals(shape, {
      screen: "DocSearch-AskAiScreen DocSearch-AskAiScreen-Container",
      top: ["DocSearch-AskAiScreen-Disclaimer", "DocSearch-AskAiScreen-Body"],
      exchange: ["DocSearch-AskAiScreen-Response", "DocSearch-AskAiScreen-RelatedSources"],
      card: [
        "DocSearch-AskAiScreen-Message DocSearch-AskAiScreen-Message--user",
        "DocSearch-AskAiScreen-Message DocSearch-AskAiScreen-Message--assistant",
        "DocSearch-AskAiScreen-Answer-Footer",
      ],
      question: "DocSearch-AskAiScreen-Query",
      answer: ["DocSearch-AskAiScreen-MessageContent"],
      actions: ["Like", "Dislike", "Copy"],
    });
    // the actions on the right of the card, the sources below it
    const box = (selector: string) =>
      page.$eval(selector, (e) => e.getBoundingClientRect().toJSON()) as Promise<DOMRect>;
    const card = await box(".DocSearch-AskAiScreen-Response");
    const actions = await box(".DocSearch-AskAiScreen-Actions");
    const sources = await box(".DocSearch-AskAiScreen-RelatedSources");
    assert(card.right - actions.right < 30, "actions right-aligned in the card");
    assert(actions.left > card.left + card.width / 2, "actions on the right half");
    assert(sources.top >= card.bottom, "sources after the card");
    // the footer as v4's in Ask AI mode: Powered by, Navigate, Submit question, Back to search
    assertEquals(
      await page.$$eval(".DocSearch-Footer .DocSearch-Label", (ls) => ls.map((l) => l.textContent)),
      ["Navigate", "Submit question", "Back to search"],
    );
    assertStringIncludes(await page.textContent(".DocSearch-Logo") ?? "", "Powered by");
    await assertPageClean(page);
  });

  await step(
    "AI-217: the thread-depth banner, the input locked, a new conversation from the banner",
    async () => {
      const page = await mount();
      await ask(page, "theming");
      await settled(page);
      askAiFaults.chatStatus = 400;
      askAiFaults.chatMessage = "Maximum conversation depth reached (AI-217)";
      await page.fill(INPUT, "and the dark theme?");
      await page.keyboard.press("Enter");
      const banner = ".DocSearch-AskAiScreen-Error--ThreadDepth";
      await page.waitForSelector(banner);
      // above the disclaimer, as in v4; its title without the code, its link
      assertEquals(
        await page.$eval(".DocSearch-AskAiScreen", (e) => e.firstElementChild!.className),
        "DocSearch-AskAiScreen-MessageContent DocSearch-AskAiScreen-Error DocSearch-AskAiScreen-Error--ThreadDepth",
      );
      assertEquals(
        await page.textContent(`${banner} .DocSearch-AskAiScreen-Error-Title`),
        "Maximum conversation depth reached",
      );
      assertEquals(
        (await page.textContent(`${banner} p:last-child`))?.replace(/\s+/g, " "),
        "Start a new conversation to continue.",
      );
      // the failed answer shows no second copy of the error
      assertEquals(await page.locator(`${ANSWER} .DocSearch-AskAiScreen-Error`).count(), 0);
      assert(await page.isDisabled(INPUT), "the conversation cannot go on");
      assertEquals(await page.getAttribute(INPUT, "placeholder"), "Conversation limit reached");
      assertEquals(await axeViolations(page), []);
      reset();
      await page.click(".DocSearch-ThreadDepthError-Link");
      await page.waitForSelector(".DocSearch-NewConversationScreen");
      assert(!await page.isDisabled(INPUT));
      await page.fill(INPUT, "theming");
      await page.keyboard.press("Enter");
      await settled(page);
      assertEquals(await page.locator(banner).count(), 0);
      assertEquals(await page.locator(ANSWER).count(), 1, "a new conversation");
      await assertPageClean(page);
    },
  );

  await step(
    "'conversation depth' in the message is the same limit; a translated placeholder",
    async () => {
      const page = await mount(
        `translations: { modal: { searchBox: { threadDepthErrorPlaceholder: "Zu lang" } } }`,
      );
      askAiFaults.chatStatus = 400;
      askAiFaults.chatMessage = "The conversation depth limit was reached";
      await ask(page, "theming");
      await page.waitForSelector(".DocSearch-AskAiScreen-Error--ThreadDepth");
      assertEquals(await page.getAttribute(INPUT, "placeholder"), "Zu lang");
      await assertPageClean(page);
    },
  );

  await step("copy puts the answer on the clipboard", async () => {
    const page = await mount();
    await ask(page, "keyboard shortcuts");
    await settled(page);
    assertEquals(await page.getAttribute(".DocSearch-AskAiScreen-CopyButton", "title"), "Copy");
    await page.click(".DocSearch-AskAiScreen-CopyButton");
    // as DocSearch 4.7.1: the title says it, and the --copied modifier
    await page.waitForSelector(
      '.DocSearch-AskAiScreen-CopyButton--copied[title="Copied!"]',
    );
    const clipboard = await page.evaluate(() => navigator.clipboard.readText());
    assert(clipboard.startsWith('Here is what the documentation says about "keyboard shortcuts"'));
    assertStringIncludes(clipboard, "](/docs/reference/keyboard-shortcuts.html");
    await assertPageClean(page);
  });

  await step("like sends one feedback request; thanks replaces the buttons", async () => {
    const page = await mount();
    await ask(page, "translations");
    await settled(page);
    assertEquals(await page.getAttribute(".DocSearch-AskAiScreen-LikeButton", "title"), "Like");
    // icons, not emoji (which render as empty boxes without an emoji font)
    for (const button of ["Like", "Dislike", "Copy"]) {
      const selector = `.DocSearch-AskAiScreen-${button}Button`;
      assertEquals(await page.locator(`${selector} svg`).count(), 1, button);
      assert(!/\p{Extended_Pictographic}/u.test(await page.textContent(selector) ?? ""), button);
    }
    assertEquals(
      await page.getAttribute(".DocSearch-AskAiScreen-DislikeButton", "title"),
      "Dislike",
    );
    const feedbackSent = page.waitForResponse((r) => r.url().includes("/chat/feedback"));
    await page.click(".DocSearch-AskAiScreen-LikeButton");
    await page.waitForSelector(".DocSearch-AskAiScreen-FeedbackText");
    assertEquals(
      await page.textContent(".DocSearch-AskAiScreen-FeedbackText"),
      "Thanks for your feedback!",
    );
    assertEquals(await page.locator(".DocSearch-AskAiScreen-LikeButton").count(), 0);
    await feedbackSent;
    const feedback = requests("/chat/feedback");
    assertEquals(feedback.length, 1);
    const body = feedback[0].body as { appId: string; messageId: string; thumbs: number };
    assertEquals(body.appId, "mikrogql");
    assertEquals(body.thumbs, 1);
    assertMatch(body.messageId, /^msg_/);
    assertMatch(feedback[0].headers.authorization, /^TOKEN /);
    await assertPageClean(page);
  });

  await step("stop mid-stream: the stopped note, a working input", async () => {
    const page = await mount();
    askAiFaults.delayMs = 150;
    await ask(page, "generated files");
    await page.waitForSelector(".DocSearch-Markdown-Content");
    assertEquals(
      await page.getAttribute(".DocSearch-StopStreaming", "title"),
      "Stop answering",
    );
    await page.click(".DocSearch-StopStreaming");
    await settled(page);
    assertEquals(
      await page.textContent(".DocSearch-AskAiScreen-Stopped"),
      "You stopped this response",
    );
    const text = await page.textContent(".DocSearch-Markdown-Content");
    assert(!text!.includes("For more, see"), "the answer was cut");
    delete askAiFaults.delayMs;
    await page.fill(INPUT, "install");
    await page.keyboard.press("Enter");
    await page.waitForFunction(() =>
      document.querySelectorAll(".DocSearch-AskAiScreen-Response").length === 2
    );
    await settled(page);
    await assertPageClean(page);
  });

  await step("a follow-up question sends the whole conversation; the token is reused", async () => {
    const page = await mount();
    await ask(page, "theming");
    await settled(page);
    await page.fill(INPUT, "and the dark theme?");
    await page.keyboard.press("Enter");
    await page.waitForFunction(() =>
      document.querySelectorAll(".DocSearch-AskAiScreen-Response").length === 2
    );
    await settled(page);
    const chats = requests("/chat");
    assertEquals(chats.length, 2);
    const [first, second] = chats.map((c) =>
      c.body as {
        id: string;
        messages: Array<{ role: string; parts: Array<{ type: string; text?: string }> }>;
      }
    );
    assertEquals(second.id, first.id, "one conversation id");
    assertEquals(second.messages.map((m) => m.role), ["user", "assistant", "user"]);
    assertEquals(second.messages[2].parts[0].text, "and the dark theme?");
    assertStringIncludes(
      second.messages[1].parts.filter((p) => p.type === "text").map((p) => p.text).join(""),
      'Here is what the documentation says about "theming"',
    );
    assertEquals(requests("/chat/token").length, 1, "the cached token is reused");
    assert(
      await page.evaluate(() =>
        sessionStorage.getItem("__DOCSEARCH_ASKAI_TOKEN__mikrogql-docs-assistant")
      ),
    );
    await assertPageClean(page);
  });

  await step("a token about to expire (within 30 s) is requested again", async () => {
    askAiFaults.tokenTtlSeconds = 20;
    const page = await mount();
    await ask(page, "theming");
    await settled(page);
    await page.fill(INPUT, "and colors?");
    await page.keyboard.press("Enter");
    await page.waitForFunction(() =>
      document.querySelectorAll(".DocSearch-AskAiScreen-Response").length === 2
    );
    await settled(page);
    assertEquals(requests("/chat/token").length, 2);
    await assertPageClean(page);
  });

  await step(
    "Escape goes back to keyword search; conversations saved, listed, reopened, deleted",
    async () => {
      const page = await mount();
      await ask(page, "keyboard shortcuts");
      await settled(page);
      await page.keyboard.press("Escape");
      await page.waitForSelector(".DocSearch-Hit a");
      assertEquals(await page.inputValue(INPUT), "keyboard shortcuts");
      await page.click(".DocSearch-Clear");
      await page.waitForSelector(".DocSearch-AskAiConversation");
      assertStringIncludes(
        await page.textContent(".DocSearch-AskAiConversations") ?? "",
        "Recent conversations",
      );
      assertEquals(
        await page.textContent(".DocSearch-AskAiConversation-Open"),
        "keyboard shortcuts",
      );
      const chats = requests("/chat").length;
      await page.click(".DocSearch-AskAiConversation-Open");
      await page.waitForSelector(ANSWER);
      assertStringIncludes(await page.textContent(ANSWER) ?? "", "keyboard");
      assertEquals(requests("/chat").length, chats, "reopening sends nothing");
      await page.keyboard.press("Escape");
      await page.waitForSelector(".DocSearch-AskAiConversation");
      await page.click(
        `.DocSearch-AskAiConversation [title="Remove this conversation from history"]`,
      );
      await page.waitForSelector(".DocSearch-AskAiConversation", { state: "detached" });
      assertEquals(
        await page.evaluate(() =>
          JSON.parse(
            localStorage.getItem("__DOCSEARCH_ASKAI_CONVERSATIONS__mikrogql-docs") ?? "[]",
          ).length
        ),
        0,
      );
      await page.keyboard.press("Escape");
      await page.waitForSelector(".DocSearch-Modal", { state: "detached" });
      await assertPageClean(page);
    },
  );

  await step(
    "at most 10 conversations (the former key moved to DocSearch's); none with disableUserPersonalization",
    async () => {
      const page = await mount();
      await page.evaluate(() => {
        const conversations = Array.from({ length: 10 }, (_, i) => ({
          id: `c${i}`,
          title: `question ${i}`,
          messages: [{
            id: `m${i}`,
            role: "user",
            parts: [{ type: "text", text: `question ${i}` }],
          }],
        }));
        localStorage.setItem(
          "__DOCSEARCH_ASKAI_CONVERSATIONS__mikrogql-mikrogql-docs",
          JSON.stringify(conversations),
        );
      });
      await ask(page, "install");
      await settled(page);
      const stored = await page.evaluate(() =>
        JSON.parse(localStorage.getItem("__DOCSEARCH_ASKAI_CONVERSATIONS__mikrogql-docs")!)
          .map((c: { query: string }) => c.query)
      );
      assertEquals(stored.length, 10);
      assertEquals(stored[0], "install");
      assertEquals(stored.at(-1), "question 8");
      await assertPageClean(page);

      const anonymous = await mount("disableUserPersonalization: true");
      await ask(anonymous, "install");
      await settled(anonymous);
      assertEquals(
        await anonymous.evaluate(() =>
          Object.keys(localStorage).filter((k) => k.startsWith("__DOCSEARCH"))
        ),
        [],
      );
      await assertPageClean(anonymous);
    },
  );

  await step(
    "new conversation: three published suggested questions; a click asks with its id",
    async () => {
      const page = await mount();
      await page.click(".DocSearch-Button");
      await page.click(".DocSearch-AskAiConversations-New");
      await page.waitForSelector(".DocSearch-NewConversationScreen-SuggestedQuestion");
      assertEquals(
        await page.textContent(".DocSearch-NewConversationScreen .DocSearch-Title"),
        "How can I help you today?",
      );
      assertEquals(await page.getAttribute(INPUT, "placeholder"), "Ask a question");
      const questions = await page.$$eval(
        ".DocSearch-NewConversationScreen-SuggestedQuestion",
        (bs) => bs.map((b) => b.textContent),
      );
      assertEquals(questions, [
        "How do I add the search box to a page?",
        "How do I change the keyboard shortcuts?",
        "How does pagination work in the generator?",
      ]);
      await page.click(".DocSearch-NewConversationScreen-SuggestedQuestion >> nth=1");
      await settled(page);
      const [chat] = requests("/chat");
      assertEquals((chat.body as { suggestedQuestionId: string }).suggestedQuestionId, "sq-2");
      assertEquals(
        await page.textContent(".DocSearch-AskAiScreen-Query"),
        "How do I change the keyboard shortcuts?",
      );
      await assertPageClean(page);

      const off = await mount(`askAi: { ...docsSearchOptions.askAi, suggestedQuestions: false }`);
      const searched: string[] = [];
      off.on("request", (r) => searched.push(r.postData() ?? ""));
      await off.click(".DocSearch-Button");
      await off.click(".DocSearch-AskAiConversations-New");
      await off.waitForSelector(".DocSearch-NewConversationScreen");
      await nextFrames(off);
      assert(
        !searched.some((body) => body.includes("algolia_ask_ai_suggested_questions")),
        "no request for suggested questions",
      );
      assertEquals(
        await off.locator(".DocSearch-NewConversationScreen-SuggestedQuestion").count(),
        0,
      );
      await assertPageClean(off);
    },
  );

  await step(
    "agentStudio: the agent endpoint, no token, per-index parameters, its feedback",
    async () => {
      const page = await mount(
        `askAi: { assistantId: "agent-7", baseUrl: location.origin, agentStudio: true,
      appId: "askai-app", apiKey: "askai-key", indexName: "mikrogql-readme",
      searchParameters: { "mikrogql-docs": { filters: "type:content", attributesToRetrieve: ["url"] } } }`,
      );
      await ask(page, "transactions");
      await settled(page);
      assertEquals(requests("/chat/token").length, 0);
      const [chat] = requests(/^\/agent-studio\/1\/agents\//);
      assertEquals(chat.path, "/agent-studio/1/agents/agent-7/completions");
      assertEquals(chat.headers["x-algolia-application-id"], "askai-app");
      assertEquals(chat.headers["x-algolia-api-key"], "askai-key");
      assertEquals(chat.headers.authorization, undefined);
      const body = chat.body as {
        algolia: { searchParameters: unknown };
        searchParameters?: unknown;
        messages: unknown[];
      };
      // under `algolia`, as DocSearch sends them to the agent platform
      assertEquals(body.algolia.searchParameters, {
        "mikrogql-docs": { filters: "type:content", attributesToRetrieve: ["url"] },
      });
      assertEquals(body.searchParameters, undefined);
      assertEquals(body.messages.length, 1);
      const url = await page.evaluate(() =>
        performance.getEntriesByType("resource").map((e) => e.name).find((n) =>
          n.includes("/completions")
        )
      );
      assertStringIncludes(
        url!,
        "/agent-studio/1/agents/agent-7/completions?stream=true&compatibilityMode=ai-sdk-5",
      );
      const feedbackSent = page.waitForResponse((r) =>
        r.url().includes("/agent-studio/1/feedback")
      );
      await page.click(".DocSearch-AskAiScreen-DislikeButton");
      await page.waitForSelector(".DocSearch-AskAiScreen-FeedbackText");
      await feedbackSent;
      const [feedback] = requests("/agent-studio/1/feedback");
      const vote = feedback.body as { messageId: string; agentId: string; vote: number };
      assertEquals([vote.agentId, vote.vote], ["agent-7", 0]);
      assertMatch(vote.messageId, /^msg_/);

      const error = await page.evaluate(
        `(() => { try { searchBox({ ...docsSearchOptions, askAi: { assistantId: "a", agentStudio: true, searchParameters: { docs: { facetFilters: ["lang:en"] } } } }); return "no error"; } catch (e) { return e.message; } })()`,
      );
      assertStringIncludes(error as string, "`askAi.searchParameters.docs.facetFilters`");
      await assertPageClean(page);
    },
  );

  await step("standard backend: askAi credentials, index and flat searchParameters", async () => {
    const page = await mount(
      `askAi: { assistantId: "mikrogql-docs-assistant", baseUrl: location.origin,
      appId: "askai-app", apiKey: "askai-key", indexName: "mikrogql-readme",
      searchParameters: { facetFilters: ["type:content"], distinct: true } }`,
    );
    await ask(page, "install");
    await settled(page);
    const [chat] = requests("/chat");
    assertEquals(chat.headers["x-algolia-application-id"], "askai-app");
    assertEquals(chat.headers["x-algolia-api-key"], "askai-key");
    assertEquals(chat.headers["x-algolia-index-name"], "mikrogql-readme");
    assertEquals((chat.body as { searchParameters: unknown }).searchParameters, {
      facetFilters: ["type:content"],
      distinct: true,
    });
    await assertPageClean(page);
  });

  await step(
    "errors: token, non-2xx chat, error chunk, dropped connection; the input keeps working",
    async () => {
      const cases: Array<[string, AskAiFaults, string]> = [
        ["token", { tokenStatus: 503 }, "The assistant is not available"],
        ["chat", { chatStatus: 500 }, "The assistant failed to answer"],
        ["error chunk", { errorChunk: true }, "The assistant is unavailable"],
        ["dropped", { dropAfter: 8 }, "The connection was lost before the answer was complete"],
      ];
      for (const [name, fault, message] of cases) {
        reset();
        Object.assign(askAiFaults, fault);
        const page = await mount();
        await ask(page, "cursor");
        await page.waitForSelector(".DocSearch-AskAiScreen-Error");
        await settled(page);
        assertEquals(await page.textContent(".DocSearch-AskAiScreen-Error"), message, name);
        reset();
        await page.fill(INPUT, "cursors");
        await page.keyboard.press("Enter");
        await page.waitForFunction(() =>
          document.querySelectorAll(".DocSearch-AskAiScreen-Response").length === 2
        );
        await settled(page);
        assertStringIncludes(
          await page.textContent(`${ANSWER} >> nth=1`) ?? "",
          "Here is what",
          name,
        );
        await assertPageClean(page);
      }
    },
  );

  await step("the server stopping mid-answer marks the answer stopped", async () => {
    askAiFaults.abortAfter = 10;
    const page = await mount();
    await ask(page, "theming");
    await page.waitForSelector(".DocSearch-AskAiScreen-Stopped");
    await settled(page);
    await assertPageClean(page);
  });

  await step(
    "streamed Markdown: hostile HTML never runs, javascript: links are text",
    async () => {
      askAiFaults.answer =
        `Look **here** <img src=x onerror="window.__pwned='img'"> and <script>window.__pwned='script'</script>
[trap](javascript:window.__pwned='link') [quote](/docs/a.html"onmouseover="window.__pwned='attr') [ok](/docs/guides/theming.html)

<iframe src="javascript:parent.__pwned='iframe'"></iframe>`;
      const page = await mount();
      await ask(page, "theming");
      await settled(page);
      const answer = page.locator(".DocSearch-Markdown-Content");
      assertEquals(await answer.locator("img, script, iframe").count(), 0);
      assertEquals(await answer.locator("strong").textContent(), "here");
      const links = await answer.locator("a").evaluateAll((as) =>
        as.map((a) => ({
          text: a.textContent,
          href: a.getAttribute("href"),
          attrs: a.getAttributeNames(),
        }))
      );
      // as DocSearch v4: an unsafe link is its text; a safe one opens in a new tab
      assertEquals(links.find((l) => l.text === "trap"), undefined);
      assertStringIncludes(await answer.textContent() ?? "", "trap");
      assert(
        links.every((l) => l.attrs.join() === "href,target,rel"),
        JSON.stringify(links),
      );
      assertEquals(links.find((l) => l.text === "ok")?.href, "/docs/guides/theming.html");
      await answer.getByText("trap").click();
      await answer.locator("a", { hasText: "quote" }).hover();
      await nextFrames(page);
      assertEquals(await page.evaluate("window.__pwned"), undefined);
      const sources = await page.$$eval(
        ".DocSearch-AskAiScreen-RelatedSources a",
        (as) => as.map((a) => a.getAttribute("href")),
      );
      assert(
        sources.every((s) => s!.startsWith("/docs/")),
        JSON.stringify(sources),
      );
      await assertPageClean(page);
    },
  );

  await step("axe: 0 violations on the Ask AI screen", async () => {
    const page = await mount();
    await ask(page, "search box options");
    await settled(page);
    assertEquals(await axeViolations(page), []);
    // the ⋮ menu holds "Start a new conversation" and "Conversation history"
    assertEquals(await page.locator(".DocSearch-Menu-item").count(), 0);
    await page.click(".DocSearch-Menu-trigger");
    assertEquals(await page.getAttribute(".DocSearch-Menu-trigger", "aria-expanded"), "true");
    assertEquals(
      await page.$$eval("[role=menu] [role=menuitem]", (e) => e.map((i) => i.textContent)),
      [
        "Start a new conversation",
        "Conversation history",
      ],
    );
    assertEquals(await axeViolations(page), [], "with the menu open");
    await page.click('.DocSearch-Menu-item:text("Conversation history")');
    await page.waitForSelector(".DocSearch-ConversationHistory");
    assertEquals(await page.locator("[role=menu]").count(), 0, "the menu closes");
    assertEquals(
      await page.textContent(".DocSearch-ConversationHistory .DocSearch-Hit-source"),
      "My conversation history",
    );
    // the back arrow returns to keyword search; × closes the modal
    await page.click(".DocSearch-AskAi-Return");
    await page.waitForSelector(".DocSearch-Input[role=combobox]");
    await ask(page, "theming");
    await page.click(".DocSearch-AskAi-Return ~ .DocSearch-Actions .DocSearch-Close");
    await page.waitForSelector(".DocSearch-Modal", { state: "detached" });
    await assertPageClean(page);
  });

  await step("the Ask AI row on the no-results screen", async () => {
    const page = await mount();
    await page.click(".DocSearch-Button");
    await page.fill(INPUT, "qwzxqwzx");
    await page.waitForSelector(".DocSearch-NoResults");
    assertEquals(
      (await page.textContent(".DocSearch-Hit--AskAI"))?.trim(),
      "Didn't find it in the docs? Ask AI to help: qwzxqwzx",
    );
    assertEquals(await axeViolations(page), []);
    await assertPageClean(page);
  });
}
