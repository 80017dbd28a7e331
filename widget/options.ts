/**
 * The options of the search box (shared/spec/search-widget.md, "Options"),
 * their defaults, and their validation: a bad option is an `Error` whose
 * message names the option.
 *
 * @module
 */
import type { VNode } from "preact";
import type { KeyboardShortcuts } from "./shortcuts.ts";
import type { DocSearchHit, IndexEntry, SearchClient } from "./search.ts";
import { mergeTranslations, type PartialTranslations, type Translations } from "./translations.ts";
import type { Html } from "./ui/html.ts";

/**
 * What a template function may return (spec rule 3): an element (or
 * several) from the `html` helper or JSX, a component, or a plain string,
 * which is shown as text (as DocSearch 4.7.1 does: markup only through `html`).
 */
export type TemplateResult =
  | string
  | VNode
  | VNode[]
  | null
  | ((props: Record<string, unknown>) => VNode | null);

/**
 * A template (`hitComponent`, `resultsFooterComponent`): a function of props
 * that gets the `html` tagged-template helper as its second argument.
 */
export type Template<P> = (props: P, helpers: { html: Html }) => TemplateResult;

/** What `resultsFooterComponent` and the navigator get as `state`. */
export interface SearchState {
  /** The current query text. */
  query: string;
  /** `nbHits`: the number of hits of the current results, summed over the indices. */
  context: { nbHits: number };
}

/** Props of `hitComponent`: the hit and the default rendered content. */
export interface HitComponentProps {
  /** The hit, with every attribute the search API returned. */
  hit: DocSearchHit;
  /** The default content of the row (icon, highlighted title and path). */
  children: VNode;
}

/** Props of `resultsFooterComponent`. */
export interface ResultsFooterProps {
  /** The query and the number of hits. */
  state: SearchState;
}

/** What the navigator's methods get. */
export interface NavigatorParams {
  /** The URL of the selected hit. */
  itemUrl: string;
  /** The selected hit. */
  item: DocSearchHit;
  /** The query and the number of hits. */
  state: SearchState;
}

/** The autocomplete navigator interface: how a selected hit is opened. */
export interface Navigator {
  /** Enter: opens the hit (default `location.assign`); the modal closes. */
  navigate(params: NavigatorParams): void;
  /** Ctrl/Cmd+Enter: opens the hit in a new tab (default `window.open(url, "_blank")`). */
  navigateNewTab(params: NavigatorParams): void;
  /** Shift+Enter: opens the hit in a new window (default `window.open` as a popup). */
  navigateNewWindow(params: NavigatorParams): void;
}

/** The AskAi object (spec "AskAi object"). */
export interface AskAiOptions {
  /** The assistant ID (a plain string `askAi` is this ID). */
  assistantId: string;
  /** Index for Ask AI; default: the first index. */
  indexName?: string;
  /** Search API key for Ask AI; default: the top-level `apiKey`. */
  apiKey?: string;
  /** Application ID for Ask AI; default: the top-level `appId`. */
  appId?: string;
  /**
   * Standard backend: a flat object (`facetFilters`, `filters`, ...).
   * Agent platform (`agentStudio`): keyed by index name, no `facetFilters`.
   */
  searchParameters?: Record<string, unknown>;
  /** Shows three published suggested questions on the new-conversation screen. */
  suggestedQuestions?: boolean;
  /** Experimental: chat with the agent platform instead of the standard Ask AI backend. */
  agentStudio?: boolean;
  /**
   * Base URL of the Ask AI backend: default `https://askai.algolia.com` for the
   * standard backend, `https://{appId}.algolia.net` for the agent platform.
   */
  baseUrl?: string;
}

/** The AskAi object with its credentials, index and base URL settled. */
export interface ResolvedAskAi extends AskAiOptions {
  /** Ask AI's application ID. */
  appId: string;
  /** Ask AI's search API key. */
  apiKey: string;
  /** Ask AI's index. */
  indexName: string;
  /** Ask AI's backend, without a trailing slash. */
  baseUrl: string;
}

