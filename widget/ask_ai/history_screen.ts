/**
 * The conversation history of Ask AI: the stored conversations, each opened
 * by its title or removed by its button.
 *
 * @module
 */
import type { VNode } from "preact";
import type { Translations } from "../translations.ts";
import { html } from "../ui/html.ts";
import { closeIcon } from "../ui/icons.ts";
import type { Conversation } from "./conversations.ts";

/** Props of {@link HistoryScreen}. */
export interface HistoryScreenProps {
  conversations: Conversation[];
  translations: Translations["modal"];
  onOpen(conversation: Conversation): void;
  onRemove(id: string): void;
}

/** The conversation history (`.DocSearch-ConversationHistory`). */
export function HistoryScreen(
  { conversations, translations: t, ...props }: HistoryScreenProps,
): VNode {
  return html`
    <div class="DocSearch-ConversationHistory">
      <p class="DocSearch-Hit-source">${t.searchBox.conversationHistoryTitle}</p>
      <ul>${conversations.map((c) =>
        html`
          <li key=${c.id} class="DocSearch-ConversationHistory-Item">
            <button type="button" onClick=${() => props.onOpen(c)}>${c.title}</button>
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
    </div>
  ` as VNode;
}
