/**
 * Reads a UI message stream (server-sent events `data: {json}` ending with
 * `data: [DONE]`) with `eventsource-parser`.
 *
 * @module
 */
import { createParser } from "eventsource-parser";
import type { UiChunk } from "./messages.ts";

/**
 * Feeds every chunk of `body` to `onChunk` until `[DONE]`.
 *
 * @throws {Error} when the stream sends an `error` chunk (its `errorText`),
 * or ends, or breaks, before `[DONE]` or a `finish`/`abort` chunk (a dropped
 * connection); rejects with the `AbortError` when `signal` aborts.
 */
export async function readUiMessageStream(
  body: ReadableStream<Uint8Array>,
  onChunk: (chunk: UiChunk) => void,
): Promise<void> {
  let done = false;
  let failure: Error | null = null;
  const parser = createParser({
    onEvent(event) {
      if (done || failure) return;
      if (event.data === "[DONE]") {
        done = true;
        return;
      }
      const chunk = JSON.parse(event.data) as UiChunk;
      if (chunk.type === "error") failure = new Error(chunk.errorText || "The answer failed");
      else onChunk(chunk);
      if (chunk.type === "finish" || chunk.type === "abort") done = true;
    },
  });
  const reader = body.getReader();
  const decoder = new TextDecoder();
  try {
    while (!done && !failure) {
      const { value, done: ended } = await reader.read().catch((error) => {
        if ((error as Error).name === "AbortError") throw error;
        return { value: undefined, done: true } as const;
      });
      if (ended) break;
      parser.feed(decoder.decode(value, { stream: true }));
    }
  } finally {
    reader.cancel().catch(() => {});
  }
  if (failure) throw failure;
  if (!done) throw new Error("The connection was lost before the answer was complete");
}
