/**
 * The new-conversation screen: the greeting, the description and, with
 * `askAi.suggestedQuestions`, up to three questions published for the
 * assistant in the suggested-questions index.
 *
 * @module
 */
import type { VNode } from "preact";
import { useEffect, useState } from "preact/hooks";
import type { ResolvedAskAi } from "../options.ts";
import type { SearchClient } from "../search.ts";
import type { NewConversationTranslations } from "../translations.ts";
import { html } from "../ui/html.ts";

/** The index holding the assistants' suggested questions. */
export const SUGGESTED_QUESTIONS_INDEX = "algolia_ask_ai_suggested_questions";

/** A suggested question of the assistant. */
export interface SuggestedQuestion {
  objectID: string;
  question: string;
}

/**
 * The assistant's published suggested questions (at most 3), asked with
 * `searchClient` when `askAi.suggestedQuestions` is on, once `wanted` (a new
 * conversation shows) and until some arrived; `[]` before, and when the
 * request fails.
 */
export function useSuggestedQuestions(
  askAi: ResolvedAskAi,
  searchClient: SearchClient,
  wanted: boolean,
): SuggestedQuestion[] {
  const [suggested, setSuggested] = useState<SuggestedQuestion[]>([]);
  useEffect(() => {
    if (!wanted || !askAi.suggestedQuestions || suggested.length > 0) return;
    searchClient.search({
      requests: [{
        indexName: SUGGESTED_QUESTIONS_INDEX,
        query: "",
        filters: `state:published AND assistantId:${askAi.assistantId}`,
        hitsPerPage: 3,
      }],
    }).then(({ results }) => {
      const hits = (results[0] as { hits?: SuggestedQuestion[] })?.hits ?? [];
      setSuggested(hits.filter((h) => typeof h.question === "string"));
    }, () => {});
  }, [wanted]);
  return suggested;
}

/** Props of {@link NewConversationScreen}. */
export interface NewConversationScreenProps {
  translations: NewConversationTranslations;
  suggested: SuggestedQuestion[];
  /** A suggested question was chosen. */
  onAsk(question: string, suggestedQuestionId: string): void;
}

/** The new-conversation screen (`.DocSearch-NewConversationScreen`). */
export function NewConversationScreen(
  { translations: t, suggested, onAsk }: NewConversationScreenProps,
): VNode {
  return html`<div class="DocSearch-NewConversationScreen">
    <p class="DocSearch-Title">${t.newConversationTitle}</p>
    <p class="DocSearch-Help">${t.newConversationDescription}</p>
    ${
    suggested.length > 0 &&
    html`<ul class="DocSearch-NewConversationScreen-SuggestedQuestions">${
      suggested.map((q) =>
        html`<li key=${q.objectID}><button
          type="button"
          class="DocSearch-NewConversationScreen-SuggestedQuestion"
          onClick=${() => onAsk(q.question, q.objectID)}
        >${q.question}</button></li>`
      )
    }</ul>`
  }
  </div>` as VNode;
}
