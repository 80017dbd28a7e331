/**
 * What the modal and the Sidepanel's panel need to search and chat, made
 * once per options object: the search client, the storages (recent searches,
 * conversations, the Ask AI token's cache) and the Ask AI client. The panel
 * imports this module, not the modal, so its chunk holds no keyword search UI.
 *
 * @module
 */
import { createConversationStorage } from "../ask_ai/conversations.ts";
import type { ResolvedOptions } from "../options.ts";
import { createLatestSearch, createSearchClient, type SearchClient } from "../search.ts";
import { createSearchStorage } from "../storage.ts";
import { storedItem } from "../stored_list.ts";
import type { ModalProps } from "./modal.ts";

/** The services of one options object. */
export type Services = Pick<
  ModalProps,
  "search" | "storage" | "conversations" | "askAiClient" | "tokenCache"
>;

/**
 * The search client, storages (recent searches, conversations, the Ask AI
 * token's cache) and Ask AI client of each options object, kept across openings.
 */
const services = new WeakMap<ResolvedOptions, Services>();

/** The services of `options` (made on first use, then kept): the modal's, and the Sidepanel's. */
export function servicesOf(options: ResolvedOptions): Services {
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
