/**
 * The Ask AI mode of the modal (loaded lazily, so keyword-only pages never
 * download it): its search bar (the question input, disabled while an answer
 * streams, with a stop button), the new-conversation screen with suggested
 * questions, the conversation history, and the Ask AI screen: thinking, the
 * streamed Markdown answer, tool calls, related sources, copy, like/dislike,
 * the stopped note, errors and the disclaimer. The chat itself (asking,
 * streaming, storing) is `useChat` (`./use_chat.ts`).
 *
 * @module
 */
import type { VNode } from "preact";
import { useEffect, useLayoutEffect, useRef, useState } from "preact/hooks";
import type { ResolvedAskAi, ResolvedOptions } from "../options.ts";
import type { SearchClient } from "../search.ts";
import type { StoredItem } from "../stored_list.ts";
import type { AskAiScreenTranslations } from "../translations.ts";
import { html } from "../ui/html.ts";
import {
  backIcon,
  closeIcon,
  copyIcon,
  enterIcon,
  moreIcon,
  pageIcon,
  thumbIcon,
} from "../ui/icons.ts";
import type { Conversation, ConversationStorage } from "./conversations.ts";
import { answerLinks, isSafeUrl, renderMarkdown } from "./markdown.ts";
import { messageText, type ToolPart, type UiMessage } from "./messages.ts";
import { useChat } from "./use_chat.ts";

/** The index holding the assistants' suggested questions. */
export const SUGGESTED_QUESTIONS_INDEX = "algolia_ask_ai_suggested_questions";

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
  idPrefix: string;
  /** Leaves Ask AI mode, optionally with a keyword query to search. */
  onBack(query?: string): void;
  /** Closes the modal. */
  onClose(): void;
}

interface SuggestedQuestion {
  objectID: string;
  question: string;
}

/** The tool calls and texts of an assistant message, consecutive finished searches aggregated. */
function Parts(
  { message, t, onQuery, environment }: {
    message: UiMessage;
    t: AskAiScreenTranslations;
    onQuery(query: string): void;
    environment: Window;
  },
): VNode {
  const blocks: VNode[] = [];
  let searched: string[] = [];
  // as DocSearch v4: no "Searched for" line once the answer streams
  const answered = message.parts.some((p) => p.type === "text" && p.text !== "");
  const flush = () => {
    if (searched.length === 0 || answered) return;
    const queries = searched;
    searched = [];
    const custom = t.aggregatedToolCallNode?.(queries, onQuery);
    if (custom !== undefined) {
      blocks.push(html`<div class="DocSearch-AskAiScreen-ToolCall">${custom}</div>` as VNode);
      return;
    }
    const text = {
      before: `${t.afterToolCallText} `,
      separator: ", ",
      lastSeparator: " and ",
      after: "",
      ...t.aggregatedToolCallText?.(queries),
    };
    blocks.push(html`
      <p
        class="DocSearch-AskAiScreen-ToolCall DocSearch-AskAiScreen-ToolCall--done">${text
          .before}${queries.map((q, i) =>
            html`
              ${i === 0
                ? ""
                : i === queries.length - 1
                ? text.lastSeparator
                : text.separator}<button
                type="button"
                class="DocSearch-AskAiScreen-ToolCallQuery"
                onClick=${() => onQuery(q)}
              >"${q}"</button>
            `
          )}${text.after}</p>
    ` as VNode);
  };
  for (const part of message.parts) {
    if (part.type.startsWith("tool-")) {
      const tool = part as ToolPart;
      const query = tool.input?.query ?? "";
      if (tool.state === "output-available") {
        searched.push(query);
        continue;
      }
      flush();
      blocks.push(
        html`<p class="DocSearch-AskAiScreen-ToolCall">${
          tool.state === "input-streaming" || !query
            ? t.preToolCallText
            : tool.state === "input-available"
            ? `${t.duringToolCallText}"${query}"`
            : tool.errorText
        }</p>` as VNode,
      );
    } else if (part.type === "text") {
      flush();
      blocks.push(html`
        <div
          class="DocSearch-Markdown-Content"
          dangerouslySetInnerHTML=${{ __html: renderMarkdown(part.text, environment.document) }}
        />
      ` as VNode);
    }
  }
  flush();
  return html`${blocks}` as VNode;
}

