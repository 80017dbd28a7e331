/**
 * The search bar of the Ask AI mode: back to the keyword search, the
 * question input (disabled while an answer streams, with DocSearch's stop
 * button, `.DocSearch-Action.DocSearch-StopStreaming`, then), the menu (new conversation, conversation history) and close.
 *
 * @module
 */
import type { VNode } from "preact";
import { useLayoutEffect, useRef, useState } from "preact/hooks";
import type { SearchBoxTranslations, Translations } from "../translations.ts";
import { html } from "../ui/html.ts";
import { backIcon, closeIcon, moreIcon, stopIcon } from "../ui/icons.ts";
import type { Chat } from "./use_chat.ts";

/** The screens of the Ask AI mode below its search bar (the chat shows a new conversation too). */
export type AskAiScreen = "chat" | "history";

/** Props of {@link AskAiSearchBar}. */
export interface AskAiSearchBarProps {
  translations: Translations["modal"];
  /** The screen shown below: the input takes the focus when it changes. */
  screen: AskAiScreen;
  /** The chat: whether an answer streams, stop, new conversation. */
  chat: Chat;
  /** The question typed so far. */
  question: string;
  onQuestion(text: string): void;
  /** Enter (or the form's submission) with a question and no answer streaming. */
  onAsk(question: string): void;
  /** Shows another screen (the history, or the chat of a new conversation). */
  onScreen(screen: AskAiScreen): void;
  /** Back to the keyword search. */
  onBack(): void;
  onClose(): void;
}

/** The Ask AI search bar (`.DocSearch-SearchBar`). */
export function AskAiSearchBar(props: AskAiSearchBarProps): VNode {
  const { translations: t, chat } = props;
  const s = t.searchBox;
  const { streaming } = chat;
  const input = useRef<HTMLInputElement>(null);
  useLayoutEffect(() => input.current?.focus(), [props.screen, streaming]);
  const placeholder = chat.limited
    ? s.threadDepthErrorPlaceholder
    : streaming
    ? s.placeholderTextAskAiStreaming
    : chat.conversation.messages.length === 0
    ? s.newConversationPlaceholder
    : s.placeholderTextAskAi ?? "Ask another question...";
  return html`
    <div class="DocSearch-SearchBar">
      <form
        class="DocSearch-Form"
        onSubmit=${(event: Event) => {
          event.preventDefault();
          const question = props.question.trim();
          if (question && !streaming) props.onAsk(question);
        }}
      >
        <button type="button" class="DocSearch-AskAi-Return"
          title=${s.backToKeywordSearchButtonText} aria-label=${s
            .backToKeywordSearchButtonAriaLabel} onClick=${() =>
            props.onBack()}>${backIcon()}</button>
        <input
          class="DocSearch-Input"
          aria-label=${s.searchInputLabel}
          ref=${input}
          type="text"
          autocomplete="off"
          enterkeyhint=${s.enterKeyHintAskAi}
          maxlength="512"
          placeholder=${placeholder}
          disabled=${streaming || chat.limited}
          value=${props.question}
          onInput=${(event: Event) => props.onQuestion((event.target as HTMLInputElement).value)}
        />
        <div class="DocSearch-Actions">
          ${streaming && html`
            <button
              type="button"
              class="DocSearch-Action DocSearch-StopStreaming"
              title=${t.askAiScreen.stopButtonTitle}
              aria-label=${t.askAiScreen.stopButtonTitle}
              onClick=${chat.stop}
            >${stopIcon()}</button>
            <div class="DocSearch-Divider" />
          `}
          <${ConversationMenu} translations=${s} onNew=${() => (chat.open(),
            props.onScreen("chat"))}
            onHistory=${() => props.onScreen("history")} />
          <div class="DocSearch-Divider" />
          <button type="button" class="DocSearch-Action DocSearch-Close" title=${s.closeButtonText}
            aria-label=${s.closeButtonAriaLabel} onClick=${props.onClose}>${closeIcon()}</button>
        </div>
      </form>
    </div>
  ` as VNode;
}

/** The ⋮ menu: start a new conversation, view the conversation history. */
function ConversationMenu(
  { translations: s, onNew, onHistory }: {
    translations: SearchBoxTranslations;
    onNew(): void;
    onHistory(): void;
  },
): VNode {
  const [open, setOpen] = useState(false);
  const item = (text: string, onClick: () => void) =>
    html`
      <button type="button" role="menuitem" class="DocSearch-Menu-item"
        onClick=${() => (setOpen(false), onClick())}>${text}</button>
    `;
  return html`
    <div class="DocSearch-Menu">
      <button type="button" class="DocSearch-Action DocSearch-Menu-trigger"
        aria-label=${`${s.startNewConversationText} / ${s.viewConversationHistoryText}`}
        aria-haspopup="menu" aria-expanded=${open} onClick=${() =>
          setOpen(!open)}>${moreIcon()}</button>
      ${open && html`
        <div class="DocSearch-Menu-content open" role="menu">
          ${item(s.startNewConversationText, onNew)}
          ${item(s.viewConversationHistoryText, onHistory)}
        </div>
      `}
    </div>
  ` as VNode;
}
