/**
 * The search modal: the search bar, the screen for the current state (start,
 * results, no results, error), the rows and the footer. The search itself is
 * `useKeywordSearch` (the loading indicator shows when results take more than
 * 300 ms), the keyboard navigation across the rows `useListNavigation`.
 * With `askAi`, the rows start with "Ask AI: <query>" (active by default),
 * the start screen lists the recent conversations, and the Ask AI mode (a
 * chunk loaded on its first use) replaces the modal's content until Escape
 * or its back button.
 *
 * @module
 */
import type { VNode } from "preact";
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from "preact/hooks";
import type { ConversationStorage } from "../ask_ai/conversations.ts";
import type { AskAiStart } from "../ask_ai/view.ts";
import type { GroupItem } from "../groups.ts";
import type { NavigatorParams, ResolvedOptions, SearchState } from "../options.ts";
import { MAX_QUERY_LENGTH, type SearchClient, type SearchResult } from "../search.ts";
import type { SearchStorage } from "../storage.ts";
import type { StoredItem } from "../stored_list.ts";
import { AskAiRow, ConversationList } from "./ask_ai_rows.ts";
import { isSafeUrl } from "../safe_url.ts";
import { sparklesIcon } from "./icons.ts";
import { ErrorScreen } from "./error_screen.ts";
import { trapFocus } from "./focus_trap.ts";
import { Footer } from "./footer.ts";
import { html } from "./html.ts";
import { keepInView } from "./keep_in_view.ts";
import { NoResultsScreen } from "./no_results_screen.ts";
import { ResultsFooter, ResultsScreen } from "./results_screen.ts";
import type { SearchBar } from "./search_bar.ts";
import type { Dialog } from "./dialog.ts";
import { StartScreen } from "./start_screen.ts";
import { useKeywordSearch } from "./use_keyword_search.ts";
import { useListNavigation } from "./use_list_navigation.ts";

/** Props of {@link Modal}. */
export interface ModalProps {
  options: ResolvedOptions;
  storage: SearchStorage;
  conversations: ConversationStorage;
  /** Multi-index search; resolves `null` for a stale answer. */
  search(query: string): Promise<SearchResult[] | null>;
  /** Search client with the Ask AI credentials (suggested questions). */
  askAiClient: SearchClient | null;
  /** The Ask AI token's cache (`../ask_ai/token.ts`). */
  tokenCache: StoredItem | null;
  /** Prefix of the element ids of this search box. */
  idPrefix: string;
  /** Text of the input when the modal opens. */
  query: string;
  /** The search bar component (up-front code, see `./search_bar.ts`). */
  SearchBar: typeof SearchBar;
  /** The dialog's frame (up-front code, see `./dialog.ts`). */
  Dialog: typeof Dialog;
  onClose(): void;
}

type AskAiModule = typeof import("../ask_ai/view.ts");