/** The Ask AI mode. */
export function AskAiView(props: AskAiViewProps): VNode {
  const { options, conversations, start } = props;
  const { askAi, environment } = options;
  const t = options.translations.modal;
  const [conversation, streaming, history, askChat, stop, open, remove, sendFeedback] = useChat(
    askAi,
    environment,
    conversations,
    props.tokenCache,
    start,
  );
  const [screen, setScreen] = useState<"chat" | "history">("chat");
  const [question, setQuestion] = useState("");
  const [feedback, setFeedback] = useState<Record<string, boolean>>({});
  const [copied, setCopied] = useState<string | null>(null);
  const [menu, setMenu] = useState(false);
  const [suggested, setSuggested] = useState<SuggestedQuestion[]>([]);
  const input = useRef<HTMLInputElement>(null);

  useLayoutEffect(() => input.current?.focus(), [screen, streaming]);
  const isNew = conversation.messages.length === 0;
  useEffect(() => {
    if (!isNew || !askAi.suggestedQuestions || suggested.length > 0) return;
    props.searchClient.search({
      requests: [{
        indexName: SUGGESTED_QUESTIONS_INDEX,
        query: "",
        filters: `state:published AND assistantId:${askAi.assistantId}`,
        hitsPerPage: 3,
      }],
    }).then(({ results }) => {
      const hits = (results[0] as { hits?: SuggestedQuestion[] })?.hits ?? [];
      setSuggested(hits.filter((h) => typeof h.question === "string").slice(0, 3));
    }, () => {});
  }, [isNew]);

  /** Asks `text` (see `useChat`), showing the chat. */
  const ask = (text: string, suggestedQuestionId?: string) => {
    askChat(text, suggestedQuestionId);
    setScreen("chat");
    setQuestion("");
  };

  const last = conversation.messages[conversation.messages.length - 1];
  const a = t.askAiScreen;

  const renderAnswer = (message: UiMessage) => {
    const done = !(streaming && message === last);
    const body =
      html`<${Parts} message=${message} t=${a} onQuery=${props.onBack} environment=${environment} />`;
    const waiting = message.parts.length === 0 && !done;
    const rendered = renderMarkdown(messageText(message), environment.document);
    const sources = [
      ...answerLinks(rendered, environment.document),
      ...message.parts.flatMap((p) =>
        p.type === "source-url" && isSafeUrl(p.url, environment.document.baseURI)
          ? [{ url: p.url, title: p.title ?? p.url }]
          : []
      ),
    ].filter((s, i, all) => all.findIndex((x) => x.url === s.url) === i);
    const hasText = messageText(message) !== "";
    return html`<div class="DocSearch-AskAiScreen-Response" key=${message.id}>
      ${waiting && html`<p class="DocSearch-AskAiScreen-Thinking">${a.thinkingText}</p>`}
      ${body}
      ${
      message.metadata?.stopped &&
      html`<p class="DocSearch-AskAiScreen-Stopped">${a.stoppedStreamingText}</p>`
    }
      ${
      message.metadata?.error &&
      html`<p class="DocSearch-AskAiScreen-Error" role="alert">${message.metadata.error}</p>`
    }
      ${
      done && sources.length > 0 && html`
        <div class="DocSearch-AskAiScreen-RelatedSources">
          <p class="DocSearch-AskAiScreen-RelatedSources-Title">${a.relatedSourcesText}</p>
          <ul class="DocSearch-AskAiScreen-RelatedSources-List">${sources.map((s) =>
            html`<li key=${s.url}><a class="DocSearch-AskAiScreen-RelatedSources-Item-Link"
              href=${s.url} target="_blank" rel="noopener noreferrer">${pageIcon()}<span>${s.title}</span></a></li>`
          )}</ul>
        </div>
      `
    }
      ${
      done && hasText && html`<div class="DocSearch-AskAiScreen-Actions">
        <button
          type="button"
          class="DocSearch-AskAiScreen-ActionButton DocSearch-AskAiScreen-CopyButton"
          title=${a.copyButtonTitle}
          onClick=${() =>
        environment.navigator.clipboard?.writeText(messageText(message)).then(() => {
          setCopied(message.id);
          environment.setTimeout(() => setCopied(null), 2000);
        }, () => {})}
        >${copyIcon()}<span class="DocSearch-VisuallyHiddenForAccessibility">${
        copied === message.id ? a.copyButtonCopiedText : a.copyButtonText
      }</span></button>
        ${
        message.id in feedback
          ? html`<p class="DocSearch-AskAiScreen-FeedbackText">${a.thanksForFeedbackText}</p>`
          : [true, false].map((like) =>
            html`
              <button
                type="button"
                class=${`DocSearch-AskAiScreen-ActionButton DocSearch-AskAiScreen-${
                  like ? "Like" : "Dislike"
                }Button`}
                title=${like ? a.likeButtonTitle : a.dislikeButtonTitle}
                aria-label=${like ? a.likeButtonTitle : a.dislikeButtonTitle}
                onClick=${() => {
                  setFeedback({ ...feedback, [message.id]: like });
                  sendFeedback(message.id, like);
                }}
              >${thumbIcon()}</button>
            `
          )
      }
      </div>`
    }
    </div>`;
  };

  let content: unknown;
  if (screen === "history") {
    content = html`
      <div class="DocSearch-ConversationHistory">
        <p class="DocSearch-Hit-source">${t.searchBox.conversationHistoryTitle}</p>
        <ul>${history.map((c) =>
          html`
            <li key=${c.id} class="DocSearch-ConversationHistory-Item">
              <button type="button" onClick=${() => (open(c), setScreen("chat"))}>${c
                .title}</button>
              <button
                type="button"
                class="DocSearch-Hit-action-button"
                title=${t.startScreen.removeRecentConversationButtonTitle}
                aria-label=${t.startScreen.removeRecentConversationButtonTitle}
                onClick=${() => remove(c.id)}
              >${closeIcon()}</button>
            </li>
          `
        )}</ul>
      </div>
    `;
  } else if (isNew) {
    content = html`<div class="DocSearch-NewConversationScreen">
      <p class="DocSearch-Title">${t.newConversation.newConversationTitle}</p>
      <p class="DocSearch-Help">${t.newConversation.newConversationDescription}</p>
      ${
      suggested.length > 0 &&
      html`<ul class="DocSearch-NewConversationScreen-SuggestedQuestions">${
        suggested.map((q) =>
          html`<li key=${q.objectID}><button
            type="button"
            class="DocSearch-NewConversationScreen-SuggestedQuestion"
            onClick=${() => ask(q.question, q.objectID)}
          >${q.question}</button></li>`
        )
      }</ul>`
    }
    </div>`;
  } else {
    content = html`<div class="DocSearch-AskAiScreen">
      ${
      conversation.messages.map((m) =>
        m.role === "user"
          ? html`<p class="DocSearch-AskAiScreen-Query" key=${m.id}>${messageText(m)}</p>`
          : renderAnswer(m)
      )
    }
      <p class="DocSearch-AskAiScreen-Disclaimer">${a.disclaimerText}</p>
    </div>`;
  }

  const s = t.searchBox;
  const placeholder = streaming
    ? s.placeholderTextAskAiStreaming
    : isNew
    ? s.newConversationPlaceholder
    : s.placeholderTextAskAi ?? "Ask another question...";
  const item = (cls: string, text: string, onClick: () => void) =>
    html`
      <button type="button" role="menuitem" class=${`DocSearch-Menu-item ${cls}`}
        onClick=${() => (setMenu(false), onClick())}>${text}</button>
    `;
  return html`
    <div class="DocSearch-SearchBar">
      <form
        class="DocSearch-Form"
        onSubmit=${(event: Event) => {
          event.preventDefault();
          if (question.trim() && !streaming) ask(question.trim());
        }}
      >
        <button type="button" class="DocSearch-AskAi-Return DocSearch-AskAiScreen-BackButton"
          title=${s.backToKeywordSearchButtonText} aria-label=${s
            .backToKeywordSearchButtonAriaLabel} onClick=${() =>
            props.onBack()}>${backIcon()}</button>
        <label class="DocSearch-VisuallyHiddenForAccessibility" for=${`${props.idPrefix}-askai-input`}>${s
          .searchInputLabel}</label>
        <input
          class="DocSearch-Input"
          id=${`${props.idPrefix}-askai-input`}
          ref=${input}
          type="text"
          autocomplete="off"
          enterkeyhint=${s.enterKeyHintAskAi}
          maxlength="512"
          placeholder=${placeholder}
          disabled=${streaming}
          value=${question}
          onInput=${(event: Event) => setQuestion((event.target as HTMLInputElement).value)}
        />
        ${streaming && html`
          <button
            type="button"
            class="DocSearch-AskAiScreen-StopButton"
            title=${a.stopButtonTitle}
            aria-label=${a.stopButtonTitle}
            onClick=${stop}
          >■</button>
        `}
        <div class="DocSearch-Actions">
          <div class="DocSearch-Menu">
            <button type="button" class="DocSearch-Action DocSearch-Menu-trigger"
              aria-label=${`${s.startNewConversationText} / ${s.viewConversationHistoryText}`}
              aria-haspopup="menu" aria-expanded=${menu} onClick=${() =>
                setMenu(!menu)}>${moreIcon()}</button>
            ${menu && html`
              <div class="DocSearch-Menu-content open" role="menu">
                ${item("DocSearch-AskAiScreen-NewButton", s.startNewConversationText, () => {
                  open();
                  setScreen("chat");
                })}
                ${item(
                  "DocSearch-AskAiScreen-HistoryButton",
                  s.viewConversationHistoryText,
                  () => setScreen("history"),
                )}
              </div>
            `}
          </div>
          <div class="DocSearch-Divider" />
          <button type="button" class="DocSearch-Action DocSearch-Close" title=${s.closeButtonText}
            aria-label=${s.closeButtonAriaLabel} onClick=${props.onClose}>${closeIcon()}</button>
        </div>
      </form>
    </div>
    <div class="DocSearch-Dropdown" aria-live="polite">${content}</div>
    <div class="DocSearch-Footer">
      <ul class="DocSearch-Commands">
        <li><kbd class="DocSearch-Commands-Key" role="img" aria-label=${t.footer
          .selectKeyAriaLabel}>${enterIcon()}</kbd><span class="DocSearch-Label">${t.footer
          .submitQuestionText}</span></li>
        <li><kbd class="DocSearch-Commands-Key" role="img" aria-label=${t.footer
          .closeKeyAriaLabel}>esc</kbd><span class="DocSearch-Label">${t.footer
          .backToSearchText}</span></li>
      </ul>
    </div>
  ` as VNode;
}
