/**
 * Types of the React package `@mikrogql/searchbox-react` (the build of
 * `widget/react/mod.ts`, which has no declaration emit), published next to
 * `searchbox-react.js`. The props are the options of `searchBox()` without
 * `container`, plus `portalContainer`; templates return React nodes.
 * `tests/widget/react/types_test.ts` fails when a prop of the source is
 * missing here or one here is not in the source, or when they differ in
 * which are required.
 *
 * @module
 */
import type { ReactElement, ReactNode } from "react";

/** A heading level of a hit's hierarchy. */
export type Level = "lvl0" | "lvl1" | "lvl2" | "lvl3" | "lvl4" | "lvl5" | "lvl6";

/** A highlighted or snippeted value of the search API (`<mark>` around matches). */
export interface HighlightValue {
  value: string;
  matchLevel?: "none" | "partial" | "full";
  matchedWords?: string[];
}

/** The highlighted attributes of a hit. */
export interface HighlightResult {
  content?: HighlightValue;
  hierarchy?: Partial<Record<Level, HighlightValue>>;
}

/** A search result (a DocSearch record). */
export interface DocSearchHit {
  objectID: string;
  url: string;
  anchor?: string | null;
  type: Level | "content";
  content: string | null;
  hierarchy: Partial<Record<Level, string | null>>;
  _highlightResult?: HighlightResult;
  _snippetResult?: HighlightResult;
  [attribute: string]: unknown;
}

/** An entry of `indices`. */
export interface IndexEntry {
  name: string;
  searchParameters?: Record<string, unknown>;
}

/** The one method of the search client the search box calls (an `algoliasearch/lite` client has it). */
export interface SearchClient {
  search(
    params: { requests: Array<Record<string, unknown> & { indexName: string; query: string }> },
  ): Promise<{ results: unknown[] }>;
}

/** What `resultsFooterComponent` and the navigator get as `state`. */
export interface SearchState {
  query: string;
  context: { nbHits: number };
}

/** Builds React elements from a tagged template (`htm` over React's `createElement`). */
export type Html = (strings: TemplateStringsArray, ...values: unknown[]) => ReactNode;

/** A template: a function of props, with `html` as second argument, returning a node or a component. */
export type Template<P> = (
  props: P,
  helpers: { html: Html },
) => ReactNode | ((props: Record<string, unknown>) => ReactNode);

/** What the navigator's methods get. */
export interface NavigatorParams {
  itemUrl: string;
  item: DocSearchHit;
  state: SearchState;
}

/** Ask AI's options (`askAi` as an object). */
export interface AskAiOptions {
  assistantId: string;
  indexName?: string;
  apiKey?: string;
  appId?: string;
  searchParameters?: Record<string, unknown>;
  suggestedQuestions?: boolean;
  agentStudio?: boolean;
  baseUrl?: string;
}

/** Overrides of texts and aria labels, by screen (see the spec's translations table). */
export interface PartialTranslations {
  button?: { buttonText?: string; buttonAriaLabel?: string };
  modal?: Record<string, Record<string, unknown> | undefined>;
}

/** Props of {@link SearchBox}. */
export interface SearchBoxProps {
  /** Node the modal mounts into (a React portal); default `document.body`. */
  portalContainer?: Element | DocumentFragment;
  environment?: Window;
  appId: string;
  apiKey: string;
  indices?: Array<string | IndexEntry>;
  /** @deprecated use `indices`. */
  indexName?: string;
  placeholder?: string;
  askAi?: string | AskAiOptions;
  /** @deprecated use `indices` entries' `searchParameters`. */
  searchParameters?: Record<string, unknown>;
  transformItems?: (items: DocSearchHit[]) => DocSearchHit[];
  hitComponent?: Template<{ hit: DocSearchHit; children: ReactNode }>;
  transformSearchClient?: (client: SearchClient) => SearchClient;
  disableUserPersonalization?: boolean;
  initialQuery?: string;
  navigator?: {
    navigate?(params: NavigatorParams): void;
    navigateNewTab?(params: NavigatorParams): void;
    navigateNewWindow?(params: NavigatorParams): void;
  };
  translations?: PartialTranslations;
  getMissingResultsUrl?: (params: { query: string }) => string;
  keyboardShortcuts?: { "Ctrl/Cmd+K"?: boolean; "/"?: boolean };
  resultsFooterComponent?: Template<{ state: SearchState }>;
  maxResultsPerGroup?: number;
  recentSearchesLimit?: number;
  recentSearchesWithFavoritesLimit?: number;
  theme?: "light" | "dark" | "auto";
  onReady?: () => void;
  onOpen?: () => void;
  onClose?: () => void;
}

/** The search box: the button, the shortcuts and, while open, the modal in `portalContainer`. */
export declare function SearchBox(props: SearchBoxProps): ReactElement;

/** The `html` template helper, building React elements. */
export declare const html: Html;
