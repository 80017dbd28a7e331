/**
 * Reads a UI message stream (server-sent events `data: {json}` ending with
 * `data: [DONE]`): lines split as they arrive (CRLF, LF or CR, as the
 * event-stream format allows; split here rather than by `@std/streams`'
 * `TextLineStream`, which cost 250 B gzip more of the Ask AI chunk), `data:`
 * lines of an event joined and dispatched on the blank line that ends it
 * (the other fields and comments are not used by the protocol).
 *
 * @module
 */
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
  let data: string[] = [];
  const dispatch = (text: string) => {
    if (text === "[DONE]") {
      done = true;
      return;
    }
    const chunk = JSON.parse(text) as UiChunk;
    if (chunk.type === "error") failure = new Error(chunk.errorText || "The answer failed");
    else onChunk(chunk);
    if (chunk.type === "finish" || chunk.type === "abort") done = true;
  };
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  try {
    while (!done && !failure) {
      const { value, done: ended } = await reader.read().catch((error) => {
        if ((error as Error).name === "AbortError") throw error;
        return { value: undefined, done: true } as const;
      });
      // lines end with CRLF, LF or CR; a CR at the end may be the first half of a CRLF
      const lines = (buffer + (ended ? "\n" : decoder.decode(value, { stream: true })))
        .split(/\r\n|\n|\r(?!$)/);
      buffer = ended ? "" : lines.pop()!;
      for (const line of lines) {
        if (line === "") {
          if (data.length > 0) dispatch(data.join("\n"));
          data = [];
        } else if (line.startsWith("data:")) {
          data.push(line.slice(line[5] === " " ? 6 : 5));
        }
        if (done || failure) break;
      }
      if (ended) break;
    }
  } finally {
    reader.cancel().catch(() => {});
  }
  if (failure) throw failure;
  if (!done) throw new Error("The connection was lost before the answer was complete");
}
