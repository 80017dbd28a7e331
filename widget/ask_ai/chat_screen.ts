/**
 * The Ask AI screen in DocSearch v4's layout: the thread-depth banner when
 * the backend refused the conversation's length (`AI-217`), the disclaimer,
 * then each question with its answer (`./answer.ts`).
 *
 * @module
 */
import type { VNode } from "preact";
import type { Translations } from "../translations.ts";
import { html } from "../ui/html.ts";
import { Answer } from "./answer.ts";
import type { Chat } from "./use_chat.ts";

/** Props of {@link ChatScreen}. */
export interface ChatScreenProps {
  chat: Chat;
  translations: Translations["modal"];
  environment: Window;
  /** A search of the assistant was clicked: search its query. */
  onQuery?(query: string): void;
}

/**
 * The conversation (`.DocSearch-AskAiScreen-Container`): one
 * `.DocSearch-AskAiScreen-Response-Container` per question.
 */
export function ChatScreen(
  { chat, translations, environment, onQuery }: ChatScreenProps,
): VNode {
  const { messages } = chat.conversation;
  const t = translations.askAiScreen;
  const error = messages.at(-1)!.metadata?.error;
  return html`<div class="DocSearch-AskAiScreen DocSearch-AskAiScreen-Container">
    ${
    chat.limited && html`
      <div
        class="DocSearch-AskAiScreen-MessageContent DocSearch-AskAiScreen-Error DocSearch-AskAiScreen-Error--ThreadDepth"
        role="alert">
        <div class="DocSearch-AskAiScreen-Error-Content">
          <p class="DocSearch-AskAiScreen-Error-Title">${error!.replace(
            /\s*\(AI-\d+\)\s*$/i,
            "",
          )}</p>
          <p><button type="button" class="DocSearch-ThreadDepthError-Link"
            onClick=${() => chat.open()}>${translations.searchBox
              .startNewConversationText}</button> to continue.</p>
        </div>
      </div>
    `
  }
    <p class="DocSearch-AskAiScreen-Disclaimer">${t.disclaimerText}</p>
    <div class="DocSearch-AskAiScreen-Body">
      <div class="DocSearch-AskAiScreen-ExchangesList">${
    messages.map((m, i) =>
      m.role === "user" && html`
        <${Answer}
          key=${m.id}
          question=${m}
          message=${messages[i + 1]}
          last=${!messages[i + 2]}
          chat=${chat}
          translations=${t}
          environment=${environment}
          onQuery=${onQuery}
        />
      `
    )
  }</div>
    </div>
  </div>` as VNode;
}
