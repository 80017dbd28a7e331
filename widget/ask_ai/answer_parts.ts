/**
 * The body of an assistant message: its tool calls (the searches the
 * assistant runs) and its Markdown texts, in order; consecutive finished
 * searches shown as one "Searched for" line (or `aggregatedToolCallNode`),
 * which stays once the answer's text streams (DocSearch's newest tests;
 * 4.7.1 dropped it).
 *
 * @module
 */
import type { VNode } from "preact";
import type { AskAiScreenTranslations } from "../translations.ts";
import { html } from "../ui/html.ts";
import { renderMarkdown } from "./markdown.ts";
import type { ToolPart, UiMessage } from "./messages.ts";

/** Props of {@link AnswerParts}. */
export interface AnswerPartsProps {
  message: UiMessage;
  translations: AskAiScreenTranslations;
  /**
   * A search of the assistant was clicked: search its query. Without it (the
   * Sidepanel, which has no keyword search) the queries are text, not buttons.
   */
  onQuery?(query: string): void;
  environment: Window;
}

/** The tool calls and texts of an assistant message, consecutive finished searches aggregated. */
export function AnswerParts(
  { message, translations: t, onQuery, environment }: AnswerPartsProps,
): VNode[] {
  const blocks: VNode[] = [];
  let searched: string[] = [];
  const flush = () => {
    if (searched.length === 0) return;
    const queries = searched;
    searched = [];
    const custom = t.aggregatedToolCallNode?.(queries, onQuery ?? (() => {}));
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
        class="DocSearch-AskAiScreen-ToolCall">${text
          .before}${queries.map((q, i) =>
            html`
              ${i === 0
                ? ""
                : i === queries.length - 1
                ? text.lastSeparator
                : text.separator}${onQuery
                ? html`
                  <button type="button" class="DocSearch-AskAiScreen-ToolCallQuery"
                    onClick=${() => onQuery(q)}>"${q}"</button>
                `
                : html`<span class="DocSearch-AskAiScreen-ToolCallQuery">"${q}"</span>`}
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
          dangerouslySetInnerHTML=${{
            __html: renderMarkdown(part.text, environment.document.baseURI),
          }}
        />
      ` as VNode);
    }
  }
  flush();
  return blocks;
}
