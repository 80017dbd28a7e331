/**
 * The keyword screens' entries into Ask AI: the "Ask AI: <query>" row at the
 * top of the results (a row of the results grid), and the start
 * screen's recent conversations with a button for a new one.
 *
 * @module
 */
import type { VNode } from "preact";
import type { Conversation } from "../ask_ai/conversations.ts";
import type { ResultsScreenTranslations, Translations } from "../translations.ts";
import { html } from "./html.ts";
import { closeIcon, sparklesIcon } from "./icons.ts";

/** Props of {@link AskAiRow}. */
export interface AskAiRowProps {
  id: string;
  query: string;
  active: boolean;
  /** The search found nothing: the row offers Ask AI with the no-results text. */
  noResults: boolean;
  translations: ResultsScreenTranslations;
  onSelect(): void;
  onHover(): void;
}

/** The "Ask AI: <query>" row, with DocSearch 4.7.1's classes (`DocSearch-AskAi-Section`, `DocSearch-Hit-AskAIButton*`). */
export function AskAiRow(props: AskAiRowProps): VNode {
  const t = props.translations;
  return html`
    <div class="DocSearch-Hits DocSearch-AskAi-Section" role="rowgroup">
      <div
        class="DocSearch-Hit"
        role="row"
        aria-selected=${props.active}
        onMouseMove=${() => !props.active && props.onHover()}
        onClick=${props.onSelect}
      >
        <div class="DocSearch-Hit-cell" id=${props.id} role="gridcell">
          <div class="DocSearch-Hit--AskAI">
            <div class="DocSearch-Hit-AskAIButton DocSearch-Hit-Container">
              <div class="DocSearch-Hit-AskAIButton-icon DocSearch-Hit-icon">${sparklesIcon()}</div>
              <div
                class="DocSearch-Hit-AskAIButton-title"><span class="DocSearch-Hit-AskAIButton-title-highlight">${props
                    .noResults
                  ? t.noResultsAskAiPlaceholder
                  : t
                    .askAiPlaceholder}</span><mark class="DocSearch-Hit-AskAIButton-title-query">${props
                  .query}</mark></div>
            </div>
          </div>
        </div>
      </div>
    </div>
  ` as VNode;
}

/** Props of {@link RecentConversations}. */
export interface RecentConversationsProps {
  conversations: Conversation[];
  translations: Translations["modal"];
  onOpen(conversation: Conversation): void;
  onRemove(id: string): void;
  onNew(): void;
}

/** The start screen's "Recent conversations" and the new-conversation button. */
export function RecentConversations(props: RecentConversationsProps): VNode {
  const t = props.translations;
  return html`<section class="DocSearch-AskAiConversations">
    ${
    props.conversations.length > 0 && html`
      <div class="DocSearch-Hit-source">${t.startScreen.recentConversationsTitle}</div>
      <ul>${props.conversations.map((c) =>
        html`
          <li key=${c.id} class="DocSearch-AskAiConversation">
            <button type="button" class="DocSearch-AskAiConversation-Open"
              onClick=${() => props.onOpen(c)}>${c.title}</button>
            <button
              type="button"
              class="DocSearch-Hit-action-button"
              title=${t.startScreen.removeRecentConversationButtonTitle}
              aria-label=${t.startScreen.removeRecentConversationButtonTitle}
              onClick=${() => props.onRemove(c.id)}
            >${closeIcon()}</button>
          </li>
        `
      )}</ul>
    `
  }
    <button type="button" class="DocSearch-AskAiConversations-New" onClick=${props.onNew}>
      ${sparklesIcon()} ${t.searchBox.startNewConversationText}
    </button>
  </section>` as VNode;
}
