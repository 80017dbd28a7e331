/**
 * A local stand-in for the Ask AI backends, answering from the docs index:
 * the standard backend (`POST /chat/token`, `POST /chat` with
 * `authorization: TOKEN <token>`, `POST /chat/feedback`) and the agent
 * platform (`POST /agent-studio/1/agents/{id}/completions`,
 * `POST /agent-studio/1/feedback`). A chat searches the index for the last
 * question, streams the search as a tool call, then streams an answer built
 * from the best hits with links to them, as the AI SDK v5 UI message stream
 * (`data: {json}` events ending with `data: [DONE]`).
 *
 * Every request is logged; faults can be switched on while it serves.
 *
 * @module
 */
import type { RecordIndex } from "./search_api.ts";

/** Faults of the Ask AI stand-in; mutable while it serves. */
export interface AskAiFaults {
  /** The token request answers this status with `success: false`. */
  tokenStatus?: number;
  /** The chat answers this status with an error body. */
  chatStatus?: number;
  /** The error body's `message` (default "The assistant failed to answer"). */
  chatMessage?: string;
  /** The stream sends an `error` chunk after the tool call. */
  errorChunk?: boolean;
  /** The connection is cut after this many chunks. */
  dropAfter?: number;
  /** The stream sends an `abort` chunk (and `[DONE]`) after this many chunks. */
  abortAfter?: number;
  /** Milliseconds between chunks. */
  delayMs?: number;
  /** The answer's text waits for this promise (after the tool calls). */
  holdText?: Promise<void>;
  /** Replaces the answer's Markdown. */
  answer?: string;
  /** The assistant runs one search per query, one after the other (default: one, for the question). */
  toolQueries?: string[];
  /** Lifetime of issued tokens, seconds (default 3600). */
  tokenTtlSeconds?: number;
}

/** A request the stand-in received. */
export interface AskAiRequestLog {
  path: string;
  headers: Record<string, string>;
  body: unknown;
}

const CORS = {
  "access-control-allow-origin": "*",
  "access-control-allow-methods": "POST, OPTIONS",
  "access-control-allow-headers":
    "authorization, content-type, x-algolia-api-key, x-algolia-application-id, x-algolia-assistant-id, x-algolia-index-name, x-ai-sdk-version",
};

const STOP_WORDS = new Set(
  "a an and are can do does how i in is it me my of on or the to what when where which who why with you"
    .split(" "),
);

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { ...CORS, "content-type": "application/json" },
  });

const base64url = (text: string) =>
  btoa(text).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");

/** The search query the assistant derives from a question: its words without stop words. */
export function questionQuery(question: string): string {
  return question.toLowerCase().split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w && !STOP_WORDS.has(w)).join(" ");
}

/** The answer's Markdown for the hits found for `question`. */
export function answerMarkdown(
  question: string,
  hits: Array<{ title: string; text: string; url: string }>,
): string {
  if (hits.length === 0) {
    return `I could not find anything about "${question}" in the documentation.`;
  }
  const lines = hits.map((h) => `- **${h.title}**: ${h.text} ([${h.title}](${h.url}))`);
  return `Here is what the documentation says about "${question}":\n\n${
    lines.join("\n")
  }\n\nFor more, see [${hits[0].title}](${hits[0].url}).`;
}

