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
import { createConversationStorage } from "../ask_ai/conversations.ts";
import type { ResolvedOptions } from "../options.ts";
import { createLatestSearch, createSearchClient, type SearchClient } from "../search.ts";
import { createSearchStorage } from "../storage.ts";
import { storedItem } from "../stored_list.ts";
import { html } from "./html.ts";
import { Modal, type ModalProps } from "./modal.ts";

export { liteClient } from "algoliasearch/lite";

type Services = Pick<
  ModalProps,
  "search" | "storage" | "conversations" | "askAiClient" | "tokenCache"
>;

/**
 * The search client, storages (recent searches, conversations, the Ask AI
 * token's cache) and Ask AI client of each options object, kept across openings.
 */
const services = new WeakMap<ResolvedOptions, Services>();

function servicesOf(options: ResolvedOptions): Services {
  let found = services.get(options);
  if (!found) {
    const { environment, askAi, disableUserPersonalization: disabled } = options;
    const client = (appId: string, apiKey: string): SearchClient =>
      options.transformSearchClient(createSearchClient(appId, apiKey));
    found = {
      search: createLatestSearch(client(options.appId, options.apiKey), options.indices),
      storage: createSearchStorage(options),
      conversations: createConversationStorage({
        environment,
        appId: askAi?.appId ?? options.appId,
        indexName: askAi?.indexName ?? options.indices[0].name,
        disabled,
      }),
      askAiClient: askAi && client(askAi.appId, askAi.apiKey),
      tokenCache: askAi &&
        storedItem(environment, "sessionStorage", `__DOCSEARCH_ASKAI_TOKEN__${askAi.assistantId}`),
    };
    services.set(options, found);
  }
  return found;
}

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
