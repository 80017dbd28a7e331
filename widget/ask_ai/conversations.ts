/**
 * Ask AI conversation history in local storage: up to 10 conversations,
 * newest first, under DocSearch's key (`__DOCSEARCH_ASKAI_CONVERSATIONS__<index>`,
 * the Ask AI index) and in its shape (`{objectID, query, messages, type:
 * "askAI", ...}`), so a page that moves from DocSearch keeps its users'
 * conversations, and back; the key this search box used before
 * (`__DOCSEARCH_ASKAI_CONVERSATIONS__<appId>-<index>`) is read once and moved
 * over. Nothing is read or written with `disableUserPersonalization`; storage
 * failures are swallowed.
 *
 * @module
 */
import { storedItem, storedList } from "../stored_list.ts";
import type { UiMessage } from "./messages.ts";

/** Conversations kept at most. */
export const MAX_CONVERSATIONS = 10;

/** A conversation: its id, its first question as title, its messages. */
export interface Conversation {
  id: string;
  title: string;
  messages: UiMessage[];
}

/** The stored conversations of one search box. */
export interface ConversationStorage {
  list(): Conversation[];
  /** Saves (or moves to the top) a conversation. */
  save(conversation: Conversation): void;
  remove(id: string): void;
}

/** A stored entry: DocSearch's shape, or the one this search box wrote before (`id`, `title`). */
interface StoredConversation {
  objectID?: string;
  query?: string;
  id?: string;
  title?: string;
  messages: UiMessage[];
}

const isStored = (c: unknown) =>
  typeof c === "object" && c !== null && Array.isArray((c as StoredConversation).messages) &&
  typeof ((c as StoredConversation).objectID ?? (c as StoredConversation).id) === "string";

const fromStored = (c: StoredConversation): Conversation => ({
  id: (c.objectID ?? c.id)!,
  title: c.query ?? c.title ?? "",
  messages: c.messages,
});

/** DocSearch's stored record of a conversation (a hit of type `askAI`, as its list renders it). */
const toStored = (c: Conversation) => ({
  objectID: c.id,
  query: c.title,
  messages: c.messages,
  type: "askAI",
  anchor: "stored",
  content: null,
  hierarchy: {
    lvl0: "askAI",
    lvl1: c.title,
    lvl2: null,
    lvl3: null,
    lvl4: null,
    lvl5: null,
    lvl6: null,
  },
  url: "",
  url_without_anchor: "",
});

/** Creates the conversation storage for `indexName` (`appId`: the former key's scope). */
export function createConversationStorage(
  options: { environment: Window; appId: string; indexName: string; disabled: boolean },
): ConversationStorage {
  const item = (key: string) =>
    storedList<StoredConversation>(
      storedItem(options.environment, "localStorage", key, options.disabled),
      isStored,
    );
  const { read, write } = item(`__DOCSEARCH_ASKAI_CONVERSATIONS__${options.indexName}`);
  const former = item(`__DOCSEARCH_ASKAI_CONVERSATIONS__${options.appId}-${options.indexName}`);
  const moved = former.read();
  if (moved.length > 0) {
    const ids = new Set(read().map((c) => c.objectID ?? c.id));
    write([
      ...read(),
      ...moved.filter((c) => !ids.has(c.id)).map((c) => toStored(fromStored(c))),
    ].slice(0, MAX_CONVERSATIONS));
    former.write([]);
  }
  const list = () => read().map(fromStored);
  const store = (conversations: Conversation[]) =>
    write(conversations.slice(0, MAX_CONVERSATIONS).map(toStored));
  return {
    list,
    save: (conversation) =>
      store([conversation, ...list().filter((c) => c.id !== conversation.id)]),
    remove: (id) => store(list().filter((c) => c.id !== id)),
  };
}