/** The HTTP handler of the stand-in; answers `null` for paths it does not serve. */
export function createAskAiApi(
  index: RecordIndex,
  options: { faults?: AskAiFaults; log?: AskAiRequestLog[] } = {},
): (request: Request) => Promise<Response | null> {
  const faults = options.faults ?? {};
  const issued = new Set<string>();

  const stream = (question: string) => {
    const query = questionQuery(question);
    const found = index.searchAny(query).slice(0, 3).map((record) => {
      const title = [
        record.hierarchy.lvl1,
        record.type === "content" ? null : record.hierarchy[record.type],
      ]
        .filter((x, i, all) => x && all.indexOf(x) === i).join(" › ");
      return { title, text: (record.content ?? title).slice(0, 160), url: record.url };
    });
    const text = faults.answer ?? answerMarkdown(question, found);
    const chunks: unknown[] = [
      { type: "start", messageId: `msg_${crypto.randomUUID()}` },
      ...(faults.toolQueries ?? [query]).flatMap((q) => {
        const toolCallId = `call_${crypto.randomUUID().slice(0, 8)}`;
        return [
          { type: "start-step" },
          { type: "tool-input-start", toolCallId, toolName: "searchIndex" },
          {
            type: "tool-input-available",
            toolCallId,
            toolName: "searchIndex",
            input: { query: q },
          },
          { type: "tool-output-available", toolCallId, output: { hits: found } },
          { type: "finish-step" },
        ];
      }),
      ...(faults.errorChunk ? [{ type: "error", errorText: "The assistant is unavailable" }] : []),
      { type: "start-step" },
      { type: "text-start", id: "text-1" },
      ...text.split(/(?<= )/).map((delta) => ({ type: "text-delta", id: "text-1", delta })),
      { type: "text-end", id: "text-1" },
      { type: "finish-step" },
      { type: "finish" },
    ];
    const encoder = new TextEncoder();
    let sent = 0;
    return new ReadableStream<Uint8Array>({
      async pull(controller) {
        if (faults.delayMs) await new Promise((r) => setTimeout(r, faults.delayMs));
        if ((chunks[sent] as { type?: string })?.type === "text-start") await faults.holdText;
        if (faults.dropAfter !== undefined && sent >= faults.dropAfter) {
          controller.error(new Error("connection dropped"));
          return;
        }
        if (faults.abortAfter !== undefined && sent >= faults.abortAfter) {
          controller.enqueue(encoder.encode(`data: {"type":"abort"}\n\ndata: [DONE]\n\n`));
          controller.close();
          return;
        }
        if (sent === chunks.length) {
          controller.enqueue(encoder.encode("data: [DONE]\n\n"));
          controller.close();
          return;
        }
        controller.enqueue(encoder.encode(`data: ${JSON.stringify(chunks[sent++])}\n\n`));
      },
    });
  };

  const chat = (
    body: { messages?: Array<{ role: string; parts?: Array<{ type: string; text?: string }> }> },
  ) => {
    if (faults.chatStatus) {
      return json(
        { message: faults.chatMessage ?? "The assistant failed to answer" },
        faults.chatStatus,
      );
    }
    const last = [...(body.messages ?? [])].reverse().find((m) => m.role === "user");
    const question = last?.parts?.find((p) => p.type === "text")?.text ?? "";
    return new Response(stream(question), {
      headers: {
        ...CORS,
        "content-type": "text/event-stream",
        "cache-control": "no-cache",
        "x-vercel-ai-ui-message-stream": "v1",
      },
    });
  };

  return async (request) => {
    const { pathname } = new URL(request.url);
    const agent = pathname.match(/^\/agent-studio\/1\/agents\/([^/]+)\/completions$/);
    const known = pathname.startsWith("/chat") || pathname.startsWith("/agent-studio/");
    if (!known) return null;
    if (request.method === "OPTIONS") return new Response(null, { status: 204, headers: CORS });
    const text = await request.text();
    let body: Record<string, unknown> = {};
    try {
      body = text ? JSON.parse(text) : {};
    } catch {
      return json({ message: "Invalid JSON body" }, 400);
    }
    options.log?.push({ path: pathname, headers: Object.fromEntries(request.headers), body });

    if (pathname === "/chat/token") {
      if (faults.tokenStatus) {
        return json(
          { success: false, message: "The assistant is not available" },
          faults.tokenStatus,
        );
      }
      const exp = Math.floor(Date.now() / 1000) + (faults.tokenTtlSeconds ?? 3600);
      const payload = { exp, assistantId: request.headers.get("x-algolia-assistant-id") };
      const token = `${base64url('{"alg":"none","typ":"JWT"}')}.${
        base64url(JSON.stringify(payload))
      }.local`;
      issued.add(token);
      return json({ success: true, token, message: "" });
    }
    if (pathname === "/chat" || pathname === "/chat/feedback") {
      const token = request.headers.get("authorization")?.replace(/^TOKEN /, "") ?? "";
      if (!issued.has(token)) return json({ message: "Invalid or missing token" }, 401);
      return pathname === "/chat" ? chat(body) : json({ success: true });
    }
    if (
      !request.headers.get("x-algolia-api-key") || !request.headers.get("x-algolia-application-id")
    ) {
      return json({ message: "Missing application id or API key" }, 403);
    }
    if (agent) return chat(body);
    if (pathname === "/agent-studio/1/feedback") return json({ success: true });
    return json({ message: "Not found" }, 404);
  };
}
