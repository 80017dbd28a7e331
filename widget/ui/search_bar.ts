/**
 * The modal's search bar (`.DocSearch-SearchBar`), as DocSearch v4's: the
 * magnifier label, the loading indicator, the input, then "Clear | ×" (the
 * clear button while there is a query, and the close button). Shared by the modal and the shell shown while the modal's chunk
 * loads, so both render the same input. It is up-front code: the modal gets
 * it through its props (`SearchBar`) rather than importing it, so that the
 * bundler does not split it into a chunk of its own.
 *
 * @module
 */
import type { Ref, VNode } from "preact";
import type { ResolvedOptions } from "../options.ts";
import { html } from "./html.ts";
import { closeIcon, loadingIcon, searchIcon } from "./icons.ts";

/** Props of {@link SearchBar}. */
export interface SearchBarProps {
  options: ResolvedOptions;
  /** Prefix of the element ids of this search box (the input is `<prefix>-input`). */
  idPrefix: string;
  inputRef: Ref<HTMLInputElement>;
  query: string;
  /** `maxlength` of the input (the modal's; the shell cuts nothing, the modal does). */
  maxLength?: number;
  /** The combobox attributes of the input (`aria-expanded`, ...), set by the modal. */
  combobox?: Record<string, unknown>;
  onInput(text: string): void;
  onKeyDown?(event: KeyboardEvent): void;
  /** The clear button was pressed. */
  onReset(): void;
  onClose(): void;
}

/** The search bar. */
export function SearchBar(props: SearchBarProps): VNode {
  const { options, idPrefix } = props;
  const t = options.translations.modal.searchBox;
  // `autoCorrect`: Preact would set Chromium's boolean `autocorrect` property,
  // which turns "off" into "on"; an unknown name goes in as the attribute.
  return html`
    <div class="DocSearch-SearchBar">
      <form class="DocSearch-Form" role="search" onSubmit=${(event: Event) =>
        event.preventDefault()}
        onReset=${(event: Event) => (event.preventDefault(), props.onReset())}>
        <label class="DocSearch-MagnifierLabel" for=${`${idPrefix}-input`} id=${`${idPrefix}-label`}>
    ${searchIcon()}<span class="DocSearch-VisuallyHiddenForAccessibility">${t
      .searchInputLabel}</span>
        </label>
        <div class="DocSearch-LoadingIndicator">${loadingIcon()}</div>
        <input class="DocSearch-Input" id=${`${idPrefix}-input`} ref=${props.inputRef} type="search"
          ...${props.combobox} autocomplete="off" autoCorrect="off" autocapitalize="off"
          spellcheck=${false}
          enterkeyhint=${t.enterKeyHint} maxlength=${props.maxLength} placeholder=${options
            .placeholder}
          value=${props.query} onKeyDown=${props.onKeyDown}
          onInput=${(event: Event) => props.onInput((event.target as HTMLInputElement).value)} />
        <div class="DocSearch-Actions">
          <button type="reset" class="DocSearch-Clear" aria-label=${t.clearButtonAriaLabel}
            hidden=${props.query === ""}>${t.clearButtonTitle}</button>
          <div class="DocSearch-Divider" />
          <button type="button" class="DocSearch-Action DocSearch-Close" title=${t.closeButtonText}
            aria-label=${t.closeButtonAriaLabel} onClick=${props.onClose}>${closeIcon()}</button>
        </div>
      </form>
    </div>
  ` as VNode;
}
