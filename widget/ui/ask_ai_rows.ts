/**
 * The keyword screens' entries into Ask AI: the "Ask AI: <query>" row at the
 * top of the results (a row of the results grid), and the list of stored
 * conversations (the start screen's recent conversations, with a button for
 * a new one; the Ask AI mode's history).
 *
 * @module
 */
import type { VNode } from "preact";
import type { Conversation } from "../ask_ai/conversations.ts";
import type { ResultsScreenTranslations, StartScreenTranslations } from "../translations.ts";
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

/** Props of {@link ConversationList}. */
export interface ConversationListProps {
  /** The list's class: `DocSearch-AskAiConversations` (start screen) or `DocSearch-ConversationHistory`. */
  class: string;
  /** Its title (`.DocSearch-Hit-source`), if any. */
  title?: string | false;
  conversations: Conversation[];
  /** The start screen's texts (`removeRecentConversationButtonTitle`). */
  translations: StartScreenTranslations;
  onOpen(conversation: Conversation): void;
  onRemove(id: string): void;
  /** What follows the list (the start screen's new-conversation button). */
  children?: unknown;
}

/**
 * Stored conversations, each opened by its title or removed by its button:
 * the start screen's "Recent conversations" and the Ask AI mode's
 * conversation history (which gets it from the modal through its props, as
 * the footer, so the two lazy chunks share no module of their own).
 */
export function ConversationList(props: ConversationListProps): VNode {
  return html`<section class=${props.class}>
    ${props.title && html`<p class="DocSearch-Hit-source">${props.title}</p>`}
    <ul>${
    props.conversations.map((c) =>
      html`
        <li key=${c.id} class="DocSearch-AskAiConversation">
          <button type="button" class="DocSearch-AskAiConversation-Open"
            onClick=${() => props.onOpen(c)}>${c.title}</button>
          <button
            type="button"
            class="DocSearch-Hit-action-button"
            title=${props.translations.removeRecentConversationButtonTitle}
            onClick=${() => props.onRemove(c.id)}
          >${closeIcon()}</button>
        </li>
      `
    )
  }</ul>
    ${props.children}
  </section>` as VNode;
}