/** The modal, in the dialog's frame (`.DocSearch-Container` > `.DocSearch-Modal`). */
export function Modal(props: ModalProps): VNode {
  const { options, storage, idPrefix } = props;
  const t = options.translations.modal;
  const env = options.environment;
  const [query, setQuery, status, results, suggestions] = useKeywordSearch(
    options,
    props.search,
    props.query,
    () => setActive(0),
  );
  const [saved, setSaved] = useState(() => ({
    recent: storage.recent(),
    favorites: storage.favorites(),
  }));
  const [history, setHistory] = useState(props.conversations.list);
  const [askAi, setAskAi] = useState<AskAiStart | null>(null);
  const [askAiModule, setAskAiModule] = useState<AskAiModule | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const container = useRef<HTMLDivElement>(null);
  const dropdown = useRef<HTMLDivElement>(null);

  useLayoutEffect(() => input.current?.focus(), [askAi]);
  // the Ask AI chunk: on the first use of Ask AI only
  useEffect(() => {
    if (askAi && !askAiModule) import("../ask_ai/view.ts").then(setAskAiModule, () => {});
  }, [askAi]);

  const showResults = query !== "" && status !== "error" && results !== null;
  const items: GroupItem[] = useMemo(
    () =>
      showResults
        ? results!.groups.flatMap((g) => g.items)
        : query === ""
        ? [...saved.recent, ...saved.favorites].map((hit) => ({ hit, parent: null }))
        : [],
    [showResults, results, saved, query],
  );
  const askAiRow = !!options.askAi && query !== "" && status !== "error";
  const offset = askAiRow ? 1 : 0;
  const count = offset + items.length;
  const [active, setActive, onKeyDown] = useListNavigation(count, (row, event) => {
    if (askAiRow && row === 0) openAskAi({ question: query });
    else if (items[row - offset]) onSelect(items[row - offset], event);
  });
  const state: SearchState = { query, context: { nbHits: showResults ? results!.nbHits : 0 } };
  const activeId = count > 0 && !askAi ? `${idPrefix}-item-${active}` : undefined;

  useLayoutEffect(() => {
    const row = activeId && env.document.getElementById(activeId);
    if (row && dropdown.current) keepInView(dropdown.current, row);
  }, [activeId]);

  /**
   * Opens Ask AI: in the page's Sidepanel when one takes it (hybrid mode: it
   * cancels the event, `SIDE_PANEL_ASK` of `../side_panel_options.ts`, and
   * the modal closes), else in the modal.
   */
  const openAskAi = (start: AskAiStart) => {
    const event = new CustomEvent("docsearch:sidepanel-ask", { detail: start, cancelable: true });
    if (env.dispatchEvent(event)) setAskAi(start);
    else props.onClose();
  };
  const refresh = () => setSaved({ recent: storage.recent(), favorites: storage.favorites() });
  const onSelect = (item: GroupItem, event: MouseEvent | KeyboardEvent) => {
    // an unsafe URL is neither stored nor followed (its link has no href either)
    if (!isSafeUrl(item.hit.url)) return;
    storage.addRecent(item);
    refresh();
    const params: NavigatorParams = { itemUrl: item.hit.url, item: item.hit, state };
    const newTab = event.metaKey || event.ctrlKey;
    if (event.type === "keydown") {
      if (newTab) options.navigator.navigateNewTab(params);
      else if (event.shiftKey) options.navigator.navigateNewWindow(params);
      else options.navigator.navigate(params);
    }
    if (!newTab && !event.shiftKey) props.onClose();
  };
  const setText = (text: string) => {
    setQuery(text.slice(0, MAX_QUERY_LENGTH));
    setActive(0);
  };
  const leaveAskAi = (text?: string) => {
    setAskAi(null);
    setHistory(props.conversations.list());
    if (text !== undefined) setText(text);
  };

  let list: unknown = null;
  let screen: unknown = null;
  if (status === "error") {
    screen = html`<${ErrorScreen} translations=${t.errorScreen} />`;
  } else if (query === "") {
    const start = html`
      <${StartScreen}
        ...${saved}
        idPrefix=${idPrefix}
        active=${active}
        translations=${t.startScreen}
        hitComponent=${options.hitComponent}
        onSelect=${onSelect}
        onHover=${setActive}
        onFavorite=${(hit: GroupItem["hit"]) => (storage.addFavorite(hit), refresh())}
        onRemoveRecent=${(hit: GroupItem["hit"]) => (storage.removeRecent(hit.objectID), refresh())}
        onRemoveFavorite=${(
          hit: GroupItem["hit"],
        ) => (storage.removeFavorite(hit.objectID), refresh())}
      />
    `;
    if (items.length > 0) list = start;
    else screen = start;
  } else if (results && results.groups.length === 0) {
    screen = html`
      <${NoResultsScreen}
        query=${results.query}
        suggestions=${suggestions}
        translations=${t.noResultsScreen}
        missingResultsUrl=${options.getMissingResultsUrl?.({ query: results.query }) ?? null}
        onSuggestion=${(s: string) => (setText(s), input.current?.focus())}
      />
    `;
  } else if (results) {
    list = html`
      <${ResultsScreen}
        groups=${results.groups}
        idPrefix=${idPrefix}
        offset=${offset}
        active=${active}
        hitComponent=${options.hitComponent}
        onSelect=${onSelect}
        onHover=${setActive}
      />
    `;
  }
  const listId = `${idPrefix}-list`;
  const labelId = `${idPrefix}-label`;

  const keyword = html`
    <${props.SearchBar}
      options=${options}
      maxLength=${MAX_QUERY_LENGTH}
      idPrefix=${idPrefix}
      inputRef=${input}
      query=${query}
      combobox=${{
        role: "combobox",
        "aria-autocomplete": "list",
        "aria-haspopup": "grid",
        "aria-expanded": count > 0,
        "aria-controls": count > 0 ? listId : undefined,
        "aria-activedescendant": activeId,
      }}
      onInput=${setText}
      onKeyDown=${onKeyDown}
      onReset=${() => (setText(""), input.current?.focus())}
      onClose=${props.onClose}
    />
    <div class="DocSearch-Dropdown" ref=${dropdown}>
      ${count > 0 &&
        html`
          <div class="DocSearch-Dropdown-Container" role="grid" id=${listId}
            aria-labelledby=${labelId}>
                  ${askAiRow &&
                    html`
                      <${AskAiRow}
                        id=${`${idPrefix}-item-0`}
                        query=${query}
                        active=${active === 0}
                        noResults=${!!results && results.groups.length === 0}
                        translations=${t.resultsScreen}
                        onSelect=${() => openAskAi({ question: query })}
                        onHover=${() => setActive(0)}
                      />
                    `}
                  ${list}
                </div>
        `}
      ${screen}
      ${showResults && results!.groups.length > 0 && options.resultsFooterComponent &&
        html`<${ResultsFooter} template=${options.resultsFooterComponent} state=${state} />`}
      ${options.askAi && query === "" && status !== "error" &&
        html`
          <${ConversationList}
            class="DocSearch-AskAiConversations"
            title=${history.length > 0 && t.startScreen.recentConversationsTitle}
            conversations=${history}
            translations=${t.startScreen}
            onOpen=${(conversation: AskAiStart["conversation"]) => openAskAi({ conversation })}
            onRemove=${(
              id: string,
            ) => (props.conversations.remove(id), setHistory(props.conversations.list()))}
          ><button type="button" class="DocSearch-AskAiConversations-New" onClick=${() =>
            openAskAi({})}>${sparklesIcon()} ${t.searchBox.startNewConversationText}</button><//>
        `}
    </div>
    <${Footer} translations=${t.footer} />
  `;

  const askAiView = askAi && (askAiModule
    ? html`
      <${askAiModule.AskAiView}
        options=${options}
        conversations=${props.conversations}
        tokenCache=${props.tokenCache}
        searchClient=${props.askAiClient}
        start=${askAi}
        Footer=${Footer}
        ConversationList=${ConversationList}
        onBack=${leaveAskAi}
        onClose=${props.onClose}
      />
    `
    : html`<p class="DocSearch-AskAiScreen-Thinking">${t.askAiScreen.thinkingText}</p>`);

  return html`
    <${props.Dialog}
      options=${options}
      modifiers=${`${status === "stalled" ? " DocSearch-Container--Stalled" : ""}${
        status === "error" ? " DocSearch-Container--Errored" : ""
      }`}
      dialogRef=${container}
      onClose=${props.onClose}
      onKeyDown=${(event: KeyboardEvent) => {
        if (askAi && event.key === "Escape") {
          event.preventDefault();
          event.stopPropagation();
          leaveAskAi();
        } else {
          trapFocus(event, container.current!);
        }
      }}
    >${askAiView || keyword}<//>
  ` as VNode;
}
