/**
 * The modal's footer, as DocSearch v4's: the keys to navigate, select and
 * close, and the powered-by line.
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

/** The footer of the keyword-search screens. */
export function Footer(
  { translations: t }: { translations: FooterTranslations },
): VNode {
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
        )}<span class="DocSearch-Label">${t.selectText}</span></li>
        <li>${key(t.closeKeyAriaLabel, "esc")}<span class="DocSearch-Label">${t
          .closeText}</span></li>
      </ul>
    </div>
  ` as VNode;
}