/** The options of `searchBox()` and the props of `SearchBox` (spec "Options"). */
export interface SearchBoxOptions {
  /** CSS selector (first match) or element; the button and the modal render into it. */
  container?: string | HTMLElement;
  /** The window the search box runs in; default `window`. */
  environment?: Window;
  /** Application ID of the search provider (required). */
  appId: string;
  /** Search-only API key (required). */
  apiKey: string;
  /** Indices in priority order: a name, or `{name, searchParameters}`. */
  indices?: Array<string | IndexEntry>;
  /** @deprecated use `indices`. */
  indexName?: string;
  /** Placeholder of the modal's input; default `Search docs` (a variant mentioning AI with `askAi`). */
  placeholder?: string;
  /** Enables Ask AI: the assistant ID, or the {@link AskAiOptions} object. */
  askAi?: string | AskAiOptions;
  /** @deprecated use `indices` entries' `searchParameters`. */
  searchParameters?: Record<string, unknown>;
  /** Gets the hits of a search response before display; returns a new array of hits. */
  transformItems?: (items: DocSearchHit[]) => DocSearchHit[];
  /** Renders each result (default: a link to `hit.url` around `children`). */
  hitComponent?: Template<HitComponentProps>;
  /** Gets the `algoliasearch/lite` client and returns the client to use. */
  transformSearchClient?: (client: SearchClient) => SearchClient;
  /** When true, recent searches, favorites and conversations are not stored. */
  disableUserPersonalization?: boolean;
  /** Text of the input when the modal opens. */
  initialQuery?: string;
  /** How a selected hit is opened (any method left out keeps its default). */
  navigator?: Partial<Navigator>;
  /** Overrides of any text and aria label. */
  translations?: PartialTranslations;
  /** URL where a user can report a query without results. */
  getMissingResultsUrl?: (params: { query: string }) => string;
  /** Turns the global shortcuts on or off (both on by default). */
  keyboardShortcuts?: KeyboardShortcuts;
  /** Renders content below the results. */
  resultsFooterComponent?: Template<ResultsFooterProps>;
  /** Results shown per group (lvl0); default 5. */
  maxResultsPerGroup?: number;
  /** Recent searches kept; default 7. */
  recentSearchesLimit?: number;
  /** Recent searches kept once a favorite exists; default 4. */
  recentSearchesWithFavoritesLimit?: number;
  /**
   * Colour scheme. Left out: light, dark under `html[data-theme=dark]` (the
   * page's choice). `"light"` or `"dark"`: sets `data-theme` on the page's
   * `html` element while the search box is mounted (restored on `destroy`),
   * as DocSearch 4.7.1 does. `"auto"`: also dark when the OS prefers a dark
   * scheme (`prefers-color-scheme: dark`), unless `html[data-theme=light]`.
   */
  theme?: "light" | "dark" | "auto";
  /** Called once the search box is mounted (the button is there, the shortcuts work). */
  onReady?: () => void;
  /** Called when the modal opens. */
  onOpen?: () => void;
  /** Called when the modal closes. */
  onClose?: () => void;
}

/** The options with defaults applied and validated. */
export interface ResolvedOptions {
  environment: Window;
  appId: string;
  apiKey: string;
  indices: IndexEntry[];
  placeholder: string;
  askAi: ResolvedAskAi | null;
  transformItems: (items: DocSearchHit[]) => DocSearchHit[];
  hitComponent: Template<HitComponentProps> | null;
  transformSearchClient: (client: SearchClient) => SearchClient;
  disableUserPersonalization: boolean;
  initialQuery: string;
  navigator: Navigator;
  translations: Translations;
  getMissingResultsUrl: ((params: { query: string }) => string) | null;
  keyboardShortcuts: Required<KeyboardShortcuts>;
  resultsFooterComponent: Template<ResultsFooterProps> | null;
  maxResultsPerGroup: number;
  recentSearchesLimit: number;
  recentSearchesWithFavoritesLimit: number;
  theme?: "light" | "dark" | "auto";
  onReady: (() => void) | null;
  onOpen: (() => void) | null;
  onClose: (() => void) | null;
}

