/// <reference lib="dom" />
/**
 * `widget/options.ts`: the spec's defaults, the deprecated `indexName`,
 * Ask AI's credentials and backend, and the errors that name the option.
 */
import { assertEquals, assertThrows } from "@std/assert";
import { resolveOptions, type SearchBoxOptions } from "../../../widget/options.ts";
import { DEFAULT_TRANSLATIONS } from "../../../widget/translations.ts";

const BASE: SearchBoxOptions = { appId: "app", apiKey: "key", indices: ["docs"] };

Deno.test("defaults of the spec", () => {
  const o = resolveOptions(BASE);
  assertEquals(o.environment, globalThis as unknown as Window);
  assertEquals(o.indices, [{ name: "docs", searchParameters: undefined }]);
  assertEquals(o.placeholder, "Search docs");
  assertEquals(o.askAi, null);
  assertEquals(o.hitComponent, null);
  assertEquals(o.resultsFooterComponent, null);
  assertEquals(o.getMissingResultsUrl, null);
  assertEquals(o.disableUserPersonalization, false);
  assertEquals(o.initialQuery, "");
  assertEquals(o.translations, DEFAULT_TRANSLATIONS);
  assertEquals(o.keyboardShortcuts, { "Ctrl/Cmd+K": true, "/": true });
  assertEquals([o.maxResultsPerGroup, o.recentSearchesLimit, o.recentSearchesWithFavoritesLimit], [
    5,
    7,
    4,
  ]);
  assertEquals(o.theme, undefined);
  assertEquals([o.onReady, o.onOpen, o.onClose], [null, null, null]);
  const items = [{ objectID: "x" }] as never[];
  assertEquals(o.transformItems(items), items);
});

Deno.test("indices: names or objects in order; the deprecated indexName + searchParameters", () => {
  assertEquals(
    resolveOptions({ ...BASE, indices: ["a", { name: "b", searchParameters: { x: 1 } }] }).indices,
    [{ name: "a", searchParameters: undefined }, { name: "b", searchParameters: { x: 1 } }],
  );
  assertEquals(
    resolveOptions({ appId: "app", apiKey: "key", indexName: "old", searchParameters: { y: 2 } })
      .indices,
    [{ name: "old", searchParameters: { y: 2 } }],
  );
});

Deno.test("placeholder: the option, then the translation, then the default (Ask AI's variant)", () => {
  assertEquals(
    resolveOptions({ ...BASE, askAi: "assistant" }).placeholder,
    "Search docs or ask AI a question",
  );
  assertEquals(
    resolveOptions({ ...BASE, translations: { modal: { searchBox: { placeholderText: "T" } } } })
      .placeholder,
    "T",
  );
  assertEquals(
    resolveOptions({
      ...BASE,
      placeholder: "P",
      translations: { modal: { searchBox: { placeholderText: "T" } } },
    }).placeholder,
    "P",
  );
});

Deno.test("askAi: a string is the assistant id; credentials, index and backend default", () => {
  assertEquals(resolveOptions({ ...BASE, askAi: "assistant" }).askAi, {
    assistantId: "assistant",
    appId: "app",
    apiKey: "key",
    indexName: "docs",
    baseUrl: "https://askai.algolia.com",
  });
  const own = resolveOptions({
    ...BASE,
    askAi: {
      assistantId: "a",
      appId: "ai-app",
      apiKey: "ai-key",
      indexName: "ai",
      agentStudio: true,
    },
  }).askAi!;
  assertEquals([own.appId, own.apiKey, own.indexName, own.baseUrl], [
    "ai-app",
    "ai-key",
    "ai",
    "https://ai-app.algolia.net",
  ]);
  assertEquals(
    resolveOptions({ ...BASE, askAi: { assistantId: "a", baseUrl: "http://127.0.0.1:1/" } }).askAi!
      .baseUrl,
    "http://127.0.0.1:1",
  );
});

Deno.test("the default navigator opens hits through the environment", () => {
  const calls: unknown[][] = [];
  const environment = {
    location: { assign: (url: string) => calls.push(["assign", url]) },
    open: (...args: unknown[]) => calls.push(["open", ...args]),
  } as unknown as Window;
  const { navigator } = resolveOptions({ ...BASE, environment });
  const params = { itemUrl: "/x", item: {} as never, state: { query: "", context: { nbHits: 0 } } };
  navigator.navigate(params);
  navigator.navigateNewTab(params);
  navigator.navigateNewWindow(params);
  assertEquals(calls, [
    ["assign", "/x"],
    ["open", "/x", "_blank", "noopener"],
    ["open", "/x", "_blank", "noopener,popup"],
  ]);
  const navigate = () => {};
  assertEquals(resolveOptions({ ...BASE, navigator: { navigate } }).navigator.navigate, navigate);
});

Deno.test("bad options throw an Error naming the option", () => {
  const bad: Array<[unknown, string]> = [
    [null, "The search box options must be an object"],
    [{ ...BASE, appId: "" }, "`appId` must be a non-empty string"],
    [{ apiKey: "key", indices: ["docs"] }, "`appId` must be a non-empty string"],
    [
      { appId: "app", apiKey: "key" },
      "Either `indices` or `indexName` must be passed to the search box",
    ],
    [
      { ...BASE, indices: [] },
      "`indices` must be a non-empty array of index names or `{name}` objects",
    ],
    [{ ...BASE, indices: ["a", { name: "" }] }, "`indices[1].name` must be a non-empty string"],
    [
      { ...BASE, indices: [{ name: "a", searchParameters: 1 }] },
      "`indices[0].searchParameters` must be an object",
    ],
    [{ ...BASE, hitComponent: "x" }, "`hitComponent` must be a function"],
    [{ ...BASE, navigator: { navigate: 1 } }, "`navigator.navigate` must be a function"],
    [
      { ...BASE, disableUserPersonalization: "yes" },
      "`disableUserPersonalization` must be a boolean",
    ],
    [{ ...BASE, maxResultsPerGroup: 0 }, "`maxResultsPerGroup` must be a positive integer, got 0"],
    [{ ...BASE, theme: "blue" }, '`theme` must be "light", "dark" or "auto", got "blue"'],
    [{ ...BASE, onReady: "yes" }, "`onReady` must be a function"],
    [{ ...BASE, onOpen: 1 }, "`onOpen` must be a function"],
    [{ ...BASE, onClose: {} }, "`onClose` must be a function"],
    [
      { ...BASE, keyboardShortcuts: { "Ctrl+K": false } },
      '`keyboardShortcuts` takes the boolean keys "Ctrl/Cmd+K" and "/", got "Ctrl+K": false',
    ],
    [{ ...BASE, askAi: {} }, "`askAi.assistantId` must be a non-empty string"],
    [
      { ...BASE, askAi: { assistantId: "a", agentStudio: 1 } },
      "`askAi.agentStudio` must be a boolean",
    ],
    [
      {
        ...BASE,
        askAi: {
          assistantId: "a",
          agentStudio: true,
          searchParameters: { docs: { facetFilters: [] } },
        },
      },
      "`askAi.searchParameters.docs.facetFilters` is not supported with `agentStudio`; use `filters`",
    ],
    [
      { ...BASE, translations: { modal: { nope: {} } } },
      "Unknown option `translations.modal.nope`",
    ],
  ];
  for (const [options, message] of bad) {
    assertThrows(() => resolveOptions(options as SearchBoxOptions), Error, message);
  }
});
