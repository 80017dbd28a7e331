/**
 * The Ask AI chat state: the current conversation, whether an answer
 * streams, the stored conversations, and the actions on them. Asking sends
 * the whole conversation and streams the answer into it; every failure ends
 * as the answer's `metadata` (`stopped` when aborted, else `error`), and the
 * conversation is saved when the answer ends. Leaving the view aborts the
 * answer in flight.
 *
 * @module
 */
import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import type { ResolvedAskAi } from "../options.ts";
import type { StoredItem } from "../stored_list.ts";
import { type ChatSettings, sendChat, sendFeedback } from "./chat.ts";
import type { Conversation, ConversationStorage } from "./conversations.ts";
import { applyChunk, type UiMessage } from "./messages.ts";
import { readUiMessageStream } from "./stream.ts";
import { createTokenSource } from "./token.ts";

/**
 * State and actions of {@link useChat}: the current conversation; whether an
 * answer streams; the stored conversations, newest first; `ask(text,
 * suggestedQuestionId?)` in the current conversation; `stop()` the answer in
 * flight; `open(conversation?)` a stored conversation or (without one) a new
 * one; `remove(id)` a stored conversation; `feedback(messageId, like)` on an
 * answer (failures ignored).
 */
export type Chat = [
  conversation: Conversation,
  streaming: boolean,
  history: Conversation[],
  ask: (text: string, suggestedQuestionId?: string) => void,
  stop: () => void,
  open: (conversation?: Conversation) => void,
  remove: (id: string) => void,
  feedback: (messageId: string, like: boolean) => void,
];

/**
 * The chat of the Ask AI view, starting with `start.conversation` (or a new
 * one) and asking `start.question` when given; the standard backend's token
 * is kept in `tokenCache`.
 */
export function useChat(
  askAi: ResolvedAskAi,
  environment: Window,
  conversations: ConversationStorage,
  tokenCache: StoredItem,
  start: { question?: string; conversation?: Conversation },
): Chat {
  const settings: ChatSettings = useMemo(() => ({
    askAi,
    environment,
    token: createTokenSource({ ...askAi, environment, cache: tokenCache }),
  }), []); // once: the options of a search box do not change
  const [conversation, setConversation] = useState<Conversation>(
    () => start.conversation ?? { id: crypto.randomUUID(), title: "", messages: [] },
  );
  const [streaming, setStreaming] = useState(false);
  const [history, setHistory] = useState(conversations.list);
  const abort = useRef<AbortController | null>(null);

  const stop = () => abort.current?.abort();
  useEffect(() => {
    if (start.question) ask(start.question);
    return stop;
  }, []);

  async function ask(text: string, suggestedQuestionId?: string) {
    const user: UiMessage = {
      id: crypto.randomUUID(),
      role: "user",
      parts: [{ type: "text", text }],
    };
    let answer: UiMessage = { id: crypto.randomUUID(), role: "assistant", parts: [] };
    const base: Conversation = {
      ...conversation,
      title: conversation.title || text,
      messages: [...conversation.messages, user],
    };
    const show = (message: UiMessage) => {
      answer = message;
      setConversation({ ...base, messages: [...base.messages, message] });
    };
    show(answer);
    setStreaming(true);
    const controller = new AbortController();
    abort.current = controller;
    try {
      const response = await sendChat(settings, {
        id: base.id,
        messages: base.messages,
        suggestedQuestionId,
        signal: controller.signal,
      });
      await readUiMessageStream(response.body!, (chunk) => show(applyChunk(answer, chunk)));
    } catch (error) {
      show({
        ...answer,
        metadata: controller.signal.aborted
          ? { stopped: true }
          : { error: (error as Error).message || String(error) },
      });
    } finally {
      abort.current = null;
      setStreaming(false);
      conversations.save({ ...base, messages: [...base.messages, answer] });
      setHistory(conversations.list());
    }
  }

  return [
    conversation,
    streaming,
    history,
    ask,
    stop,
    (stored) => {
      if (!stored) stop();
      setConversation(stored ?? { id: crypto.randomUUID(), title: "", messages: [] });
    },
    (id) => {
      conversations.remove(id);
      setHistory(conversations.list());
    },
    (messageId, like) => sendFeedback(settings, messageId, like).catch(() => {}),
  ];
}
