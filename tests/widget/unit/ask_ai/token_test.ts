/// <reference lib="dom" />
/**
 * `widget/ask_ai/token.ts`'s `tokenExpiry`: the `exp` of a JWT's payload, in
 * milliseconds (the token source itself is tested against the docs site's
 * Ask AI stand-in in `tests/widget/ask_ai_test.ts`).
 */
import { assertEquals } from "@std/assert";
import { encodeBase64Url } from "@std/encoding/base64url";
import { tokenExpiry } from "../../../../widget/ask_ai/token.ts";

const jwt = (payload: unknown) =>
  `${encodeBase64Url('{"alg":"HS256"}')}.${encodeBase64Url(JSON.stringify(payload))}.sig`;

Deno.test("tokenExpiry: exp in ms; 0 without exp or for an unreadable token", () => {
  assertEquals(tokenExpiry(jwt({ exp: 1_700_000_000 })), 1_700_000_000_000);
  // base64url's - and _ (a payload whose encoding holds them)
  const odd = jwt({ exp: 1, pad: "??>>" });
  assertEquals(/[-_]/.test(odd.split(".")[1]), true);
  assertEquals(tokenExpiry(odd), 1000);
  assertEquals(tokenExpiry(jwt({ sub: "x" })), 0);
  for (const bad of ["", "a.b.c", "onlyone"]) assertEquals(tokenExpiry(bad), 0, bad);
});
