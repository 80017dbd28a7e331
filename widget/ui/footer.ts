/**
 * The modal's footer, as DocSearch v4's: the powered-by line and the keys
 * to navigate, select and close; in the Ask AI mode, as v4 has it, to
 * navigate, submit the question and go back to the keyword search.
 *
 * @module
 */
import type { VNode } from "preact";
import type { FooterTranslations } from "../translations.ts";
import { html } from "./html.ts";
import { arrowIcon, enterIcon } from "./icons.ts";

const key = (label: string, content: unknown) =>
  html`
    <kbd class="DocSearch-Commands-Key" role="img"
      aria-label=${label}>${content}</kbd>
  `;

/** Props of {@link Footer}. */
export interface FooterProps {
  translations: FooterTranslations;
  /** The Ask AI mode's footer: submit question and back to search (v4's words). */
  askAi?: boolean;
}

/**
 * The footer of the keyword-search screens, or of the Ask AI mode (which
 * gets it from the modal through its props, so that the two lazy chunks
 * share no module of their own).
 */
export function Footer({ translations: t, askAi }: FooterProps): VNode {
  return html`
    <div class="DocSearch-Footer">
      <div class="DocSearch-Logo">${t.poweredByText} <a
          href="https://jsr.io/@mikrogql/ext"
          target="_blank"
          rel="noopener noreferrer"
        >mikrogql</a></div>
      <ul class="DocSearch-Commands">
        <li>${key(t.navigateDownKeyAriaLabel, arrowIcon(false))}${key(
          t.navigateUpKeyAriaLabel,
          arrowIcon(true),
        )}<span class="DocSearch-Label">${t.navigateText}</span></li>
        <li>${key(
          t.selectKeyAriaLabel,
          enterIcon(),
        )}<span class="DocSearch-Label">${askAi ? t.submitQuestionText : t.selectText}</span></li>
        <li>${key(t.closeKeyAriaLabel, "esc")}<span class="DocSearch-Label">${askAi
          ? t.backToSearchText
          : t.closeText}</span></li>
      </ul>
    </div>
  ` as VNode;
}
