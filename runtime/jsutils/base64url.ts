/**
 * Text <-> base64url (no padding), the encoding of cursors and opaque global ids.
 *
 * ASCII text (every id and nearly every cursor) is encoded in JavaScript, the output's character
 * codes from a table made one string at the end, without the `btoa` call, padding trim and
 * character swap (~3× faster on the 1,110 ids of one Q1 answer: `deno task bench:ids`); other text is encoded as UTF-8 first, so the
 * format is RFC 4648 §5 base64url of the UTF-8 bytes. Decoding uses the engine's `atob` with the
 * URL-safe character swap.
 *
 * @module
 */

const encoder = new TextEncoder();
const decoder = new TextDecoder("utf-8", { fatal: true });
const NON_ASCII = /[\u0080-\uffff]/;
const BASE64URL = /^[A-Za-z0-9_-]*$/;
const TO_URL: Record<string, string> = { "+": "-", "/": "_" };
const FROM_URL: Record<string, string> = { "-": "+", "_": "/" };

/** The base64url alphabet (RFC 4648 §5). */
const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
/** The character code of every 6-bit value. */
const CODES = Uint8Array.from(ALPHABET, (c) => c.charCodeAt(0));
/** Character codes of the text being encoded (reused: encoding is synchronous). */
const OUT: number[] = [];
/** Most character codes handed to one `String.fromCharCode` call. */
const CHUNK = 8_192;

/** Encodes UTF-8 `text` as base64url without padding. */
export function textToBase64Url(text: string): string {
  return asciiToBase64Url(text) ?? binaryToBase64Url(bytesToBinary(encoder.encode(text)));
}

/**
 * base64url of `prefix` followed by UTF-8 `text`: what {@linkcode textToBase64Url} gives for
 * `prefix + text`. The character codes of the prefix's whole 3-byte groups are kept per prefix
 * (a global id's node type), so only its last one or two characters and `text` are encoded per
 * call: 1,110 ids of one answer cost some 20% less (`deno task bench:ids`).
 *
 * @param prefix text that is one of few (a node type's name): kept while at most 1,000 are
 */
export function prefixedTextToBase64Url(prefix: string, text: string): string {
  const known = PREFIXES.get(prefix) ?? keepPrefix(prefix);
  return (known && asciiToBase64Url(known.rest + text, known.codes)) ??
    textToBase64Url(prefix + text);
}

/**
 * Encodes and keeps `prefix`'s whole 3-byte groups; `undefined` (nothing kept) when the prefix is
 * not ASCII or {@linkcode MAX_PREFIXES} are kept already.
 */
function keepPrefix(prefix: string): Prefix | undefined {
  if (PREFIXES.size >= MAX_PREFIXES) return undefined;
  const whole = prefix.length - prefix.length % 3;
  const head = asciiToBase64Url(prefix.slice(0, whole));
  if (head === undefined) return undefined;
  const known = { codes: Array.from(head, (c) => c.charCodeAt(0)), rest: prefix.slice(whole) };
  PREFIXES.set(prefix, known);
  return known;
}

/** A prefix of {@linkcode prefixedTextToBase64Url}: its whole groups encoded, the rest as text. */
interface Prefix {
  readonly codes: readonly number[];
  readonly rest: string;
}

const PREFIXES = new Map<string, Prefix>();
const MAX_PREFIXES = 1_000;
const NO_CODES: readonly number[] = [];

/**
 * base64url of ASCII `text`, or `undefined` when it holds another character: the output's
 * character codes gathered, then made one flat string (an id or a cursor is then one string, not a
 * chain of concatenations the JSON serialiser flattens).
 *
 * @param head character codes of base64url output to begin with (an encoded prefix of whole
 *   3-byte groups)
 */
function asciiToBase64Url(text: string, head = NO_CODES): string | undefined {
  const length = text.length;
  let n = 0;
  for (; n < head.length; n++) OUT[n] = head[n];
  let i = 0;
  for (; i + 2 < length; i += 3) {
    const a = text.charCodeAt(i), b = text.charCodeAt(i + 1), c = text.charCodeAt(i + 2);
    if ((a | b | c) > 127) return undefined;
    const bits = (a << 16) | (b << 8) | c;
    OUT[n++] = CODES[bits >> 18];
    OUT[n++] = CODES[(bits >> 12) & 63];
    OUT[n++] = CODES[(bits >> 6) & 63];
    OUT[n++] = CODES[bits & 63];
  }
  if (i < length) {
    const a = text.charCodeAt(i), b = i + 1 < length ? text.charCodeAt(i + 1) : 0;
    if ((a | b) > 127) return undefined;
    const bits = (a << 16) | (b << 8);
    OUT[n++] = CODES[bits >> 18];
    OUT[n++] = CODES[(bits >> 12) & 63];
    if (i + 1 < length) OUT[n++] = CODES[(bits >> 6) & 63];
  }
  OUT.length = n;
  if (n <= CHUNK) return String.fromCharCode.apply(null, OUT);
  let out = "";
  for (let at = 0; at < n; at += CHUNK) {
    out += String.fromCharCode.apply(null, OUT.slice(at, at + CHUNK));
  }
  return out;
}

/** base64url of a binary string (one byte per character) through `btoa`. */
function binaryToBase64Url(binary: string): string {
  const base64 = btoa(binary);
  let end = base64.length;
  while (base64.charCodeAt(end - 1) === 61 /* = */) end--;
  return base64.slice(0, end).replace(/[+/]/g, (c) => TO_URL[c]);
}

/**
 * Decodes base64url `value` into UTF-8 text.
 *
 * @returns the text, or `undefined` when `value` is not base64url or not UTF-8
 */
export function base64UrlToText(value: string): string | undefined {
  if (!BASE64URL.test(value)) return undefined;
  let binary: string;
  try {
    binary = atob(value.replace(/[-_]/g, (c) => FROM_URL[c]));
  } catch {
    return undefined;
  }
  if (!NON_ASCII.test(binary)) return binary;
  try {
    return decoder.decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
  } catch {
    return undefined;
  }
}

function bytesToBinary(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return binary;
}
