/**
 * Every text and aria label of the search box, with the defaults of
 * shared/spec/search-widget.md ("Translations object"), and the merge of a
 * partial override into them.
 *
 * @module
 */
import type { VNode } from "preact";

/** Texts of the search button. */
export interface ButtonTranslations {
  /** Default `Search`. */
  buttonText: string;
  /** Default `Search`. */
  buttonAriaLabel: string;
}

/** Texts of the modal's search bar. */
export interface SearchBoxTranslations {
  /** Default `Clear`. */
  clearButtonTitle: string;
  /** Default `Clear the query`. */
  clearButtonAriaLabel: string;
  /** Default `Close`. */
  closeButtonText: string;
  /** Default `Close`. */
  closeButtonAriaLabel: string;
  /** Unset by default: `Search docs`, or a variant that mentions asking AI when Ask AI is on. */
  placeholderText?: string;
  /** Unset by default: `Ask another question...`. */
  placeholderTextAskAi?: string;
  /** Default `Answering...`. */
  placeholderTextAskAiStreaming: string;
  /** One of the HTML `enterkeyhint` values ({@link ENTER_KEY_HINTS}). */
  enterKeyHint: string;
  /** One of the HTML `enterkeyhint` values ({@link ENTER_KEY_HINTS}). */
  enterKeyHintAskAi: string;
  /** Default `Search`. */
  searchInputLabel: string;
  /** Default `Back to keyword search`. */
  backToKeywordSearchButtonText: string;
  /** Default `Back to keyword search`. */
  backToKeywordSearchButtonAriaLabel: string;
  /** Default `Ask a question`. */
  newConversationPlaceholder: string;
  /** Default `My conversation history`. */
  conversationHistoryTitle: string;
  /** Default `Start a new conversation`. */
  startNewConversationText: string;
  /** Default `Conversation history`. */
  viewConversationHistoryText: string;
  /** Placeholder once the conversation is too long to go on (`AI-217`); default `Conversation limit reached`. */
  threadDepthErrorPlaceholder: string;
}

/** Texts of the start screen (recent and favorite searches, recent conversations). */
export interface StartScreenTranslations {
  /** Default `Recent`. */
  recentSearchesTitle: string;
  /** Default `No recent searches`. */
  noRecentSearchesText: string;
  /** Default `Save this search`. */
  saveRecentSearchButtonTitle: string;
  /** Default `Remove this search from history`. */
  removeRecentSearchButtonTitle: string;
  /** Default `Favorite`. */
  favoriteSearchesTitle: string;
  /** Default `Remove this search from favorites`. */
  removeFavoriteSearchButtonTitle: string;
  /** Default `Recent conversations`. */
  recentConversationsTitle: string;
  /** Default `Remove this conversation from history`. */
  removeRecentConversationButtonTitle: string;
}

/** Texts of the error screen. */
export interface ErrorScreenTranslations {
  /** Default `Unable to fetch results`. */
  titleText: string;
  /** Default `You might want to check your network connection.`. */
  helpText: string;
}

/** Texts of the no-results screen. */
export interface NoResultsScreenTranslations {
  /** Default `No results found for`. */
  noResultsText: string;
  /** Default `Try searching for`. */
  suggestedQueryText: string;
  /** Default `Believe this query should return results?`. */
  reportMissingResultsText: string;
  /** Default `Let us know.`. */
  reportMissingResultsLinkText: string;
}

/** Texts of the results screen's Ask AI row. */
export interface ResultsScreenTranslations {
  /** Default `Ask AI: `. */
  askAiPlaceholder: string;
  /** Default `Didn't find it in the docs? Ask AI to help: `. */
  noResultsAskAiPlaceholder: string;
}

/** Separators of an aggregated tool-call line (`Searched for "a", "b" and "c"`). */
export interface AggregatedToolCallText {
  /** Text before the first query; default `Searched for `. */
  before?: string;
  /** Between queries; default `, `. */
  separator?: string;
  /** Between the last two queries; default ` and `. */
  lastSeparator?: string;
  /** Text after the last query; default none. */
  after?: string;
}

