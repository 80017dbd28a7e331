/**
 * The Ask AI screen: the conversation, each question followed by its
 * answer, and the disclaimer.
 *
 * @module
 */
import type { VNode } from "preact";
import type { AskAiScreenTranslations } from "../translations.ts";
import { html } from "../ui/html.ts";
import { Answer } from "./answer.ts";
import type { Chat } from "./use_chat.ts";
import { messageText } from "./messages.ts";

/** Props of {@link ChatScreen}. */
export interface ChatScreenProps {
  chat: Chat;
  translations: AskAiScreenTranslations;
  environment: Window;
  /** A search of the assistant was clicked: search its query. */
  onQuery(query: string): void;
}

/** The conversation (`.DocSearch-AskAiScreen`). */
export function ChatScreen(
  { chat, translations: t, environment, onQuery }: ChatScreenProps,
): VNode {
  const { messages } = chat.conversation;
  const last = messages[messages.length - 1];
  return html`<div class="DocSearch-AskAiScreen">
    ${
    messages.map((m) =>
      m.role === "user"
        ? html`<p class="DocSearch-AskAiScreen-Query" key=${m.id}>${messageText(m)}</p>`
        : html`
          <${Answer}
            key=${m.id}
            message=${m}
            streaming=${chat.streaming && m === last}
            chat=${chat}
            translations=${t}
            environment=${environment}
            onQuery=${onQuery}
          />
        `
    )
  }
    <p class="DocSearch-AskAiScreen-Disclaimer">${t.disclaimerText}</p>
  </div>` as VNode;
}
