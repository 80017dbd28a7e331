/**
 * Hit URLs made harmless: a `javascript:`, `data:` or `vbscript:` URL (in any
 * case, with the control characters and whitespace a browser ignores in a
 * scheme) is never put in a link, stored as a recent search, or handed to the
 * navigator. DocSearch 4.7.1 runs such a URL on click, on Enter and from its
 * recent searches; the search box deliberately does not (docs/sidepanel.md,
 * "Where we differ").
 *
 * @module
 */

/** Schemes that run script or render markup in the page's origin. */
const UNSAFE_SCHEMES = new Set(["javascript", "data", "vbscript"]);

/**
 * Whether `url` may be followed: a relative URL or one whose scheme is not
 * `javascript:`, `data:` or `vbscript:`. The browser's URL parser drops
 * ASCII tabs and newlines anywhere and leading C0 controls and spaces, so
 * they are dropped here too before the scheme is read.
 *
 * @example
 * ```ts
 * import { isSafeUrl } from "./safe_url.ts";
 * isSafeUrl("/docs/#install"); // true
 * isSafeUrl(" Java\nScript:alert(1)"); // false
 * ```
 */
export function isSafeUrl(url: unknown): url is string {
  if (typeof url !== "string") return false;
  // deno-lint-ignore no-control-regex
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(url.replace(/^[\x00-\x20]+|[\t\n\r]/g, ""));
  return !scheme || !UNSAFE_SCHEMES.has(scheme[1].toLowerCase());
}

/** `url` when {@link isSafeUrl}, else `undefined` (a link without `href`). */
export function safeHref(url: unknown): string | undefined {
  return isSafeUrl(url) ? url : undefined;
}
