/**
 * The modal dialog's frame (`.DocSearch-Container` > `.DocSearch-Modal`):
 * the backdrop, whose click closes, around the modal. Up-front code shared
 * by the shell shown while the modal's chunk loads and by the modal, which
 * gets it through its props (`Dialog`) rather than importing it, so that the
 * bundler does not split it into a chunk of its own.
 *
 * @module
 */
import type { ComponentChildren, Ref, VNode } from "preact";
import type { ResolvedOptions } from "../options.ts";
import { html } from "./html.ts";

/** Props of {@link Dialog}. */
export interface DialogProps {
  options: ResolvedOptions;
  /** Classes after `DocSearch-Container` (the modal's state: ` DocSearch-Container--Stalled`, ...). */
  modifiers?: string;
  dialogRef?: Ref<HTMLDivElement>;
  onKeyDown?(event: KeyboardEvent): void;
  onClose(): void;
  children: ComponentChildren;
}

/** The dialog, labelled by the search input's label. */
export function Dialog(props: DialogProps): VNode {
  const { options } = props;
  return html`
    <div
      class=${`DocSearch DocSearch-Container${props.modifiers ?? ""}${
        options.theme === "auto" ? " DocSearch--auto" : ""
      }`}
      role="dialog"
      aria-modal="true"
      aria-label=${options.translations.modal.searchBox.searchInputLabel}
      ref=${props.dialogRef}
      onMouseDown=${(event: MouseEvent) => {
        if (event.target !== event.currentTarget) return;
        // no default action: it would move the focus given back to the button to the body
        event.preventDefault();
        props.onClose();
      }}
      onKeyDown=${props.onKeyDown}
    >
      <div class="DocSearch-Modal">${props.children}</div>
    </div>
  ` as VNode;
}
