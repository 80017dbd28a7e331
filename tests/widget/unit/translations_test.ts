/// <reference lib="dom" />
/**
 * `widget/translations.ts`: a partial `translations` option merged into the
 * defaults, and its errors.
 */
import { assert, assertEquals, assertThrows } from "@std/assert";
import { DEFAULT_TRANSLATIONS, mergeTranslations } from "../../../widget/translations.ts";

Deno.test("no option: the defaults themselves", () => {
  assertEquals(mergeTranslations(undefined), DEFAULT_TRANSLATIONS);
});

Deno.test("given texts replace the defaults, the others stay; the defaults are not changed", () => {
  const aggregated = (queries: string[]) => ({ before: `${queries.length}: ` });
  const merged = mergeTranslations({
    button: { buttonText: "Suchen" },
    modal: {
      searchBox: { placeholderText: "Suche", enterKeyHint: "go" },
      askAiScreen: { aggregatedToolCallText: aggregated },
    },
  });
  assertEquals(merged.button, { buttonText: "Suchen", buttonAriaLabel: "Search" });
  assertEquals(merged.modal.searchBox.placeholderText, "Suche");
  assertEquals(merged.modal.searchBox.enterKeyHint, "go");
  assertEquals(merged.modal.searchBox.clearButtonTitle, "Clear");
  assertEquals(merged.modal.askAiScreen.aggregatedToolCallText, aggregated);
  assertEquals(merged.modal.footer, DEFAULT_TRANSLATIONS.modal.footer);
  assertEquals(DEFAULT_TRANSLATIONS.button.buttonText, "Search");
  assert(!("placeholderText" in DEFAULT_TRANSLATIONS.modal.searchBox));
});

Deno.test("errors name the option path", () => {
  const bad: Array<[unknown, string]> = [
    [[], "`translations` must be an object, got []"],
    [{ footer: {} }, "Unknown option `translations.footer`"],
    [{ modal: { footer: { nope: "x" } } }, "Unknown option `translations.modal.footer.nope`"],
    [
      { button: { buttonText: 1 } },
      "`translations.button.buttonText` must be a string, got number",
    ],
    [
      { modal: { askAiScreen: { aggregatedToolCallNode: "x" } } },
      "`translations.modal.askAiScreen.aggregatedToolCallNode` must be a function, got string",
    ],
    [
      { modal: { searchBox: { enterKeyHintAskAi: "submit" } } },
      '`translations.modal.searchBox.enterKeyHintAskAi` must be one of enter, done, go, next, previous, search, send, got "submit"',
    ],
  ];
  for (const [partial, message] of bad) {
    assertThrows(() => mergeTranslations(partial), Error, message);
  }
});
