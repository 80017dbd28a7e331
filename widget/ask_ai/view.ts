/**
 * The Ask AI mode of the modal (loaded lazily, so keyword-only pages never
 * download it): its search bar (`./search_bar.ts`), below it one screen (the
 * new conversation with suggested questions, the conversation history (the
 * modal's list of conversations), or the Ask AI screen with the
 * conversation), and the modal's footer in its Ask AI form. The chat itself
 * (asking, streaming, storing) is `useChat` (`./use_chat.ts`).
 *
 * @module
 */
import type { VNode } from "preact";
import { useState } from "preact/hooks";
import type { ResolvedAskAi, ResolvedOptions } from "../options.ts";
import type { SearchClient } from "../search.ts";
import type { StoredItem } from "../stored_list.ts";
import type { ConversationList } from "../ui/ask_ai_rows.ts";
import type { Footer } from "../ui/footer.ts";
import { html } from "../ui/html.ts";
import { ChatScreen } from "./chat_screen.ts";
import type { Conversation, ConversationStorage } from "./conversations.ts";
import { NewConversationScreen, useSuggestedQuestions } from "./new_conversation_screen.ts";
import { type AskAiScreen, AskAiSearchBar } from "./search_bar.ts";
import { useChat } from "./use_chat.ts";

/** How the Ask AI mode starts: with a question, a stored conversation, or a new conversation. */
export interface AskAiStart {
  question?: string;
  conversation?: Conversation;
}

/** Props of {@link AskAiView}. */
export interface AskAiViewProps {
  options: ResolvedOptions & { askAi: ResolvedAskAi };
  conversations: ConversationStorage;
  /** The Ask AI token's cache (`./token.ts`). */
  tokenCache: StoredItem;
  /** Search client for the Ask AI credentials (suggested questions). */
  searchClient: SearchClient;
  start: AskAiStart;
  /** The modal's footer component (`../ui/footer.ts`), shown in its Ask AI form. */
  Footer: typeof Footer;
  /** The modal's list of conversations (`../ui/ask_ai_rows.ts`), the history screen. */
  ConversationList: typeof ConversationList;
  /**
   * Leaves Ask AI mode, optionally with a keyword query to search. Left out
   * (the Sidepanel), the assistant's searched queries are text, not links.
   */
  onBack?(query?: string): void;
  /** Closes the modal. */
  onClose(): void;
}

/** The Ask AI mode. */
export function AskAiView(props: AskAiViewProps): VNode {
  const { options } = props;
  const { askAi, environment } = options;
  const t = options.translations.modal;
  const chat = useChat(askAi, environment, props.conversations, props.tokenCache, props.start);
  const [screen, setScreen] = useState<AskAiScreen>("chat");
  const [question, setQuestion] = useState("");
  const isNew = chat.conversation.messages.length === 0;
  const suggested = useSuggestedQuestions(askAi, props.searchClient, isNew);

  /** Asks `text` (see `useChat`), showing the chat. */
  const ask = (text: string, suggestedQuestionId?: string) => {
    chat.ask(text, suggestedQuestionId);
    setScreen("chat");
    setQuestion("");
  };

  const content = screen === "history"
    ? html`
      <${props.ConversationList}
        class="DocSearch-ConversationHistory"
        title=${t.searchBox.conversationHistoryTitle}
        conversations=${chat.history}
        translations=${t.startScreen}
        onOpen=${(c: Conversation) => (chat.open(c), setScreen("chat"))}
        onRemove=${chat.remove}
      />
    `
    : isNew
    ? html`
      <${NewConversationScreen}
        translations=${t.newConversation}
        suggested=${suggested}
        onAsk=${ask}
      />
    `
    : html`
      <${ChatScreen}
        chat=${chat}
        translations=${t}
        environment=${environment}
        onQuery=${props.onBack}
      />
    `;
  return html`
    <${AskAiSearchBar}
      translations=${t}
      screen=${screen}
      chat=${chat}
      question=${question}
      onQuestion=${setQuestion}
      onAsk=${ask}
      onScreen=${setScreen}
      onBack=${() => props.onBack?.()}
      onClose=${props.onClose}
    />
    <div class="DocSearch-Dropdown" aria-live="polite">${content}</div>
    <${props.Footer} translations=${t.footer} askAi />
  ` as VNode;
}
