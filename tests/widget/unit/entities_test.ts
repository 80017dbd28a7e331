/**
 * `widget/entities.ts`: character references in record text decoded once,
 * as text (DocSearch's newest tests: `Q&amp;A`, `&lt;DocSearch /&gt;`).
 */
import { assertEquals } from "@std/assert";
import { decodeEntities } from "../../../widget/entities.ts";

Deno.test("named and numeric references decoded", () => {
  assertEquals(decodeEntities("Q&amp;A"), "Q&A");
  assertEquals(decodeEntities("&lt;DocSearch /&gt;"), "<DocSearch />");
  assertEquals(decodeEntities("&quot;a&quot; &apos;b&#39; &#x2F;&#47;"), `"a" 'b' //`);
  assertEquals(decodeEntities("a&nbsp;b"), "a\u00a0b");
  assertEquals(decodeEntities("&#x1F600;"), "\u{1F600}");
});

Deno.test("one pass; unknown or invalid references kept; plain text untouched", () => {
  assertEquals(decodeEntities("&amp;lt;"), "&lt;");
  assertEquals(
    decodeEntities("&copy2; &bogus; & &#xD800; &#0; &#99999999;"),
    "&copy2; &bogus; & &#xD800; &#0; &#99999999;",
  );
  assertEquals(decodeEntities("AT&T"), "AT&T");
});
