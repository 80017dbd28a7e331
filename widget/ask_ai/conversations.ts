/**
 * Ask AI conversation history in local storage: up to 10 conversations,
 * newest first, keyed per application and index; nothing is read or written
 * with `disableUserPersonalization`; storage failures are swallowed.
 *
 * @module
 */
import { storedItem, storedList } from "../stored_list.ts";
import type { UiMessage } from "./messages.ts";

/** Conversations kept at most. */
export const MAX_CONVERSATIONS = 10;

/** A stored conversation: its id, its first question as title, its messages. */
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

/** Creates the conversation storage for `appId` and `indexName`. */
export function createConversationStorage(
  options: { environment: Window; appId: string; indexName: string; disabled: boolean },
): ConversationStorage {
  const key = `__DOCSEARCH_ASKAI_CONVERSATIONS__${options.appId}-${options.indexName}`;
  const { read, write } = storedList<Conversation>(
    storedItem(options.environment, "localStorage", key, options.disabled),
    (c) =>
      typeof (c as Conversation)?.id === "string" && Array.isArray((c as Conversation).messages),
  );
  return {
    list: read,
    save: (conversation) =>
      write(
        [conversation, ...read().filter((c) => c.id !== conversation.id)].slice(
          0,
          MAX_CONVERSATIONS,
        ),
      ),
    remove: (id) => write(read().filter((c) => c.id !== id)),
  };
}
