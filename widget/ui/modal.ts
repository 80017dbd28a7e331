/**
 * The search modal: the search bar, the screen for the current state (start,
 * results, no results, error), keyboard navigation across the rows and the
 * footer. The loading indicator shows when results take more than 300 ms.
 *
 * @module
 */
import type { VNode } from "preact";
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from "preact/hooks";
import { type Group, groupHits, type GroupItem } from "../groups.ts";
import type { NavigatorParams, ResolvedOptions, SearchState } from "../options.ts";
import { MAX_QUERY_LENGTH, type SearchResult } from "../search.ts";
import type { SearchStorage } from "../storage.ts";
import { ErrorScreen } from "./error_screen.ts";
import { trapFocus } from "./focus_trap.ts";
import { Footer } from "./footer.ts";
import { html } from "./html.ts";
import { closeIcon, loadingIcon, searchIcon } from "./icons.ts";
import { NoResultsScreen } from "./no_results_screen.ts";
import { ResultsFooter, ResultsScreen } from "./results_screen.ts";
import { StartScreen } from "./start_screen.ts";

/** Delay before a pending search shows the loading indicator, in milliseconds. */
export const STALLED_DELAY_MS = 300;

/** Props of {@link Modal}. */
export interface ModalProps {
  options: ResolvedOptions;
  storage: SearchStorage;
  /** Multi-index search; resolves `null` for a stale answer. */
  search(query: string): Promise<SearchResult[] | null>;
  /** Prefix of the element ids of this search box. */
  idPrefix: string;
  onClose(): void;
}

interface Results {
  query: string;
  groups: Group[];
  nbHits: number;
}

