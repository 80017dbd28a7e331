/**
 * The standard Ask AI backend's chat token: `POST <base>/chat/token` with the
 * assistant id; cached in a given storage item and refreshed 30 s before the
 * expiry its JWT payload carries (`exp`, seconds); one request in flight at a
 * time. The cache (sessionStorage `__DOCSEARCH_ASKAI_TOKEN__<assistantId>`)
 * is made with the other storages in the modal's chunk
 * (`../ui/search_modal.ts`): `../stored_list.ts` imported by both lazy chunks
 * would be a chunk of its own.
 *
 * @module
 */
import type { StoredItem } from "../stored_list.ts";

/** Seconds before expiry at which a cached token is renewed. */
export const TOKEN_REFRESH_MARGIN_S = 30;

/** Where the token comes from and where it is cached. */
export interface TokenOptions {
  baseUrl: string;
  assistantId: string;
  /** Its `fetch` asks for the token. */
  environment: Window;
  /** Holds the token between questions; when it cannot, every question asks for a new one. */
  cache: StoredItem;
}

/** Expiry (ms since epoch) of a JWT, or 0 when it has none or cannot be read. */
export function tokenExpiry(token: string): number {
  try {
    const payload = token.split(".")[1].replace(/-/g, "+").replace(/_/g, "/");
    return (JSON.parse(atob(payload)).exp ?? 0) * 1000;
  } catch {
    return 0;
  }
}

/**
 * Returns the function that gives a valid token.
 *
 * @throws {Error} (from the returned function) when the token request fails
 * or answers `success: false`; the message is the server's.
 */
export function createTokenSource(options: TokenOptions): () => Promise<string> {
  const { cache } = options;
  let pending: Promise<string> | null = null;
  const fresh = (token: string | null | undefined): token is string =>
    !!token && tokenExpiry(token) - TOKEN_REFRESH_MARGIN_S * 1000 > Date.now();
  const request = async () => {
    const response = await options.environment.fetch(`${options.baseUrl}/chat/token`, {
      method: "POST",
      headers: { "x-algolia-assistant-id": options.assistantId },
    });
    const body = await response.json().catch(() => ({}));
    if (!response.ok || !body.success || typeof body.token !== "string") {
      throw new Error(body.message || `The chat token request failed (HTTP ${response.status})`);
    }
    cache.set(body.token);
    return body.token as string;
  };
  return () => {
    const cached = cache.get();
    if (fresh(cached)) return Promise.resolve(cached);
    pending ??= request().finally(() => (pending = null));
    return pending;
  };
}
