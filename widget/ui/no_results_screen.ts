/**
 * The no-results screen: `No results found for "query"`, up to three
 * suggested queries (the `lvl0` of earlier results), and the report link of
 * `getMissingResultsUrl`.
 *
 * @module
 */
import type { VNode } from "preact";
import type { NoResultsScreenTranslations } from "../translations.ts";
import { html } from "./html.ts";
import { alertIcon } from "./icons.ts";

/** Props of {@link NoResultsScreen}. */
export interface NoResultsScreenProps {
  query: string;
  suggestions: string[];
  translations: NoResultsScreenTranslations;
  missingResultsUrl: string | null;
  onSuggestion(query: string): void;
}

/** The no-results screen. */
export function NoResultsScreen(props: NoResultsScreenProps): VNode {
  const t = props.translations;
  const suggestions = props.suggestions.slice(0, 3);
  return html`<div class="DocSearch-NoResults">
    <div class="DocSearch-Screen-Icon">${alertIcon()}</div>
    <p class="DocSearch-Title">${t.noResultsText} "<strong>${props.query}</strong>"</p>
    ${
    suggestions.length > 0 &&
    html`
      <div class="DocSearch-NoResults-Prefill-List">
        <p class="DocSearch-Help">${t.suggestedQueryText}:</p>
        <ul>${suggestions.map((s) =>
          html`
            <li
              key=${s}><button class="DocSearch-Prefill" type="button" onClick=${() =>
                props.onSuggestion(s)}>${s}</button></li>
          `
        )}</ul>
      </div>
    `
  }
    ${
    props.missingResultsUrl &&
    html`<p class="DocSearch-Help">${t.reportMissingResultsText} <a
      href=${props.missingResultsUrl}
      target="_blank"
      rel="noopener noreferrer"
    >${t.reportMissingResultsLinkText}</a></p>`
  }
  </div>` as VNode;
}
