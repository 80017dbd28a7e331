/**
 * The btoa/atob base64url codec of global ids and cursors keeps the format of RFC 4648 §5
 * base64url of the UTF-8 bytes, without padding (as `@std/encoding` produced before); a global
 * id's prefix kept encoded gives the same text on generated pairs (`BASE64URL_SEED=<n>` replays).
 */
import { assertEquals } from "@std/assert";
import { decodeBase64Url, encodeBase64Url } from "@std/encoding/base64url";
import {
  base64UrlToText,
  prefixedTextToBase64Url,
  textToBase64Url,
} from "../../../runtime/jsutils/base64url.ts";
import { random } from "../../support/random_data.ts";
import { testSeed } from "../../support/test_seed.ts";

const texts = [
  "",
  "U",
  "Us",
  "Use",
  "User:1",
  "Comment:199999",
  JSON.stringify([42, ["2026-01-02 03:04:05.123456+00"], "createdAt"]),
  "Tag:é",
  "Tag:日本語 🚀",
  "\u00ff\u0080?>~", // bytes that give '+' and '/' in plain base64
  "????>>>>",
  // Long ASCII texts: their output is made in chunks of 8,192 characters, around the edges.
  "x".repeat(6_144),
  "x".repeat(6_145),
  "ab".repeat(20_000) + "c",
];

Deno.test("textToBase64Url is base64url of the UTF-8 bytes without padding", () => {
  const encoder = new TextEncoder();
  for (const text of texts) {
    assertEquals(textToBase64Url(text), encodeBase64Url(encoder.encode(text)), text);
  }
  assertEquals(textToBase64Url("????>>>>"), "Pz8_Pz4-Pj4");
});

Deno.test("base64UrlToText reverses textToBase64Url and the former std encoding", () => {
  const decoder = new TextDecoder();
  for (const text of texts) {
    assertEquals(base64UrlToText(textToBase64Url(text)), text, text);
    const std = encodeBase64Url(new TextEncoder().encode(text));
    assertEquals(base64UrlToText(std), decoder.decode(decodeBase64Url(std)), text);
  }
});

Deno.test("base64UrlToText rejects what is not base64url of UTF-8", () => {
  for (
    const bad of [
      "Pz8/Pz4+Pj4", // plain base64 alphabet
      "Pz8_Pz4-Pj4=", // padding
      "a b",
      "A", // a length that no byte string has
      "_w", // byte 0xff: not UTF-8
      "wA", // byte 0xc0: not UTF-8
    ]
  ) {
    assertEquals(base64UrlToText(bad), undefined, bad);
  }
});

Deno.test("textToBase64Url and base64UrlToText agree with @std/encoding on 2,000 random texts", () => {
  // A fixed linear congruential sequence: the same texts on every run.
  let seed = 77;
  const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  // ASCII (the fast path), two- and three-byte UTF-8, and astral characters (surrogate pairs).
  const ranges = [[0x20, 0x7f], [0x00, 0x20], [0x80, 0x800], [0x800, 0xd800], [0x10000, 0x10ffff]];
  const encoder = new TextEncoder();
  for (let i = 0; i < 2_000; i++) {
    const ascii = rand() < 0.5;
    const text = String.fromCodePoint(
      ...Array.from({ length: Math.floor(rand() * 40) }, () => {
        const [low, high] = ascii ? ranges[0] : ranges[Math.floor(rand() * ranges.length)];
        return low + Math.floor(rand() * (high - low));
      }),
    );
    const std = encodeBase64Url(encoder.encode(text));
    assertEquals(textToBase64Url(text), std, JSON.stringify(text));
    assertEquals(base64UrlToText(std), text, JSON.stringify(text));
  }
});

const PREFIX_SEED = testSeed("BASE64URL_SEED", 20_261_130);

Deno.test(`prefixedTextToBase64Url(prefix, text) is base64url of prefix + text on generated pairs (seed ${PREFIX_SEED})`, () => {
  const rand = random(PREFIX_SEED);
  const encoder = new TextEncoder();
  const char = (ascii: boolean) =>
    String.fromCodePoint(
      ascii ? 0x20 + Math.floor(rand() * 0x5f) : [0xe9, 0x4e2d, 0x1f600][Math.floor(rand() * 3)],
    );
  const word = (length: number, ascii: number) =>
    Array.from({ length }, () => char(rand() < ascii)).join("");
  // A few prefixes met again and again (node types: the kept path), 1,500 met once each (past
  // the 1,000 kept), some not ASCII; texts mostly ASCII, some not.
  const types = Array.from({ length: 8 }, () => word(Math.floor(rand() * 12), 0.9));
  for (let i = 0; i < 3_000; i++) {
    const prefix = i % 2 === 0
      ? types[Math.floor(rand() * types.length)]
      : `${word(Math.floor(rand() * 9), 0.95)}#${i}`;
    const text = word(Math.floor(rand() * 14), 0.9);
    assertEquals(
      prefixedTextToBase64Url(prefix, text),
      encodeBase64Url(encoder.encode(prefix + text)),
      JSON.stringify([prefix, text]),
    );
  }
});
