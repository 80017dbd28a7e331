/**
 * Micro benchmark of the global id and cursor codec: the codec of
 * `runtime/jsutils/base64url.ts` against `@std/encoding/base64url` through `TextEncoder`, the previous
 * implementation, on the 1,110 ids and cursors of one Q1 answer; and an id's text made whole per
 * call against its type's encoded prefix kept (`prefixedTextToBase64Url`).
 *
 * Run: `deno bench -A bench/base64url_bench.ts`.
 */
import { decodeBase64Url, encodeBase64Url } from "@std/encoding/base64url";
import {
  base64UrlToText,
  prefixedTextToBase64Url,
  textToBase64Url,
} from "../runtime/jsutils/base64url.ts";

const encoder = new TextEncoder();
const decoder = new TextDecoder("utf-8", { fatal: true });
const keys = Array.from({ length: 1110 }, (_, i) => 100_000 + i * 97);
const ids = keys.map((key) => `Comment:${key}`);
const cursors = Array.from(
  { length: 1110 },
  (_, i) => JSON.stringify([i, [`2026-01-02 03:04:05.${100_000 + i}+00`], "createdAt"]),
);
const encodedIds = ids.map(textToBase64Url);
const encodedCursors = cursors.map(textToBase64Url);

Deno.bench("@std/encoding", { group: "encode 1,110 ids", baseline: true }, () => {
  for (const id of ids) encodeBase64Url(encoder.encode(id));
});
Deno.bench("table (ASCII) or btoa", { group: "encode 1,110 ids" }, () => {
  for (const id of ids) textToBase64Url(id);
});
Deno.bench("@std/encoding", { group: "encode 1,110 cursors", baseline: true }, () => {
  for (const cursor of cursors) encodeBase64Url(encoder.encode(cursor));
});
Deno.bench("table (ASCII) or btoa", { group: "encode 1,110 cursors" }, () => {
  for (const cursor of cursors) textToBase64Url(cursor);
});
Deno.bench("@std/encoding", { group: "decode 1,110 ids", baseline: true }, () => {
  for (const id of encodedIds) decoder.decode(decodeBase64Url(id));
});
Deno.bench("swap + atob", { group: "decode 1,110 ids" }, () => {
  for (const id of encodedIds) base64UrlToText(id);
});
Deno.bench("@std/encoding", { group: "decode 1,110 cursors", baseline: true }, () => {
  for (const cursor of encodedCursors) decoder.decode(decodeBase64Url(cursor));
});
Deno.bench("swap + atob", { group: "decode 1,110 cursors" }, () => {
  for (const cursor of encodedCursors) base64UrlToText(cursor);
});
Deno.bench(
  "`<type>:<pk>` as one text",
  { group: "encode 1,110 ids by type", baseline: true },
  () => {
    for (let i = 0; i < keys.length; i++) textToBase64Url(`Comment:${String(keys[i])}`);
  },
);
Deno.bench("type prefix kept encoded", { group: "encode 1,110 ids by type" }, () => {
  for (let i = 0; i < keys.length; i++) prefixedTextToBase64Url("Comment", `:${String(keys[i])}`);
});