/** The modal dialog (`.DocSearch-Container` > `.DocSearch-Modal`). */
export function Modal(props: ModalProps): VNode {
  const { options, storage, idPrefix } = props;
  const t = options.translations.modal;
  const [query, setQuery] = useState(
    options.initialQuery.slice(0, MAX_QUERY_LENGTH),
  );
  const [status, setStatus] = useState<"idle" | "stalled" | "error">("idle");
  const [results, setResults] = useState<Results | null>(null);
  const [active, setActive] = useState(0);
  const [saved, setSaved] = useState(() => ({
    recent: storage.recent(),
    favorites: storage.favorites(),
  }));
  const suggestions = useRef<string[]>([]);
  const input = useRef<HTMLInputElement>(null);
  const container = useRef<HTMLDivElement>(null);
  const env = options.environment;

  useLayoutEffect(() => input.current?.focus(), []);

  useEffect(() => {
    if (query === "") {
      setStatus("idle");
      props.search(query);
      return;
    }
    const timer = env.setTimeout(() => setStatus("stalled"), STALLED_DELAY_MS);
    props.search(query).then((answer) => {
      if (!answer) return;
      env.clearTimeout(timer);
      const hits = options.transformItems(answer.flatMap((r) => r?.hits ?? []));
      const groups = groupHits(hits, options.maxResultsPerGroup);
      if (groups.length > 0) {
        suggestions.current = groups.map((g) => g.title).filter(Boolean);
      }
      const nbHits = answer.reduce(
        (n, r) => n + (r?.nbHits ?? r?.hits?.length ?? 0),
        0,
      );
      setResults({ query, groups, nbHits });
      setStatus("idle");
      setActive(0);
    }, () => {
      env.clearTimeout(timer);
      setStatus("error");
    });
    return () => env.clearTimeout(timer);
  }, [query]);

  const showResults = query !== "" && status !== "error" && results !== null;
  const items: GroupItem[] = useMemo(
    () =>
      showResults
        ? results!.groups.flatMap((g) => g.items)
        : query === ""
        ? [...saved.recent, ...saved.favorites].map((hit) => ({
          hit,
          parent: null,
        }))
        : [],
    [showResults, results, saved, query],
  );
  const state: SearchState = {
    query,
    context: { nbHits: showResults ? results!.nbHits : 0 },
  };
  const activeId = items.length > 0 ? `${idPrefix}-item-${active}` : undefined;

  useLayoutEffect(() => {
    if (activeId) {
      env.document.getElementById(activeId)?.scrollIntoView({
        block: "nearest",
      });
    }
  }, [activeId]);

  const refresh = () => setSaved({ recent: storage.recent(), favorites: storage.favorites() });
  const onSelect = (item: GroupItem, event: MouseEvent | KeyboardEvent) => {
    storage.addRecent(item);
    refresh();
    const params: NavigatorParams = {
      itemUrl: item.hit.url,
      item: item.hit,
      state,
    };
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
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      if (items.length === 0) return;
      const step = event.key === "ArrowDown" ? 1 : -1;
      setActive((active + step + items.length) % items.length);
    } else if (event.key === "Enter") {
      event.preventDefault();
      if (event.isComposing || event.keyCode === 229) return;
      if (items[active]) onSelect(items[active], event);
    }
  };

  let screen: unknown;
  if (status === "error") {
    screen = html`<${ErrorScreen} translations=${t.errorScreen} />`;
  } else if (query === "") {
    screen = html`
      <${StartScreen}
        ...${saved}
        idPrefix=${idPrefix}
        active=${active}
        translations=${t.startScreen}
        hitComponent=${options.hitComponent}
        onSelect=${onSelect}
        onHover=${setActive}
        onFavorite=${(
          hit: GroupItem["hit"],
        ) => (storage.addFavorite(hit), refresh())}
        onRemoveRecent=${(
          hit: GroupItem["hit"],
        ) => (storage.removeRecent(hit.objectID), refresh())}
        onRemoveFavorite=${(
          hit: GroupItem["hit"],
        ) => (storage.removeFavorite(hit.objectID), refresh())}
      />
    `;
  } else if (results && results.groups.length === 0) {
    screen = html`
      <${NoResultsScreen}
        query=${results.query}
        suggestions=${suggestions.current}
        translations=${t.noResultsScreen}
        missingResultsUrl=${options.getMissingResultsUrl?.({
          query: results.query,
        }) ?? null}
        onSuggestion=${(s: string) => (setText(s), input.current?.focus())}
      />
    `;
  } else if (results) {
    screen = html`
      <${ResultsScreen}
        groups=${results.groups}
        idPrefix=${idPrefix}
        active=${active}
        hitComponent=${options.hitComponent}
        onSelect=${onSelect}
        onHover=${setActive}
      />
    `;
  }
  const listId = `${idPrefix}-list`;
  const labelId = `${idPrefix}-label`;

  return html`
    <div
      class=${`DocSearch DocSearch-Container${
        status === "stalled" ? " DocSearch-Container--Stalled" : ""
      }${status === "error" ? " DocSearch-Container--Errored" : ""}`}
      role="dialog"
      aria-modal="true"
      aria-labelledby=${labelId}
      ref=${container}
      onMouseDown=${(event: MouseEvent) => event.target === event.currentTarget && props.onClose()}
      onKeyDown=${(event: KeyboardEvent) => trapFocus(event, container.current!)}
    >
      <div class="DocSearch-Modal">
        <div class="DocSearch-SearchBar">
          <form
            class="DocSearch-Form"
            role="search"
            onSubmit=${(event: Event) => event.preventDefault()}
            onReset=${(event: Event) => {
              event.preventDefault();
              setText("");
              input.current?.focus();
            }}
          >
            <label class="DocSearch-MagnifierLabel" for=${`${idPrefix}-input`} id=${labelId}>
                ${searchIcon()}<span class="DocSearch-VisuallyHiddenForAccessibility">${t
                  .searchBox.searchInputLabel}</span>
              </label>
            <div class="DocSearch-LoadingIndicator">${loadingIcon()}</div>
            <input
              class="DocSearch-Input"
              id=${`${idPrefix}-input`}
              ref=${input}
              type="search"
              role="combobox"
              aria-autocomplete="list"
              aria-expanded=${items.length > 0}
              aria-controls=${items.length > 0 ? listId : undefined}
              aria-activedescendant=${activeId}
              autocomplete="off"
              autocorrect="off"
              autocapitalize="off"
              spellcheck=${false}
              enterkeyhint=${t.searchBox.enterKeyHint}
              maxlength=${MAX_QUERY_LENGTH}
              placeholder=${options.placeholder}
              value=${query}
              onInput=${(event: Event) => setText((event.target as HTMLInputElement).value)}
              onKeyDown=${onKeyDown}
            />
            <button
              type="reset"
              class="DocSearch-Reset"
              title=${t.searchBox.clearButtonTitle}
              aria-label=${t.searchBox.clearButtonAriaLabel}
              hidden=${query === ""}
            >${closeIcon()}</button>
          </form>
          <button
            type="button"
            class="DocSearch-Cancel"
            aria-label=${t.searchBox.closeButtonAriaLabel}
            onClick=${props.onClose}
          >${t.searchBox.closeButtonText}</button>
        </div>
        <div class="DocSearch-Dropdown">
            ${items.length > 0
              ? html`
                <div class="DocSearch-Dropdown-Container" role="listbox" id=${listId}
                  aria-labelledby=${labelId}>
                          ${screen}
                        </div>
              `
              : screen}
            ${showResults && results!.groups.length > 0 &&
              options.resultsFooterComponent &&
              html`<${ResultsFooter} template=${options.resultsFooterComponent} state=${state} />`}
          </div>
        <${Footer} translations=${t.footer} />
      </div>
    </div>
  ` as VNode;
}
