/**
 * Reads a UI message stream (server-sent events `data: {json}` ending with
 * `data: [DONE]`): lines split by `@std/streams`' `TextLineStream`, `data:`
 * lines of an event joined and dispatched on the blank line that ends it
 * (the other fields and comments are not used by the protocol).
 *
 * @module
 */
import { TextLineStream } from "@std/streams/text-line-stream";
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
  const reader = body
    .pipeThrough(new TextDecoderStream() as unknown as TransformStream<Uint8Array, string>)
    .pipeThrough(new TextLineStream({ allowCR: true }))
    .getReader();
  try {
    while (!done && !failure) {
      const { value: line, done: ended } = await reader.read().catch((error) => {
        if ((error as Error).name === "AbortError") throw error;
        return { value: undefined, done: true } as const;
      });
      if (ended) break;
      if (line === "") {
        if (data.length > 0) dispatch(data.join("\n"));
        data = [];
      } else if (line.startsWith("data:")) {
        data.push(line.slice(line[5] === " " ? 6 : 5));
      }
    }
  } finally {
    reader.cancel().catch(() => {});
  }
  if (failure) throw failure;
  if (!done) throw new Error("The connection was lost before the answer was complete");
}
