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
import { Dialog } from "./dialog.ts";
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

/** The dialog with the search bar only. */
export function ModalShell(props: ModalShellProps): VNode {
  const { options } = props;
  const input = useRef<HTMLInputElement>(null);
  useLayoutEffect(() => input.current?.focus(), []);
  return html`
    <${Dialog} options=${options} onClose=${props.onClose}>
      <${SearchBar}
        options=${options}
        idPrefix=${props.idPrefix}
        inputRef=${input}
        query=${props.query}
        onInput=${props.onInput}
        onReset=${() => (props.onInput(""), input.current!.value = "", input.current!.focus())}
        onClose=${props.onClose}
      />
      <//>
  ` as VNode;
}