/** Texts of the Ask AI screen. */
export interface AskAiScreenTranslations {
  /** Default `Answers are generated with AI which can make mistakes. Verify responses.`. */
  disclaimerText: string;
  /** Default `Related sources`. */
  relatedSourcesText: string;
  /** Default `Thinking...`. */
  thinkingText: string;
  /** Default `Copy`. */
  copyButtonText: string;
  /** Default `Copied!`. */
  copyButtonCopiedText: string;
  /** Default `Copy`. */
  copyButtonTitle: string;
  /** Default `Like`. */
  likeButtonTitle: string;
  /** Default `Dislike`. */
  dislikeButtonTitle: string;
  /** Default `Thanks for your feedback!`. */
  thanksForFeedbackText: string;
  /** Default `Searching...`. */
  preToolCallText: string;
  /** Default `Searching for `. */
  duringToolCallText: string;
  /** Default `Searched for`. */
  afterToolCallText: string;
  /** Replaces the default rendering of consecutive searches of one answer. */
  aggregatedToolCallNode?: (
    queries: string[],
    onSearchQueryClick: (query: string) => void,
  ) => VNode | string;
  /** Separators used by the default rendering of consecutive searches. */
  aggregatedToolCallText?: (queries: string[]) => AggregatedToolCallText;
  /** Default `You stopped this response`. */
  stoppedStreamingText: string;
  /** Title of the button that stops a streaming answer (an addition to the spec's keys). */
  stopButtonTitle: string;
}

/** Texts of the modal's footer. */
export interface FooterTranslations {
  /** Default `Select`. */
  selectText: string;
  /** Default `Submit question`. */
  submitQuestionText: string;
  /** Default `Enter key`. */
  selectKeyAriaLabel: string;
  /** Default `Navigate`. */
  navigateText: string;
  /** Default `Arrow up`. */
  navigateUpKeyAriaLabel: string;
  /** Default `Arrow down`. */
  navigateDownKeyAriaLabel: string;
  /** Default `Close`. */
  closeText: string;
  /** Default `Back to search`. */
  backToSearchText: string;
  /** Default `Escape key`. */
  closeKeyAriaLabel: string;
  /** Default `Powered by`. */
  poweredByText: string;
}

/** Texts of the new-conversation screen. */
export interface NewConversationTranslations {
  /** Default `How can I help you today?`. */
  newConversationTitle: string;
  /** Default `I search through your documentation to help you find setup guides, feature details and troubleshooting tips, fast.`. */
  newConversationDescription: string;
}

/** Every text of the search box, grouped as the spec groups them. */
export interface Translations {
  /** The search button. */
  button: ButtonTranslations;
  /** The modal, by screen. */
  modal: {
    searchBox: SearchBoxTranslations;
    startScreen: StartScreenTranslations;
    errorScreen: ErrorScreenTranslations;
    noResultsScreen: NoResultsScreenTranslations;
    resultsScreen: ResultsScreenTranslations;
    askAiScreen: AskAiScreenTranslations;
    footer: FooterTranslations;
    newConversation: NewConversationTranslations;
  };
}

/** The `translations` option: any subset of {@link Translations}. */
export interface PartialTranslations {
  /** The search button. */
  button?: Partial<ButtonTranslations>;
  /** The modal, by screen. */
  modal?: {
    [G in keyof Translations["modal"]]?: Partial<Translations["modal"][G]>;
  };
}

/** The values HTML allows for `enterkeyhint`. */
export const ENTER_KEY_HINTS: readonly string[] = [
  "enter",
  "done",
  "go",
  "next",
  "previous",
  "search",
  "send",
];

/** The spec's default texts. */
export const DEFAULT_TRANSLATIONS: Translations = {
  button: { buttonText: "Search", buttonAriaLabel: "Search" },
  modal: {
    searchBox: {
      clearButtonTitle: "Clear",
      clearButtonAriaLabel: "Clear the query",
      closeButtonText: "Close",
      closeButtonAriaLabel: "Close",
      placeholderTextAskAiStreaming: "Answering...",
      enterKeyHint: "search",
      enterKeyHintAskAi: "enter",
      searchInputLabel: "Search",
      backToKeywordSearchButtonText: "Back to keyword search",
      backToKeywordSearchButtonAriaLabel: "Back to keyword search",
      newConversationPlaceholder: "Ask a question",
      conversationHistoryTitle: "My conversation history",
      startNewConversationText: "Start a new conversation",
      viewConversationHistoryText: "Conversation history",
      threadDepthErrorPlaceholder: "Conversation limit reached",
    },
    startScreen: {
      recentSearchesTitle: "Recent",
      noRecentSearchesText: "No recent searches",
      saveRecentSearchButtonTitle: "Save this search",
      removeRecentSearchButtonTitle: "Remove this search from history",
      favoriteSearchesTitle: "Favorite",
      removeFavoriteSearchButtonTitle: "Remove this search from favorites",
      recentConversationsTitle: "Recent conversations",
      removeRecentConversationButtonTitle: "Remove this conversation from history",
    },
    errorScreen: {
      titleText: "Unable to fetch results",
      helpText: "You might want to check your network connection.",
    },
    noResultsScreen: {
      noResultsText: "No results found for",
      suggestedQueryText: "Try searching for",
      reportMissingResultsText: "Believe this query should return results?",
      reportMissingResultsLinkText: "Let us know.",
    },
    resultsScreen: {
      askAiPlaceholder: "Ask AI: ",
      noResultsAskAiPlaceholder: "Didn't find it in the docs? Ask AI to help: ",
    },
    askAiScreen: {
      disclaimerText: "Answers are generated with AI which can make mistakes. Verify responses.",
      relatedSourcesText: "Related sources",
      thinkingText: "Thinking...",
      copyButtonText: "Copy",
      copyButtonCopiedText: "Copied!",
      copyButtonTitle: "Copy",
      likeButtonTitle: "Like",
      dislikeButtonTitle: "Dislike",
      thanksForFeedbackText: "Thanks for your feedback!",
      preToolCallText: "Searching...",
      duringToolCallText: "Searching for ",
      afterToolCallText: "Searched for",
      stoppedStreamingText: "You stopped this response",
      stopButtonTitle: "Stop answering",
    },
    footer: {
      selectText: "Select",
      submitQuestionText: "Submit question",
      selectKeyAriaLabel: "Enter key",
      navigateText: "Navigate",
      navigateUpKeyAriaLabel: "Arrow up",
      navigateDownKeyAriaLabel: "Arrow down",
      closeText: "Close",
      backToSearchText: "Back to search",
      closeKeyAriaLabel: "Escape key",
      poweredByText: "Powered by",
    },
    newConversation: {
      newConversationTitle: "How can I help you today?",
      newConversationDescription:
        "I search through your documentation to help you find setup guides, feature details and troubleshooting tips, fast.",
    },
  },
};

