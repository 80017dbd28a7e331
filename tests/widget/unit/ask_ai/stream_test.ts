/// <reference lib="dom" />
/**
 * `widget/ask_ai/stream.ts`: server-sent events of a UI message stream,
 * split as they arrive, until `[DONE]` or `finish`; errors and cut streams.
 */
import { assertEquals, assertRejects } from "@std/assert";
import { readUiMessageStream } from "../../../../widget/ask_ai/stream.ts";
import type { UiChunk } from "../../../../widget/ask_ai/messages.ts";

/** A body sending `pieces` as separate reads. */
const body = (...pieces: string[]) =>
  ReadableStream.from(pieces.map((p) => new TextEncoder().encode(p)));

async function read(...pieces: string[]): Promise<UiChunk[]> {
  const chunks: UiChunk[] = [];
  await readUiMessageStream(body(...pieces), (chunk) => chunks.push(chunk));
  return chunks;
}

Deno.test("events split across reads and CRLF lines; comments and other fields ignored", async () => {
  assertEquals(
    await read(
      ': comment\r\ndata: {"type":"st',
      'art"}\r\n\r\nevent: x\ndata:{"type":"text-delta","delta":"a"}\n\n',
      "data: [DONE]\n\n",
    ),
    [{ type: "start" }, { type: "text-delta", delta: "a" }],
  );
});

Deno.test("a CRLF split across reads ends one line; CR alone ends a line", async () => {
  assertEquals(
    await read('data: {"type":"start"}\r', "\n\r", '\ndata: {"type":"finish"}\r\r'),
    [{ type: "start" }, { type: "finish" }],
  );
});

Deno.test("a finish or abort chunk ends the stream; nothing after it is read", async () => {
  assertEquals(
    await read('data: {"type":"finish"}\n\ndata: {"type":"start"}\n\n'),
    [{ type: "finish" }],
  );
  assertEquals(await read('data: {"type":"abort"}\n\n'), [{ type: "abort" }]);
});

Deno.test("an error chunk throws its errorText", async () => {
  await assertRejects(
    () => read('data: {"type":"error","errorText":"AI-217: too deep"}\n\n'),
    Error,
    "AI-217: too deep",
  );
});

Deno.test("a stream that ends before [DONE] or finish is a lost connection", async () => {
  await assertRejects(
    () => read('data: {"type":"start"}\n\n'),
    Error,
    "The connection was lost before the answer was complete",
  );
});
