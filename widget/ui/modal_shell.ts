/**
 * The modal's search bar alone, shown when the modal is opened before its
 * chunk has arrived: a real, focused input, so the keys typed, pasted or
 * composed meanwhile are kept and handed to the modal, which takes over the
 * input's text (and the focus) when it mounts.
 *
 * @module
 */
import type { VNode } from "preact";
import { useLayoutEffect, useRef } from "preact/hooks";
import type { ResolvedOptions } from "../options.ts";
import { html } from "./html.ts";
import { SearchBar } from "./search_bar.ts";

/** Props of {@link ModalShell}. */
export interface ModalShellProps {
  options: ResolvedOptions;
  /** Prefix of the element ids of this search box. */
  idPrefix: string;
  /** Text of the input when it shows. */
  query: string;
  /** Gets the input's text after each change. */
  onInput(text: string): void;
  onClose(): void;
}

/** The dialog with the search bar only (`.DocSearch-Container` > `.DocSearch-Modal`). */
export function ModalShell(props: ModalShellProps): VNode {
  const { options } = props;
  const t = options.translations.modal.searchBox;
  const input = useRef<HTMLInputElement>(null);
  useLayoutEffect(() => input.current?.focus(), []);
  return html`
    <div
      class=${`DocSearch DocSearch-Container${options.theme === "auto" ? " DocSearch--auto" : ""}`}
      role="dialog"
      aria-modal="true"
      aria-label=${t.searchInputLabel}
      onMouseDown=${(event: MouseEvent) => {
        if (event.target !== event.currentTarget) return;
        event.preventDefault();
        props.onClose();
      }}
    >
      <div class="DocSearch-Modal">
        <${SearchBar}
          options=${options}
          idPrefix=${props.idPrefix}
          inputRef=${input}
          query=${props.query}
          onInput=${props.onInput}
          onReset=${() => (props.onInput(""), input.current!.value = "", input.current!.focus())}
          onClose=${props.onClose}
        />
      </div>
    </div>
  ` as VNode;
}
