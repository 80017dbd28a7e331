/**
 * The documentation search box (shared/spec/search-widget.md): the
 * `searchBox(options)` initializer, the `SearchBox` Preact component and the
 * `html` template helper.
 *
 * ```ts
 * import { searchBox } from "@mikrogql/ext/widget";
 * searchBox({ container: "#search", appId: "APP", apiKey: "KEY", indices: ["docs"] });
 * ```
 *
 * @module
 */
export { searchBox, type SearchBoxInstance } from "./initializer.ts";
export { sidePanel, type SidePanelInstance, type SidePanelOptions } from "./sidepanel.ts";
export type { SidePanelPanelOptions, SidePanelTexts } from "./side_panel_options.ts";
export { SearchBox, type SearchBoxProps } from "./ui/search_box.ts";
export { html } from "./ui/html.ts";
export type {
  AskAiOptions,
  HitComponentProps,
  Navigator,
  NavigatorParams,
  ResultsFooterProps,
  SearchBoxOptions,
  SearchState,
  Template,
  TemplateResult,
} from "./options.ts";
export type { Html } from "./ui/html.ts";
export type {
  DocSearchHit,
  HighlightResult,
  HighlightValue,
  HitType,
  IndexEntry,
  Level,
  SearchClient,
  SearchRequest,
} from "./search.ts";
export type { KeyboardShortcuts } from "./shortcuts.ts";
export type {
  AggregatedToolCallText,
  AskAiScreenTranslations,
  ButtonTranslations,
  ErrorScreenTranslations,
  FooterTranslations,
  NewConversationTranslations,
  NoResultsScreenTranslations,
  PartialTranslations,
  ResultsScreenTranslations,
  SearchBoxTranslations,
  StartScreenTranslations,
  Translations,
} from "./translations.ts";
