/**
 * Answers as Markdown, without a DOM: raw HTML is escaped to text in every
 * position (text, emphasis, links' texts, code), so the only elements are
 * the ones the Markdown makes. Fenced code blocks are rendered here (their
 * info string gives at most a `language-*` class of word characters, so it
 * cannot break out of the attribute); the other blocks by `snarkdown`,
 * after `&` and `<` are escaped, with paragraphs as `<p>`. Links keep a
 * relative, http, https or mailto URL and open in a new tab; other links
 * (e.g. `javascript:`) become their text, and images their alt text.
 *
 * The related sources of an answer (`answerSources`) follow DocSearch v4:
 * its Markdown links, then its bare URLs, outside code, deduplicated.
 *
 * @module
 */
import snarkdown from "snarkdown";

/** A related source of an answer: its URL and its title (the URL for a bare URL). */
export interface AnswerSource {
  url: string;
  title: string;
}

/** `text` with `&` and `<` escaped: no tag can start in it. */
const escapeText = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;");

/**
 * A block's text for `snarkdown`: escaped, and the underscores that follow a
 * character and precede a word character (`snake_case`, `window.__x`)
 * written as `&#95;`: CommonMark takes no emphasis there, `snarkdown` would.
 */
const markdownText = (text: string) =>
  escapeText(text).replace(/(?<=[^\s_])_+(?=[^\W_])/g, (run) => "&#95;".repeat(run.length));

/** An attribute value as written by `snarkdown` (`"<>` escaped) over escaped text, decoded. */
const attributeValue = (value: string) =>
  value.replace(
    /&(lt|gt|quot|amp);/g,
    (_, name: string) => ({ lt: "<", gt: ">", quot: '"', amp: "&" })[name]!,
  );

/** Whether `href` is relative or uses http, https or mailto. */
export function isSafeUrl(href: string, base: string): boolean {
  try {
    return ["http:", "https:", "mailto:"].includes(new URL(href, base).protocol);
  } catch {
    return false;
  }
}

/**
 * The blocks of `text` (split at blank lines outside code fences): fenced
 * code rendered here, the others by `snarkdown` over escaped text, an
 * inline-only block wrapped in `<p>` (`snarkdown` alone joins paragraphs
 * with `<br>`).
 */
function blocks(text: string): string {
  const parts: string[] = [];
  let fence: string[] | null = null;
  let block = "";
  const end = () => {
    if (block) parts.push(snarkdown(markdownText(block)));
    block = "";
  };
  const code = ([open, ...lines]: string[]) =>
    parts.push(`${open}${escapeText(lines.join("\n")).replace(/>/g, "&gt;")}</code></pre>`);
  for (const line of text.split("\n")) {
    if (fence) {
      if (line.trimStart().startsWith("```")) {
        code(fence);
        fence = null;
      } else fence.push(line);
    } else if (line.trimStart().startsWith("```")) {
      end();
      const language = /^[\w-]+/.exec(line.trimStart().slice(3).trim())?.[0];
      fence = [
        `<pre class="DocSearch-CodeSnippet"><code${
          language ? ` class="language-${language}"` : ""
        }>`,
      ];
    } else if (line.trim() === "") end();
    else block += (block ? "\n" : "") + line;
  }
  if (fence) code(fence);
  end();
  return parts.map((html) =>
    /^<(h\d|ul|ol|pre|blockquote|hr)\b/.test(html) ? html : `<p>${html}</p>`
  ).join("");
}

/**
 * HTML for the Markdown `text`, whose elements are only the Markdown's
 * (relative links are checked against `base`, the page's URL).
 */
export function renderMarkdown(text: string, base: string): string {
  return blocks(text)
    .replace(/<img src="[^"]*" alt="([^"]*)">/g, "$1")
    .replace(
      /<a href="([^"]*)">([\s\S]*?)<\/a>/g,
      (_, href: string, inner: string) =>
        isSafeUrl(attributeValue(href), base)
          ? `<a href="${href}" target="_blank" rel="noopener noreferrer">${inner}</a>`
          : inner,
    );
}

/**
 * The related sources of an answer's Markdown `text`, as DocSearch v4 lists
 * them: its Markdown links (`[title](url)`), then its bare http(s) URLs
 * (trailing punctuation left out), both outside code blocks and code spans,
 * then the `cited` sources (the answer's `source-url` parts), safe ones
 * only, each URL once.
 */
export function answerSources(
  text: string,
  base: string,
  cited: AnswerSource[] = [],
): AnswerSource[] {
  const prose = text.replace(/```[\s\S]*?(```|$)/g, "").replace(/`[^`\n]*`/g, "");
  const found = [
    ...[...prose.matchAll(/\[([^\]]*)\]\(([^)\s]+)\)/g)].map(([, title, url]) => ({
      url,
      title: title.trim() || url,
    })),
    ...[...prose.matchAll(/(?<!\]\()https?:\/\/[^\s<>"{}|\\^`[\]]+/g)].map(([match]) => {
      const url = match.replace(/[.,;:!?)]+$/, "");
      return { url, title: url };
    }),
    ...cited,
  ];
  return found.filter((link, i) =>
    isSafeUrl(link.url, base) && found.findIndex((l) => l.url === link.url) === i
  );
}
