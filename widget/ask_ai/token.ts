/**
 * The standard Ask AI backend's chat token: `POST <base>/chat/token` with the
 * assistant id; cached in sessionStorage and refreshed 30 s before the expiry
 * its JWT payload carries (`exp`, seconds); one request in flight at a time.
 *
 * @module
 */

/** Seconds before expiry at which a cached token is renewed. */
export const TOKEN_REFRESH_MARGIN_S = 30;

/** Where the token comes from and where it is cached. */
export interface TokenOptions {
  baseUrl: string;
  assistantId: string;
  environment: Window;
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
  const key = `__DOCSEARCH_ASKAI_TOKEN__${options.assistantId}`;
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
    try {
      options.environment.sessionStorage.setItem(key, body.token);
    } catch {
      // not cached: the next question asks again
    }
    return body.token as string;
  };
  return () => {
    let cached: string | null = null;
    try {
      cached = options.environment.sessionStorage.getItem(key);
    } catch {
      // no storage: ask for a token
    }
    if (fresh(cached)) return Promise.resolve(cached);
    pending ??= request().finally(() => (pending = null));
    return pending;
  };
}