const identity = <T>(value: T) => value;

/**
 * Validates `options` and applies the spec's defaults.
 *
 * @throws {Error} when neither `indices` nor `indexName` is given, or an
 * option has the wrong type or value; the message names the option.
 */
export function resolveOptions(options: SearchBoxOptions): ResolvedOptions {
  const o = options as unknown as Record<string, unknown>;
  if (typeof options !== "object" || options === null) {
    throw new Error("The search box options must be an object");
  }
  const environment = options.environment ?? globalThis as unknown as Window;
  const appId = text(o, "appId", true)!;
  const apiKey = text(o, "apiKey", true)!;
  const indices = resolveIndices(options);
  const ask = resolveAskAi(options.askAi);
  const askAiAppId = ask?.appId ?? appId;
  const askAi: ResolvedAskAi | null = ask && {
    ...ask,
    appId: askAiAppId,
    apiKey: ask.apiKey ?? apiKey,
    indexName: ask.indexName ?? indices[0].name,
    baseUrl: (ask.baseUrl ??
      (ask.agentStudio ? `https://${askAiAppId}.algolia.net` : "https://askai.algolia.com"))
      .replace(/\/$/, ""),
  };
  const translations = mergeTranslations(options.translations);
  const open = (features?: string) => (p: NavigatorParams) =>
    environment.open(p.itemUrl, "_blank", features);
  const navigator = {
    navigate: (p: NavigatorParams) => environment.location.assign(p.itemUrl),
    navigateNewTab: open("noopener"),
    navigateNewWindow: open("noopener,popup"),
    ...record(o, "navigator"),
  };
  for (const method of ["navigate", "navigateNewTab", "navigateNewWindow"]) {
    fn(navigator as Record<string, unknown>, method, "navigator.");
  }
  const theme = options.theme;
  if (theme && !["light", "dark", "auto"].includes(theme)) {
    throw new Error(`\`theme\` must be "light", "dark" or "auto", got ${JSON.stringify(theme)}`);
  }
  const shortcuts = {
    "Ctrl/Cmd+K": true,
    "/": true,
    ...record(o, "keyboardShortcuts"),
  };
  for (const [key, on] of Object.entries(shortcuts)) {
    if (!(key === "Ctrl/Cmd+K" || key === "/") || typeof on !== "boolean") {
      throw new Error(
        `\`keyboardShortcuts\` takes the boolean keys "Ctrl/Cmd+K" and "/", got ${
          JSON.stringify(key)
        }: ${JSON.stringify(on)}`,
      );
    }
  }
  return {
    environment,
    appId,
    apiKey,
    indices,
    placeholder: text(o, "placeholder") ??
      translations.modal.searchBox.placeholderText ??
      (askAi ? "Search docs or ask AI a question" : "Search docs"),
    askAi,
    transformItems: fn(o, "transformItems") ?? identity,
    hitComponent: fn(o, "hitComponent"),
    transformSearchClient: fn(o, "transformSearchClient") ?? identity,
    disableUserPersonalization: bool(o, "disableUserPersonalization"),
    initialQuery: text(o, "initialQuery") ?? "",
    navigator: navigator as Navigator,
    translations,
    getMissingResultsUrl: fn(o, "getMissingResultsUrl"),
    keyboardShortcuts: shortcuts as Required<KeyboardShortcuts>,
    resultsFooterComponent: fn(o, "resultsFooterComponent"),
    maxResultsPerGroup: count(o, "maxResultsPerGroup", 5),
    recentSearchesLimit: count(o, "recentSearchesLimit", 7),
    recentSearchesWithFavoritesLimit: count(
      o,
      "recentSearchesWithFavoritesLimit",
      4,
    ),
    theme,
    onReady: fn(o, "onReady"),
    onOpen: fn(o, "onOpen"),
    onClose: fn(o, "onClose"),
  };
}

