/**
 * The search button (`.DocSearch-Button`, structured as DocSearch's so its
 * themes apply): icon, text, and the `⌘ K` / `Ctrl K` key hint when the
 * `Ctrl/Cmd+K` shortcut is on. The theme draws the keys from `data-key`, so
 * the button's visible text stays within its accessible name (the shortcuts
 * are announced through `aria-keyshortcuts`).
 *
 * @module
 */
import type { Ref, VNode } from "preact";
import type { ButtonTranslations } from "../translations.ts";
import type { KeyboardShortcuts } from "../shortcuts.ts";
import { html } from "./html.ts";
import { searchIcon } from "./icons.ts";

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

/** Whether the page runs on an Apple platform (the Command key is `⌘`). */
export function isApple(environment: Window): boolean {
  return /Mac|iPhone|iPod|iPad/i.test(environment.navigator.platform);
}

/** The button that opens the modal. */
export function SearchButton(props: SearchButtonProps): VNode {
  const { translations, shortcuts } = props;
  const apple = isApple(props.environment);
  const keys = [
    shortcuts["Ctrl/Cmd+K"] && (apple ? "Meta+K" : "Control+K"),
    shortcuts["/"] && "/",
  ].filter(Boolean).join(" ");
  return html`
    <button
      type="button"
      class=${`DocSearch DocSearch-Button${props.autoTheme ? " DocSearch--auto" : ""}`}
      aria-label=${translations.buttonAriaLabel}
      aria-keyshortcuts=${keys || undefined}
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
        ${shortcuts["Ctrl/Cmd+K"] &&
          html`<span class="DocSearch-Button-Keys" aria-hidden="true">
      <kbd class=${`DocSearch-Button-Key${apple ? "" : " DocSearch-Button-Key--ctrl"}`} data-key=${
            apple ? "⌘" : "Ctrl"
          } /><kbd class="DocSearch-Button-Key" data-key="K" />
    </span>`}
      </button>
  ` as VNode;
}
