/**
 * The modal with what it needs to search (the `algoliasearch/lite` client,
 * recent searches, conversations): the chunk that the search box imports on
 * the first sign of intent (pointer on the button, focus, a shortcut,
 * `initialQuery`) or when the browser is idle, so the page loads only the
 * button and the shortcuts up front.
 *
 * @module
 */
import type { VNode } from "preact";
import type { ResolvedOptions } from "../options.ts";
import { html } from "./html.ts";
import { Modal, type ModalProps } from "./modal.ts";
import { servicesOf } from "./services.ts";

export { liteClient } from "algoliasearch/lite";

/** Props of {@link SearchModal}. */
export interface SearchModalProps {
  options: ResolvedOptions;
  /** Prefix of the element ids of this search box. */
  idPrefix: string;
  /** Text of the input when the modal opens. */
  query: string;
  /** The search bar component (up-front code, see `./search_bar.ts`). */
  SearchBar: ModalProps["SearchBar"];
  /** The dialog's frame (up-front code, see `./dialog.ts`). */
  Dialog: ModalProps["Dialog"];
  onClose(): void;
}

/** The open modal of a search box, with the services of its options. */
export function SearchModal({ options, ...props }: SearchModalProps): VNode {
  return html`<${Modal} options=${options} ...${servicesOf(options)} ...${props} />` as VNode;
}