/** `indices` in object form; the deprecated `indexName` + `searchParameters` when `indices` is absent. */
function resolveIndices(options: SearchBoxOptions): IndexEntry[] {
  const o = options as unknown as Record<string, unknown>;
  const searchParameters = record(o, "searchParameters");
  if (options.indices === undefined) {
    const name = text(o, "indexName");
    if (name === undefined) {
      throw new Error(
        "Either `indices` or `indexName` must be passed to the search box",
      );
    }
    return [{ name, searchParameters }];
  }
  if (!Array.isArray(options.indices) || options.indices.length === 0) {
    throw new Error(
      "`indices` must be a non-empty array of index names or `{name}` objects",
    );
  }
  return options.indices.map((entry, i) => {
    const index = typeof entry === "string" ? { name: entry } : entry;
    if (typeof index?.name !== "string" || index.name === "") {
      throw new Error(`\`indices[${i}].name\` must be a non-empty string`);
    }
    return {
      name: index.name,
      searchParameters: record(
        index as unknown as Record<string, unknown>,
        "searchParameters",
        `indices[${i}].`,
      ),
    };
  });
}

/** A string `askAi` is the assistant ID; an object needs `assistantId`. */
function resolveAskAi(askAi: SearchBoxOptions["askAi"]): AskAiOptions | null {
  if (askAi === undefined) return null;
  const value = typeof askAi === "string" ? { assistantId: askAi } : askAi;
  const o = record({ askAi: value }, "askAi") as Record<string, unknown>;
  text(o, "assistantId", true, "askAi.");
  for (const key of ["indexName", "apiKey", "appId", "baseUrl"]) {
    text(o, key, false, "askAi.");
  }
  for (const key of ["suggestedQuestions", "agentStudio"]) {
    bool(o, key, "askAi.");
  }
  const parameters = record(o, "searchParameters", "askAi.");
  if (o.agentStudio && parameters) {
    for (const [index, params] of Object.entries(parameters)) {
      const p = record({ [index]: params }, index, "askAi.searchParameters.");
      if (p && "facetFilters" in p) {
        throw new Error(
          `\`askAi.searchParameters.${index}.facetFilters\` is not supported with \`agentStudio\`; use \`filters\``,
        );
      }
    }
  }
  return value as AskAiOptions;
}

function text(
  o: Record<string, unknown>,
  key: string,
  required = false,
  prefix = "",
): string | undefined {
  const value = o[key];
  if (value === undefined && !required) return undefined;
  if (typeof value !== "string" || (required && value === "")) {
    throw new Error(
      `\`${prefix}${key}\` must be a ${required ? "non-empty " : ""}string`,
    );
  }
  return value;
}

// deno-lint-ignore no-explicit-any
function fn<T extends (...args: any[]) => unknown>(
  o: Record<string, unknown>,
  key: string,
  prefix = "",
): T | null {
  const value = o[key];
  if (value === undefined) return null;
  if (typeof value !== "function") {
    throw new Error(`\`${prefix}${key}\` must be a function`);
  }
  return value as T;
}

function bool(o: Record<string, unknown>, key: string, prefix = ""): boolean {
  const value = o[key] ?? false;
  if (typeof value !== "boolean") {
    throw new Error(`\`${prefix}${key}\` must be a boolean`);
  }
  return value;
}

function count(
  o: Record<string, unknown>,
  key: string,
  fallback: number,
): number {
  const value = o[key] ?? fallback;
  if (!Number.isInteger(value) || (value as number) < 1) {
    throw new Error(
      `\`${key}\` must be a positive integer, got ${JSON.stringify(value)}`,
    );
  }
  return value as number;
}

function record(
  o: Record<string, unknown>,
  key: string,
  prefix = "",
): Record<string, unknown> | undefined {
  const value = o[key];
  if (value === undefined) return undefined;
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new Error(`\`${prefix}${key}\` must be an object`);
  }
  return value as Record<string, unknown>;
}
