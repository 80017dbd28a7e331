/**
 * The AI SDK v5 UI message shapes the Ask AI backends exchange, and the
 * reducer that applies one chunk of a UI message stream to the assistant
 * message being streamed.
 *
 * @module
 */

/** A text or reasoning part. */
export interface TextPart {
  type: "text" | "reasoning";
  text: string;
  state?: "streaming" | "done";
  id?: string;
}

/** A tool call part (`tool-<toolName>`), e.g. the search the assistant runs. */
export interface ToolPart {
  type: `tool-${string}`;
  toolCallId: string;
  state: "input-streaming" | "input-available" | "output-available" | "output-error";
  input?: { query?: string; [key: string]: unknown };
  output?: unknown;
  errorText?: string;
}

/** A source the answer cites. */
export interface SourceUrlPart {
  type: "source-url";
  sourceId: string;
  url: string;
  title?: string;
}

/** A part of a UI message. */
export type UiPart = TextPart | ToolPart | SourceUrlPart;

/** A UI message (`{id, role, parts}`); `metadata` holds what the widget adds. */
export interface UiMessage {
  id: string;
  role: "user" | "assistant";
  parts: UiPart[];
  metadata?: { stopped?: boolean; error?: string };
  /** The feedback the backend accepted for this answer (DocSearch's stored field). */
  feedback?: "like" | "dislike";
}

/** One chunk of the UI message stream (the `data:` JSON of one server-sent event). */
export interface UiChunk {
  type: string;
  id?: string;
  delta?: string;
  messageId?: string;
  toolCallId?: string;
  toolName?: string;
  input?: ToolPart["input"];
  output?: unknown;
  errorText?: string;
  sourceId?: string;
  url?: string;
  title?: string;
}

/** The plain text of a message's text parts. */
export function messageText(message: UiMessage): string {
  return message.parts.flatMap((p) => p.type === "text" ? [(p as TextPart).text] : []).join("\n\n");
}

/**
 * Applies one chunk to the assistant message and returns the new message
 * (the input is not changed). Unknown chunk types leave it as it is.
 */
export function applyChunk(message: UiMessage, chunk: UiChunk): UiMessage {
  const parts = [...message.parts];
  const textIndex = (type: "text" | "reasoning") =>
    parts.findIndex((p) => p.type === type && (p as TextPart).id === chunk.id);
  const toolIndex = () => parts.findIndex((p) => (p as ToolPart).toolCallId === chunk.toolCallId);
  const updateTool = (change: Partial<ToolPart>) => {
    const i = toolIndex();
    const tool = i >= 0 ? parts[i] as ToolPart : {
      type: `tool-${chunk.toolName ?? "unknown"}` as const,
      toolCallId: chunk.toolCallId ?? "",
      state: "input-streaming" as const,
    };
    const next = { ...tool, ...change };
    if (i >= 0) parts[i] = next;
    else parts.push(next);
  };
  const [kind, phase] = chunk.type.split(/-(?=start$|delta$|end$)/);
  switch (chunk.type) {
    case "start":
      return { ...message, id: chunk.messageId ?? message.id };
    case "abort":
      return { ...message, metadata: { ...message.metadata, stopped: true } };
    case "tool-input-start":
      updateTool({ state: "input-streaming" });
      break;
    case "tool-input-available":
      updateTool({ state: "input-available", input: chunk.input });
      break;
    case "tool-output-available":
      updateTool({ state: "output-available", output: chunk.output });
      break;
    case "tool-input-error":
    case "tool-output-error":
      updateTool({ state: "output-error", errorText: chunk.errorText });
      break;
    case "source-url":
      parts.push({
        type: "source-url",
        sourceId: chunk.sourceId ?? chunk.url ?? "",
        url: chunk.url ?? "",
        title: chunk.title,
      });
      break;
    default:
      if ((kind === "text" || kind === "reasoning") && phase) {
        const i = textIndex(kind);
        const part: TextPart = i >= 0
          ? parts[i] as TextPart
          : { type: kind, text: "", id: chunk.id };
        const next: TextPart = {
          ...part,
          text: part.text + (phase === "delta" ? chunk.delta ?? "" : ""),
          state: phase === "end" ? "done" : "streaming",
        };
        if (i >= 0) parts[i] = next;
        else parts.push(next);
      } else {
        return message;
      }
  }
  return { ...message, parts };
}
