/**
 * The server helper's CORS policy as Yoga's `cors` option. Off by default: no
 * `Access-Control-*` header is ever sent, so browsers allow only same-origin pages to read
 * responses (Yoga's own default echoes any `Origin` with credentials allowed). With an
 * allow-list, a listed origin gets its own origin back (and `Vary: Origin`), an unlisted one
 * gets no CORS header at all.
 *
 * @module
 */
import type { CORSOptions } from "graphql-yoga";

/** Cross-origin access: which browser origins may call the API. */
export interface CorsOptions {
  /** Exact origins (`https://app.example.com`: scheme, host and port, no path). */
  origins: string[];
  /** Allow cookies and HTTP authentication from those origins; default `false`. */
  credentials?: boolean;
  /** How long a browser may cache a preflight answer, in seconds; default 600. */
  maxAgeSeconds?: number;
  /** Request headers a page may send; default `content-type` and `authorization`. */
  allowedHeaders?: string[];
}

/**
 * Yoga's `cors` option for `options` (`false`: none).
 *
 * @throws Error naming an origin that is not `scheme://host[:port]`
 */
export function yogaCors(
  options: CorsOptions | false | undefined,
): false | ((request: Request) => CORSOptions) {
  if (!options) return false;
  for (const origin of options.origins) {
    let parsed: URL | undefined;
    try {
      parsed = new URL(origin);
    } catch {
      parsed = undefined;
    }
    if (!parsed || parsed.origin !== origin) {
      throw new Error(
        `cors origin ${JSON.stringify(origin)} is not an origin (scheme://host[:port], no path)`,
      );
    }
  }
  const allowed = new Set(options.origins);
  return (request: Request) => {
    const origin = request.headers.get("origin");
    if (!origin || !allowed.has(origin)) return false;
    return {
      origin: [origin, origin], // two entries: Yoga then adds `Vary: Origin`
      credentials: options.credentials ?? false,
      methods: ["GET", "POST"],
      allowedHeaders: options.allowedHeaders ?? ["content-type", "authorization"],
      maxAge: options.maxAgeSeconds ?? 600,
    };
  };
}
