/**
 * HTML character references in record text (`Q&amp;A`, `&lt;DocSearch /&gt;`,
 * `&#39;`, `&#x2F;`) decoded to the characters they stand for, as DocSearch's
 * newest tests expect. The result is always used as text, never as markup: a
 * decoded `<script>` shows as those characters.
 *
 * @module
 */

/** The named references crawlers write into records. */
const NAMED: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: "\u00a0",
};

/**
 * `text` with its named (`&amp;`, `&lt;`, `&gt;`, `&quot;`, `&apos;`,
 * `&nbsp;`) and numeric (`&#60;`, `&#x3C;`) references decoded; an unknown
 * name or an invalid code point is left as written. One pass: `&amp;lt;`
 * becomes `&lt;`, not `<`.
 *
 * @example
 * ```ts
 * import { decodeEntities } from "./entities.ts";
 * decodeEntities("&lt;DocSearch /&gt; Q&amp;A"); // "<DocSearch /> Q&A"
 * ```
 */
export function decodeEntities(text: string): string {
  if (!text.includes("&")) return text;
  return text.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (whole, ref: string) => {
    if (ref[0] !== "#") return NAMED[ref.toLowerCase()] ?? whole;
    const code = ref[1] === "x" || ref[1] === "X"
      ? parseInt(ref.slice(2), 16)
      : parseInt(ref.slice(1), 10);
    return code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff)
      ? String.fromCodePoint(code)
      : whole;
  });
}
