/**
 * One answer of the Ask AI screen: "Thinking..." until its first part, its
 * tool calls and texts (`./answer_parts.ts`), the stopped note or the error,
 * and once it is complete, its related sources (chips opening in a new tab:
 * the answer's Markdown links and bare URLs outside code, then the cited sources, deduplicated) and its actions
 * (copy, like, dislike).
 *
 * @module
 */
import type { VNode } from "preact";
import { useState } from "preact/hooks";
import type { AskAiScreenTranslations } from "../translations.ts";
import { html } from "../ui/html.ts";
import { copyIcon, pageIcon, thumbIcon } from "../ui/icons.ts";
import { AnswerParts } from "./answer_parts.ts";
import { answerSources, isSafeUrl } from "./markdown.ts";
import { messageText, type UiMessage } from "./messages.ts";
import type { Chat } from "./use_chat.ts";

/** Props of {@link Answer}. */
export interface AnswerProps {
  message: UiMessage;
  /** The answer still streams. */
  streaming: boolean;
  /** The chat the answer belongs to (its rating and feedback). */
  chat: Chat;
  translations: AskAiScreenTranslations;
  environment: Window;
  /** A search of the assistant was clicked: search its query. */
  onQuery(query: string): void;
}

/** An assistant message (`.DocSearch-AskAiScreen-Response`). */
export function Answer(props: AnswerProps): VNode {
  const { message, translations: t, environment } = props;
  const text = messageText(message);
  const sources = [
    ...answerSources(text, environment.document.baseURI),
    ...message.parts.flatMap((p) =>
      p.type === "source-url" && isSafeUrl(p.url, environment.document.baseURI)
        ? [{ url: p.url, title: p.title ?? p.url }]
        : []
    ),
  ].filter((s, i, all) => all.findIndex((x) => x.url === s.url) === i);
  const done = !props.streaming;
  return html`<div class="DocSearch-AskAiScreen-Response">
    ${
    message.parts.length === 0 && !done &&
    html`<p class="DocSearch-AskAiScreen-Thinking">${t.thinkingText}</p>`
  }
    <${AnswerParts} message=${message} translations=${t} onQuery=${props.onQuery}
      environment=${environment} />
    ${
    message.metadata?.stopped &&
    html`<p class="DocSearch-AskAiScreen-Stopped">${t.stoppedStreamingText}</p>`
  }
    ${
    message.metadata?.error &&
    html`<p class="DocSearch-AskAiScreen-Error" role="alert">${message.metadata.error}</p>`
  }
    ${
    done && sources.length > 0 && html`
      <div class="DocSearch-AskAiScreen-RelatedSources">
        <p class="DocSearch-AskAiScreen-RelatedSources-Title">${t.relatedSourcesText}</p>
        <ul class="DocSearch-AskAiScreen-RelatedSources-List">${sources.map((s) =>
          html`<li key=${s.url}><a class="DocSearch-AskAiScreen-RelatedSources-Item-Link"
            href=${s.url} target="_blank" rel="noopener noreferrer">${pageIcon()}<span>${s.title}</span></a></li>`
        )}</ul>
      </div>
    `
  }
    ${
    done && text !== "" &&
    html`
      <${AnswerActions} message=${message} text=${text} chat=${props.chat} translations=${t}
        environment=${environment} />
    `
  }
  </div>` as VNode;
}

/** Copy (the text, "Copied!" for 2 s), then like and dislike until rated, the thanks after. */
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
  return html`<div class="DocSearch-AskAiScreen-Actions">
    <button
      type="button"
      class="DocSearch-AskAiScreen-ActionButton DocSearch-AskAiScreen-CopyButton"
      title=${t.copyButtonTitle}
      onClick=${() =>
    environment.navigator.clipboard?.writeText(props.text).then(() => {
      setCopied(true);
      environment.setTimeout(() => setCopied(false), 2000);
    }, () => {})}
    >${copyIcon()}<span class="DocSearch-VisuallyHiddenForAccessibility">${
    copied ? t.copyButtonCopiedText : t.copyButtonText
  }</span></button>
    ${
    props.message.id in props.chat.rated
      ? html`<p class="DocSearch-AskAiScreen-FeedbackText">${t.thanksForFeedbackText}</p>`
      : [true, false].map((like) =>
        html`
          <button
            type="button"
            class=${`DocSearch-AskAiScreen-ActionButton DocSearch-AskAiScreen-${
              like ? "Like" : "Dislike"
            }Button`}
            title=${like ? t.likeButtonTitle : t.dislikeButtonTitle}
            aria-label=${like ? t.likeButtonTitle : t.dislikeButtonTitle}
            onClick=${() => props.chat.feedback(props.message.id, like)}
          >${thumbIcon()}</button>
        `
      )
  }
  </div>` as VNode;
}
