/**
 * The Ask AI requests: the chat (standard backend with a token, or the agent
 * platform's completions endpoint) and the feedback on an answer.
 *
 * @module
 */
import type { ResolvedAskAi } from "../options.ts";
import type { UiMessage } from "./messages.ts";

/** What a chat request carries besides the settings. */
export interface ChatRequest {
  /** The conversation's id. */
  id: string;
  /** The whole conversation, the new question last. */
  messages: UiMessage[];
  suggestedQuestionId?: string;
  signal?: AbortSignal;
}

/** How to reach the backend. */
export interface ChatSettings {
  askAi: ResolvedAskAi;
  environment: Window;
  /** The standard backend's token (unused by the agent platform). */
  token: () => Promise<string>;
}

/** The SDK version header value the hosted backend expects. */
export const AI_SDK_VERSION = "v5";

/**
 * Sends the conversation; resolves to the streaming response.
 *
 * @throws {Error} when the token cannot be had or the answer is not 2xx
 * (message from the body's `message`/`error`, else the status).
 */
export async function sendChat(settings: ChatSettings, request: ChatRequest): Promise<Response> {
  const { askAi } = settings;
  const body: Record<string, unknown> = { id: request.id, messages: request.messages };
  if (!askAi.agentStudio) body.trigger = "submit-message";
  // the agent platform reads them under `algolia`, as DocSearch sends them
  if (askAi.searchParameters) {
    if (askAi.agentStudio) body.algolia = { searchParameters: askAi.searchParameters };
    else body.searchParameters = askAi.searchParameters;
  }
  if (request.suggestedQuestionId) body.suggestedQuestionId = request.suggestedQuestionId;
  const response = await post(
    settings,
    askAi.agentStudio
      ? `${askAi.baseUrl}/agent-studio/1/agents/${
        encodeURIComponent(askAi.assistantId)
      }/completions?stream=true&compatibilityMode=ai-sdk-5`
      : `${askAi.baseUrl}/chat`,
    body,
    { "x-algolia-index-name": askAi.indexName, "x-ai-sdk-version": AI_SDK_VERSION },
    request.signal,
  );
  if (!response.ok || !response.body) {
    const error = await response.json().catch(() => ({}));
    throw new Error(error.message || error.error || `The answer failed (HTTP ${response.status})`);
  }
  return response;
}

/**
 * Sends a like (`true`) or dislike for an answer: `{appId, messageId, thumbs}`
 * to the standard backend, `{messageId, agentId, vote}` to the agent platform.
 * Resolves once the backend accepted it (a 2xx answer).
 *
 * @throws {Error} when the token cannot be had, the request cannot be sent,
 * or the answer is not 2xx (message from the body's `message`/`error`, else
 * DocSearch's "Failed, try again later.").
 */
export async function sendFeedback(
  settings: ChatSettings,
  messageId: string,
  like: boolean,
): Promise<void> {
  const { askAi } = settings;
  const vote = like ? 1 : 0;
  const response = await post(
    settings,
    `${askAi.baseUrl}/${askAi.agentStudio ? "agent-studio/1" : "chat"}/feedback`,
    askAi.agentStudio
      ? { messageId, agentId: askAi.assistantId, vote }
      : { appId: askAi.appId, messageId, thumbs: vote },
  );
  if (!response.ok) {
    const error = await response.json().catch(() => ({}));
    throw new Error(error.message || error.error || "Failed, try again later.");
  }
}

/**
 * POSTs `body` as JSON to `url` with the Ask AI credentials; to the standard
 * backend also with its token, the assistant id and the `standard` headers.
 *
 * @throws {Error} when the token cannot be had or the request fails.
 */
async function post(
  settings: ChatSettings,
  url: string,
  body: object,
  standard?: Record<string, string>,
  signal?: AbortSignal,
): Promise<Response> {
  const { askAi } = settings;
  return settings.environment.fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "x-algolia-application-id": askAi.appId,
      "x-algolia-api-key": askAi.apiKey,
      ...!askAi.agentStudio && {
        authorization: `TOKEN ${await settings.token()}`,
        "x-algolia-assistant-id": askAi.assistantId,
        ...standard,
      },
    },
    body: JSON.stringify(body),
    signal,
  });
}
