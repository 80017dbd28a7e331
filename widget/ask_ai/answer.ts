/**
 * One question and its answer on the Ask AI screen: the answer shows
 * "Thinking..." until its first part, its tool calls and texts
 * (`./answer_parts.ts`), the stopped note or the error, and once it is
 * complete, its actions (like, dislike, copy) and its related sources (chips
 * opening in a new tab: the answer's Markdown links and bare URLs outside
 * code, then the cited sources, deduplicated).
 *
 * @module
 */
import type { VNode } from "preact";
import { useState } from "preact/hooks";
import type { AskAiScreenTranslations } from "../translations.ts";
import { html } from "../ui/html.ts";
import { copyIcon, pageIcon, thumbIcon } from "../ui/icons.ts";
import { AnswerParts } from "./answer_parts.ts";
import { answerSources } from "./markdown.ts";
import { messageText, type UiMessage } from "./messages.ts";
import type { Chat } from "./use_chat.ts";

/** Props of {@link Answer}. */
export interface AnswerProps {
  /** The user's message. */
  question: UiMessage;
  /** The assistant's message answering it (none yet, or none after a failure to send). */
  message?: UiMessage;
  /** The question is the conversation's last: its answer may stream, or be the thread-depth error. */
  last: boolean;
  /** The chat the answer belongs to (streaming, its rating and feedback). */
  chat: Chat;
  translations: AskAiScreenTranslations;
  environment: Window;
  /** A search of the assistant was clicked: search its query. */
  onQuery?(query: string): void;
}

/**
 * A question and its answer, as DocSearch v4 lays them out: a card
 * (`.DocSearch-AskAiScreen-Response`) holding the question as its heading
 * (`-Message--user`), the answer (`-Message--assistant`) and, once complete,
 * its footer with the actions on the right; the related sources as chips
 * after the card.
 */
export function Answer(props: AnswerProps): VNode {
  const { message, translations: t, environment, chat } = props;
  const parts = message?.parts ?? [];
  const text = message ? messageText(message) : "";
  const sources = answerSources(
    text,
    environment.document.baseURI,
    parts.flatMap((p) => p.type === "source-url" ? [{ url: p.url, title: p.title ?? p.url }] : []),
  );
  const done = !(chat.streaming && props.last);
  const error = message?.metadata?.error;
  return html`<div class="DocSearch-AskAiScreen-Response-Container">
    <div class="DocSearch-AskAiScreen-Response">
      <div class="DocSearch-AskAiScreen-Message DocSearch-AskAiScreen-Message--user">
        <p class="DocSearch-AskAiScreen-Query">${messageText(props.question)}</p>
      </div>
      ${
    message && html`
      <div class="DocSearch-AskAiScreen-Message DocSearch-AskAiScreen-Message--assistant">
        <div class="DocSearch-AskAiScreen-MessageContent">
          ${parts.length === 0 && !done &&
            html`<p class="DocSearch-AskAiScreen-Thinking">${t.thinkingText}</p>`}
          <${AnswerParts} message=${message} translations=${t} onQuery=${props.onQuery}
            environment=${environment} />
          ${message.metadata?.stopped &&
            html`<p class="DocSearch-AskAiScreen-Stopped">${t.stoppedStreamingText}</p>`}
          ${error && !(chat.limited && props.last) &&
            html`<p class="DocSearch-AskAiScreen-Error" role="alert">${error}</p>`}
        </div>
      </div>
    `
  }
      ${
    done && text !== "" &&
    html`
      <div class="DocSearch-AskAiScreen-Answer-Footer">
        <${AnswerActions} message=${message} text=${text} chat=${chat} translations=${t}
          environment=${environment} />
      </div>
    `
  }
    </div>
    ${
    done && sources.length > 0 && html`
      <div class="DocSearch-AskAiScreen-RelatedSources">
        <p class="DocSearch-AskAiScreen-RelatedSources-Title">${t.relatedSourcesText}</p>
        <div class="DocSearch-AskAiScreen-RelatedSources-List">${sources.map((s) =>
          html`
            <a key=${s.url} class="DocSearch-AskAiScreen-RelatedSources-Item-Link"
              href=${s.url} target="_blank" rel="noopener noreferrer">${pageIcon()}<span>${s
                .title}</span></a>
          `
        )}</div>
      </div>
    `
  }
  </div>` as VNode;
}

/**
 * Like and dislike until the backend accepts a rating (the thanks after; its
 * refusal shown beside the buttons), then copy (the text; its title "Copied!" and
 * `DocSearch-AskAiScreen-CopyButton--copied` for 2 s), in v4's order and markup.
 */
function AnswerActions(
  props: {
    message: UiMessage;
    text: string;
    chat: Chat;
    translations: AskAiScreenTranslations;
    environment: Window;
  },
): VNode {
  const { translations: t, environment } = props;
  const [copied, setCopied] = useState(false);
  const rating = props.chat.rated[props.message.id];
  return html`<div class="DocSearch-AskAiScreen-Actions">
    ${
    rating?.state === "sent"
      ? html`<p class="DocSearch-AskAiScreen-FeedbackText">${t.thanksForFeedbackText}</p>`
      : [true, false].map((like) =>
        html`
          <button
            type="button"
            class=${`DocSearch-AskAiScreen-ActionButton DocSearch-AskAiScreen-${
              like ? "Like" : "Dislike"
            }Button`}
            title=${like ? t.likeButtonTitle : t.dislikeButtonTitle}
            disabled=${rating?.state === "sending"}
            onClick=${() => props.chat.feedback(props.message.id, like)}
          >${thumbIcon()}</button>
        `
      )
  }
    ${
    rating?.state === "failed" &&
    html`
      <p class="DocSearch-AskAiScreen-FeedbackText DocSearch-AskAiScreen-FeedbackError"
        role="alert">${rating.error}</p>
    `
  }
    <button
      type="button"
      class=${`DocSearch-AskAiScreen-ActionButton DocSearch-AskAiScreen-CopyButton${
    copied ? " DocSearch-AskAiScreen-CopyButton--copied" : ""
  }`}
      title=${copied ? t.copyButtonCopiedText : t.copyButtonTitle}
      onClick=${() =>
    environment.navigator.clipboard?.writeText(props.text).then(() => {
      setCopied(true);
      environment.setTimeout(() => setCopied(false), 2000);
    }, () => {})}
    >${copyIcon()}</button>
  </div>` as VNode;
}
