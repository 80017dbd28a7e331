/// <reference lib="dom" />
/**
 * `widget/ask_ai/messages.ts`: the AI SDK v5 UI message stream's chunks
 * applied to the assistant message, and its plain text.
 */
import { assertEquals } from "@std/assert";
import {
  applyChunk,
  messageText,
  type ToolPart,
  type UiChunk,
  type UiMessage,
} from "../../../../widget/ask_ai/messages.ts";

const empty: UiMessage = { id: "local", role: "assistant", parts: [] };
const apply = (chunks: UiChunk[], message = empty) => chunks.reduce(applyChunk, message);

Deno.test("start takes the server's message id; text deltas build a text part", () => {
  const message = apply([
    { type: "start", messageId: "m1" },
    { type: "text-start", id: "t1" },
    { type: "text-delta", id: "t1", delta: "Hello " },
    { type: "text-delta", id: "t1", delta: "world" },
  ]);
  assertEquals(message.id, "m1");
  assertEquals(message.parts, [{
    type: "text",
    text: "Hello world",
    id: "t1",
    state: "streaming",
  }]);
  assertEquals(apply([{ type: "text-end", id: "t1" }], message).parts[0], {
    type: "text",
    text: "Hello world",
    id: "t1",
    state: "done",
  });
});

Deno.test("a tool call goes input-streaming, input-available, output-available or error", () => {
  const searching = apply([
    { type: "tool-input-start", toolCallId: "c1", toolName: "searchIndex" },
    { type: "tool-input-available", toolCallId: "c1", input: { query: "pagination" } },
  ]);
  const call: ToolPart = {
    type: "tool-searchIndex",
    toolCallId: "c1",
    state: "input-available",
    input: { query: "pagination" },
  };
  assertEquals(searching.parts, [call]);
  const done = apply([{ type: "tool-output-available", toolCallId: "c1", output: [1] }], searching);
  assertEquals(done.parts[0], { ...call, state: "output-available", output: [1] });
  const failed = apply(
    [{ type: "tool-output-error", toolCallId: "c1", errorText: "no" }],
    searching,
  );
  assertEquals(failed.parts[0], { ...call, state: "output-error", errorText: "no" });
});

Deno.test("sources, abort; unknown chunks leave the message as it is; the input is not changed", () => {
  const message = apply([
    { type: "source-url", sourceId: "s1", url: "https://a.example", title: "A" },
    { type: "abort" },
    { type: "data-whatever" },
  ]);
  assertEquals(message.parts, [{
    type: "source-url",
    sourceId: "s1",
    url: "https://a.example",
    title: "A",
  }]);
  assertEquals(message.metadata, { stopped: true });
  assertEquals(empty.parts, []);
  const same = { ...empty };
  assertEquals(applyChunk(same, { type: "finish" }) === same, true);
});

Deno.test("messageText joins the text parts with a blank line", () => {
  assertEquals(
    messageText({
      id: "m",
      role: "assistant",
      parts: [
        { type: "text", text: "a" },
        { type: "tool-x", toolCallId: "c", state: "output-available" },
        { type: "reasoning", text: "hidden" },
        { type: "text", text: "b" },
      ],
    }),
    "a\n\nb",
  );
});
