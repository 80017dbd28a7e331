/**
 * `widget/side_panel_options.ts`: the Sidepanel's options, flat (ours) and
 * nested (DocSearch's `panel`, `button`, `assistantId`), their defaults and
 * their errors, each naming the option.
 */
import { assertEquals, assertThrows } from "@std/assert";
import { resolveSidePanel } from "../../../widget/side_panel_options.ts";

const BASE = { appId: "app", apiKey: "key", indices: ["docs"] };

Deno.test("defaults: floating, right, 360/580 px, Ctrl/Cmd+I on, hybrid, texts", () => {
  const r = resolveSidePanel({ ...BASE, askAi: "assistant" });
  assertEquals(
    [r.variant, r.side, r.buttonVariant, r.width, r.expandedWidth, r.shortcut, r.hybrid],
    ["floating", "right", "floating", "360px", "580px", true, true],
  );
  assertEquals(r.pushSelector, "#root, main, .app, body");
  assertEquals([r.texts.title, r.texts.buttonText], ["Ask AI", "Ask AI"]);
  assertEquals(r.base.askAi.assistantId, "assistant");
  assertEquals(r.base.askAi.indexName, "docs");
});

Deno.test("DocSearch's names: assistantId, panel, button, translations.header; top level wins", () => {
  const r = resolveSidePanel({
    ...BASE,
    assistantId: "a1",
    panel: {
      variant: "inline",
      side: "left",
      width: 400,
      suggestedQuestions: true,
      translations: { header: { title: "Docs AI" } },
    },
    button: { variant: "inline", translations: { buttonText: "Ask" } },
    side: "right",
    keyboardShortcuts: { "Ctrl/Cmd+I": false },
    hybrid: false,
  });
  assertEquals(
    [r.variant, r.side, r.width, r.buttonVariant, r.shortcut, r.hybrid],
    ["inline", "right", "400px", "inline", false, false],
  );
  assertEquals([r.texts.title, r.texts.buttonText], ["Docs AI", "Ask"]);
  assertEquals(r.base.askAi.suggestedQuestions, true);
});

Deno.test("errors name the option", () => {
  assertThrows(() => resolveSidePanel({ ...BASE }), Error, "`askAi` (or `assistantId`)");
  assertThrows(
    () => resolveSidePanel({ ...BASE, askAi: "a", variant: "top" as "inline" }),
    Error,
    "`variant`",
  );
  assertThrows(
    () => resolveSidePanel({ ...BASE, askAi: "a", button: { variant: "x" as "inline" } }),
    Error,
    "`button.variant`",
  );
  assertThrows(
    () => resolveSidePanel({ ...BASE, askAi: "a", expandedWidth: 0 }),
    Error,
    "`expandedWidth`",
  );
  assertThrows(
    () =>
      resolveSidePanel({
        ...BASE,
        askAi: "a",
        translations: { header: { title: 3 as unknown as string } },
      }),
    Error,
    "`translations.header.title`",
  );
  assertThrows(
    () =>
      resolveSidePanel({
        ...BASE,
        askAi: "a",
        keyboardShortcuts: { "Ctrl/Cmd+I": "yes" as unknown as boolean },
      }),
    Error,
    "`keyboardShortcuts.Ctrl/Cmd+I`",
  );
  assertThrows(() => resolveSidePanel({ ...BASE, apiKey: "", askAi: "a" }), Error, "`apiKey`");
});
