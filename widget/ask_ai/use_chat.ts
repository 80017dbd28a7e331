/**
 * The Ask AI chat state: the current conversation, whether an answer
 * streams, the stored conversations, the answers rated, and the actions on
 * them. Asking sends
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
 * A new random id for a message or conversation, as the AI SDK makes them
 * (`Math.random` in base 36). Not `crypto.randomUUID()`: browsers have it in
 * secure contexts only, and a docs site may be served over plain http.
 */
const newId = () => Math.random().toString(36).slice(2);

/** An empty conversation with a new id. */
const newConversation = (): Conversation => ({ id: newId(), title: "", messages: [] });

/**
 * The errors after which a conversation cannot go on (DocSearch's blocking
 * errors): the thread depth (`AI-217`) and `AI-203`, `AI-205`, `AI-224`,
 * `AI-225`.
 */
const BLOCKING_ERROR = /\bAI-(203|205|217|224|225)\b|conversation depth/i;

/** State and actions of {@link useChat}. */
export interface Chat {
  /** The current conversation. */
  conversation: Conversation;
  /** Whether an answer streams. */
  streaming: boolean;
  /**
   * The last answer failed with a blocking error (the thread depth, `AI-217`,
   * "conversation depth", or `AI-203`/`AI-205`/`AI-224`/`AI-225`): the
   * conversation cannot go on (the input is disabled), a new one can.
   */
  limited: boolean;
  /** The stored conversations, newest first. */
  history: Conversation[];
  /** Asks `text` in the current conversation (`suggestedQuestionId`: the suggested question asked). */
  ask(text: string, suggestedQuestionId?: string): void;
  /** Stops the answer in flight. */
  stop(): void;
  /** Shows a stored conversation or, without one, a new one (stopping the answer in flight). */
  open(conversation?: Conversation): void;
  /** Removes a stored conversation. */
  remove(id: string): void;
  /** The answers rated in this view, by message id (an answer stored with its `feedback` is rated too). */
  rated: Record<string, Rating>;
  /**
   * Rates an answer: a like (`true`) or dislike, sent to the backend; once
   * accepted it is stored in the conversation, and a refusal is kept as the
   * rating's error (the buttons stay, as in DocSearch's newest tests).
   */
  feedback(messageId: string, like: boolean): void;
}

/** An answer's rating: being sent, accepted by the backend, or refused (`error`: the reason shown). */
export type Rating =
  | { state: "sending" }
  | { state: "sent" }
  | { state: "failed"; error: string };

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
    () => start.conversation ?? newConversation(),
  );
  const [streaming, setStreaming] = useState(false);
  const [history, setHistory] = useState(conversations.list);
  const [rated, setRated] = useState<Record<string, Rating>>({});
  const rate = (messageId: string, rating: Rating) =>
    setRated((all) => ({ ...all, [messageId]: rating }));
  const abort = useRef<AbortController | null>(null);

  const stop = () => abort.current?.abort();
  useEffect(() => {
    if (start.question) ask(start.question);
    return stop;
  }, []);

  async function ask(text: string, suggestedQuestionId?: string) {
    const user: UiMessage = {
      id: newId(),
      role: "user",
      parts: [{ type: "text", text }],
    };
    let answer: UiMessage = { id: newId(), role: "assistant", parts: [] };
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

  return {
    conversation,
    streaming,
    limited: BLOCKING_ERROR.test(
      conversation.messages.at(-1)?.metadata?.error ?? "",
    ),
    history,
    ask,
    stop,
    open(stored) {
      if (!stored) stop();
      setConversation(stored ?? newConversation());
    },
    remove(id) {
      conversations.remove(id);
      setHistory(conversations.list());
    },
    rated: Object.fromEntries([
      ...conversation.messages.flatMap((m) => m.feedback ? [[m.id, { state: "sent" }]] : []),
      ...Object.entries(rated),
    ]),
    feedback(messageId, like) {
      rate(messageId, { state: "sending" });
      sendFeedback(settings, messageId, like).then(() => {
        rate(messageId, { state: "sent" });
        const feedback = like ? "like" : "dislike";
        const mark = (c: Conversation): Conversation => ({
          ...c,
          messages: c.messages.map((m) => m.id === messageId ? { ...m, feedback } : m),
        });
        const stored = conversations.list().find((c) => c.messages.some((m) => m.id === messageId));
        if (stored) conversations.save(mark(stored));
        setConversation((c) => c.messages.some((m) => m.id === messageId) ? mark(c) : c);
      }, (error: Error) => rate(messageId, { state: "failed", error: error.message }));
    },
  };
}
