/**
 * Text <-> base64url (no padding), the encoding of cursors and opaque global ids.
 *
 * @module
 */
import { decodeBase64Url, encodeBase64Url } from "@std/encoding/base64url";

const encoder = new TextEncoder();
const decoder = new TextDecoder("utf-8", { fatal: true });

/** Encodes UTF-8 `text` as base64url without padding. */
export function textToBase64Url(text: string): string {
  return encodeBase64Url(encoder.encode(text));
}

/**
 * Decodes base64url `value` into UTF-8 text.
 *
 * @returns the text, or `undefined` when `value` is not base64url or not UTF-8
 */
export function base64UrlToText(value: string): string | undefined {
  if (!/^[A-Za-z0-9_-]*$/.test(value)) return undefined;
  try {
    return decoder.decode(decodeBase64Url(value));
  } catch {
    return undefined;
  }
}