/**
 * Merges the `translations` option into {@link DEFAULT_TRANSLATIONS}.
 *
 * @throws {Error} when a group or key is unknown, a text is not a string (or
 * not a function for `aggregatedToolCallNode`/`aggregatedToolCallText`), or
 * `enterKeyHint`/`enterKeyHintAskAi` is not one of {@link ENTER_KEY_HINTS};
 * the message names the option path, e.g. `translations.modal.searchBox.enterKeyHint`.
 */
export function mergeTranslations(partial: unknown): Translations {
  if (partial === undefined) return DEFAULT_TRANSLATIONS;
  const button = { ...DEFAULT_TRANSLATIONS.button };
  const modal = Object.fromEntries(
    Object.entries(DEFAULT_TRANSLATIONS.modal).map(([k, v]) => [k, { ...v }]),
  ) as unknown as Translations["modal"];
  const merged: Translations = { button, modal };
  const groups = record(partial, "translations");
  for (const [name, value] of Object.entries(groups)) {
    if (name === "button") {
      assign(button, value, "translations.button");
    } else if (name === "modal") {
      for (
        const [group, texts] of Object.entries(
          record(value, "translations.modal"),
        )
      ) {
        const path = `translations.modal.${group}`;
        if (!(group in modal)) throw new Error(`Unknown option \`${path}\``);
        assign(modal[group as keyof Translations["modal"]], texts, path);
      }
    } else {
      throw new Error(`Unknown option \`translations.${name}\``);
    }
  }
  for (const key of ["enterKeyHint", "enterKeyHintAskAi"] as const) {
    const hint = modal.searchBox[key];
    if (!ENTER_KEY_HINTS.includes(hint)) {
      throw new Error(
        `\`translations.modal.searchBox.${key}\` must be one of ${
          ENTER_KEY_HINTS.join(", ")
        }, got ${JSON.stringify(hint)}`,
      );
    }
  }
  return merged;
}

const FUNCTION_KEYS = ["aggregatedToolCallNode", "aggregatedToolCallText"];
const OPTIONAL_KEYS = ["placeholderText", "placeholderTextAskAi"];

function record(value: unknown, path: string): Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new Error(
      `\`${path}\` must be an object, got ${JSON.stringify(value)}`,
    );
  }
  return value as Record<string, unknown>;
}

function assign(target: object, texts: unknown, path: string): void {
  for (const [key, text] of Object.entries(record(texts, path))) {
    const known = key in target ||
      (path.endsWith(".askAiScreen") && FUNCTION_KEYS.includes(key)) ||
      (path.endsWith(".searchBox") && OPTIONAL_KEYS.includes(key));
    if (!known) throw new Error(`Unknown option \`${path}.${key}\``);
    const type = FUNCTION_KEYS.includes(key) ? "function" : "string";
    if ((typeof text === "function" ? "function" : typeof text) !== type) {
      throw new Error(
        `\`${path}.${key}\` must be a ${type}, got ${typeof text}`,
      );
    }
    (target as Record<string, unknown>)[key] = text;
  }
}
