/**
 * `widget/safe_url.ts`: `javascript:`, `data:` and `vbscript:` URLs refused in
 * any spelling the browser's URL parser accepts; every other URL kept.
 */
import { assert, assertEquals } from "@std/assert";
import { isSafeUrl, safeHref } from "../../../widget/safe_url.ts";

Deno.test("unsafe schemes refused in the spellings a browser still runs", () => {
  for (
    const url of [
      "javascript:alert(1)",
      "JaVaScRiPt:alert(1)",
      " javascript:alert(1)",
      "\u0001javascript:alert(1)",
      "java\tscript:alert(1)",
      "java\nscript:alert(1)",
      "jav\r\nascript:alert(1)",
      "data:text/html,<script>alert(1)</script>",
      "DATA:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==",
      "vbscript:msgbox(1)",
    ]
  ) {
    assert(!isSafeUrl(url), JSON.stringify(url));
    assertEquals(safeHref(url), undefined);
  }
});

Deno.test("other URLs kept as written; a non-string is unsafe", () => {
  for (
    const url of [
      "https://example.com/docs/#a",
      "http://example.com",
      "/docs/install",
      "docs/install",
      "#anchor",
      "?q=javascript:alert(1)",
      "/path/javascript:x",
      "mailto:me@example.com",
      "",
    ]
  ) {
    assert(isSafeUrl(url), JSON.stringify(url));
    assertEquals(safeHref(url), url);
  }
  assert(!isSafeUrl(undefined));
  assert(!isSafeUrl(42));
});

Deno.test("the browser's own parser agrees: every URL refused has an unsafe protocol", () => {
  // seeded generator of scheme spellings (mixed case, leading controls, inner tabs/newlines)
  const seed = Number(Deno.env.get("SAFE_URL_SEED") ?? 38);
  console.log(`seed ${seed}`);
  let state = seed;
  const next = (n: number) => (state = (state * 1103515245 + 12345) % 2 ** 31) % n;
  for (let i = 0; i < 500; i++) {
    const scheme = ["javascript", "data", "vbscript", "https", "mailto", "ftp"][next(6)];
    let url = "";
    for (let k = next(3); k > 0; k--) url += ["\u0000", " ", "\u001f", "\t"][next(4)];
    for (const c of scheme) {
      url += next(2) ? c.toUpperCase() : c;
      if (next(8) === 0) url += ["\t", "\n", "\r"][next(3)];
    }
    url += ":x";
    const protocol = new URL(url, "https://docs.example/").protocol;
    assertEquals(
      isSafeUrl(url),
      !["javascript:", "data:", "vbscript:"].includes(protocol),
      JSON.stringify(url),
    );
  }
});
