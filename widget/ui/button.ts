/**
 * The search button (`.DocSearch-Button`, structured as DocSearch's so its
 * themes apply): icon, text, and the `⌘ K` / `Ctrl K` key hint when the
 * `Ctrl/Cmd+K` shortcut is on, named in its accessible name and
 * `aria-keyshortcuts` as DocSearch names it. The theme draws the keys from
 * `data-key` (generated content is no text of the button), so its visible
 * text stays within its accessible name (axe's label-content-name-mismatch:
 * `Ctrl K` as text is not in `Search (Control+k)`).
 *
 * @module
 */
import type { Ref, VNode } from "preact";
import type { ButtonTranslations } from "../translations.ts";
import type { KeyboardShortcuts } from "../shortcuts.ts";
import { html } from "./html.ts";
import { searchIcon } from "./icons.ts";
import { useApple } from "./platform.ts";

/** Props of {@link SearchButton}. */
export interface SearchButtonProps {
  translations: ButtonTranslations;
  shortcuts: Required<KeyboardShortcuts>;
  environment: Window;
  buttonRef: Ref<HTMLButtonElement>;
  /** `theme: "auto"`: the button follows the OS's colour scheme too. */
  autoTheme: boolean;
  onClick(): void;
  /** A sign that the user may open the modal soon (pointer over, focus, touch). */
  onIntent(): void;
}

export { isApple } from "./platform.ts";

/**
 * The button that opens the modal, as DocSearch 4.7.1 renders it: with
 * `Ctrl/Cmd+K` on, its accessible name ends with the shortcut (`Search
 * (Control+k)`, `Meta+k` on Apple platforms), which `aria-keyshortcuts`
 * names too, and the keys container shows the keys; with it off, the name is
 * the label alone and the keys container stays, empty.
 */
export function SearchButton(props: SearchButtonProps): VNode {
  const { translations } = props;
  const apple = useApple(props.environment);
  const shortcut = props.shortcuts["Ctrl/Cmd+K"] && (apple ? "Meta+k" : "Control+k");
  return html`
    <button
      type="button"
      class=${`DocSearch DocSearch-Button${props.autoTheme ? " DocSearch--auto" : ""}`}
      aria-label=${translations.buttonAriaLabel + (shortcut ? ` (${shortcut})` : "")}
      aria-keyshortcuts=${shortcut || undefined}
      onClick=${props.onClick}
      onPointerEnter=${props.onIntent}
      onFocus=${props.onIntent}
      onTouchStart=${props.onIntent}
      ref=${props.buttonRef}
    >
      <span class="DocSearch-Button-Container">
          ${searchIcon()}
          <span class="DocSearch-Button-Placeholder">${translations
            .buttonText}</span>
        </span>
      <span class="DocSearch-Button-Keys">${shortcut &&
        html`<kbd class=${`DocSearch-Button-Key${
          apple ? "" : " DocSearch-Button-Key--ctrl"
        }`} data-key=${
          apple ? "⌘" : "Ctrl"
        } /><kbd class="DocSearch-Button-Key" data-key="K" />`}</span>
    </button>
  ` as VNode;
}
