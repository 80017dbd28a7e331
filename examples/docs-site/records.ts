/**
 * Markdown -> DocSearch records, the way the DocSearch crawler cuts a page:
 * headings become `lvl1`-`lvl6` records (with the URL of their anchor),
 * paragraphs, list items, block quotes and table cells become `content`
 * records under the last heading.
 *
 * @module
 */
import { Lexer, type Token, type Tokens } from "marked";
import type { HitType, Level } from "../../widget/search.ts";

/** A DocSearch record (the shape the search API stores and returns). */
export interface DocSearchRecord {
  objectID: string;
  url: string;
  anchor: string | null;
  type: HitType;
  content: string | null;
  hierarchy: Record<Level, string | null>;
  /** Further attributes, for `filters`/`facetFilters`. */
  [attribute: string]: unknown;
}

/** Where a page lives and which top-level section (`lvl0`) it belongs to. */
export interface PageInfo {
  url: string;
  lvl0: string;
}

const LEVELS: Level[] = [
  "lvl0",
  "lvl1",
  "lvl2",
  "lvl3",
  "lvl4",
  "lvl5",
  "lvl6",
];

/** A heading's anchor: lower case, punctuation dropped, spaces to hyphens (GitHub style). */
export function slugify(text: string): string {
  return text.toLowerCase().trim().replace(/[^\p{L}\p{N}\s_-]/gu, "").replace(
    /\s+/g,
    "-",
  );
}

/** Gives each heading of a page a unique anchor, in document order (`a`, `a-1`, ...). */
export function createSlugger(): (text: string) => string {
  const seen = new Map<string, number>();
  return (text) => {
    const slug = slugify(text);
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    return n === 0 ? slug : `${slug}-${n}`;
  };
}

/** The text of inline Markdown tokens, without markup. */
export function plainText(tokens: Token[] | undefined): string {
  return (tokens ?? []).map((token) => {
    if ("tokens" in token && token.tokens) return plainText(token.tokens);
    if (token.type === "br") return " ";
    return "text" in token ? token.text : "";
  }).join("").replace(/\s+/g, " ").trim();
}

function blocks(token: Token): string[] {
  switch (token.type) {
    case "paragraph":
      return [plainText((token as Tokens.Paragraph).tokens)];
    case "list":
      return (token as Tokens.List).items.flatMap((item) => item.tokens.flatMap(blocks));
    case "text":
      return [plainText((token as Tokens.Text).tokens ?? [token])];
    case "blockquote":
      return (token as Tokens.Blockquote).tokens.flatMap(blocks);
    case "table":
      return (token as Tokens.Table).rows.map((row) =>
        row.map((cell) => plainText(cell.tokens)).join(" ")
      );
    default:
      return [];
  }
}

/** The records of one Markdown page. */
export function markdownToRecords(
  markdown: string,
  page: PageInfo,
): DocSearchRecord[] {
  const hierarchy = Object.fromEntries(LEVELS.map((l) => [l, null])) as Record<
    Level,
    string | null
  >;
  hierarchy.lvl0 = page.lvl0;
  const slug = createSlugger();
  const records: DocSearchRecord[] = [];
  let anchor: string | null = null;
  let level: Level = "lvl1";
  const add = (type: DocSearchRecord["type"], content: string | null) =>
    records.push({
      objectID: `${page.url}#${records.length}`,
      url: anchor && level !== "lvl1" ? `${page.url}#${anchor}` : page.url,
      anchor,
      type,
      content,
      hierarchy: { ...hierarchy },
    });
  for (const token of new Lexer().lex(markdown)) {
    if (token.type === "heading") {
      const heading = token as Tokens.Heading;
      const text = plainText(heading.tokens);
      level = LEVELS[heading.depth];
      for (let d = heading.depth; d < LEVELS.length; d++) {
        hierarchy[LEVELS[d]] = null;
      }
      hierarchy[level] = text;
      anchor = slug(text);
      add(level, null);
    } else {
      for (const text of blocks(token)) if (text) add("content", text);
    }
  }
  return records;
}
