/**
 * Answers as Markdown: rendered by `snarkdown` block by block (paragraphs
 * are `<p>`), then sanitized against an
 * allow-list inside an inert template (nothing loads or runs there), so raw
 * HTML from the answer never becomes
 * elements (disallowed elements are replaced by their text, `script`/`style`
 * dropped), attributes other than a safe `href` are removed, and links with
 * schemes other than http, https and mailto (e.g. `javascript:`) lose it.
 *
 * @module
 */
import snarkdown from "snarkdown";

const ALLOWED = new Set(
  "A P BR STRONG B EM I CODE PRE UL OL LI H1 H2 H3 H4 H5 H6 BLOCKQUOTE HR DEL S TABLE THEAD TBODY TR TH TD"
    .split(" "),
);

/** Whether `href` is relative or uses http, https or mailto. */
export function isSafeUrl(href: string, base: string): boolean {
  try {
    return ["http:", "https:", "mailto:"].includes(new URL(href, base).protocol);
  } catch {
    return false;
  }
}

/** A link of an answer: its URL and its text. */
export interface AnswerLink {
  url: string;
  title: string;
}

/** Sanitizes `node`'s descendants in place; adds the links left, in document order, to `links`. */
function clean(node: Element | DocumentFragment, base: string, links: AnswerLink[]): void {
  for (const child of [...node.children]) {
    if (child.tagName === "SCRIPT" || child.tagName === "STYLE") {
      child.remove();
      continue;
    }
    clean(child, base, links);
    if (!ALLOWED.has(child.tagName)) {
      child.replaceWith(...child.childNodes);
      continue;
    }
    for (const { name, value } of [...child.attributes]) {
      const keep = name === "href" && child.tagName === "A" && isSafeUrl(value, base);
      if (!keep) child.removeAttribute(name);
    }
    const url = child.getAttribute("href");
    if (url) links.push({ url, title: child.textContent || url });
  }
}

/**
 * The Markdown `text` as HTML blocks: `snarkdown` per block (blocks split at
 * blank lines outside code fences), inline-only blocks wrapped in `<p>`, as
 * `snarkdown` alone joins paragraphs with `<br>`.
 */
function blocks(text: string): string {
  const parts: string[] = [];
  let fenced = false;
  let block = "";
  for (const line of text.split("\n")) {
    if (line.startsWith("```")) fenced = !fenced;
    if (!fenced && line.trim() === "") {
      if (block) parts.push(block);
      block = "";
    } else {
      block += (block ? "\n" : "") + line;
    }
  }
  if (block) parts.push(block);
  return parts.map((part) => {
    const html = snarkdown(part);
    return /^<(h\d|ul|ol|pre|blockquote|hr|table)\b/.test(html) ? html : `<p>${html}</p>`;
  }).join("");
}

/**
 * Sanitized HTML for the Markdown `text`, relative links resolved against
 * `document`'s URL, and the safe links of that HTML, in order, with their
 * texts.
 */
export function renderMarkdown(
  text: string,
  document: Document,
): { html: string; links: AnswerLink[] } {
  const template = document.createElement("template");
  template.innerHTML = blocks(text);
  const links: AnswerLink[] = [];
  clean(template.content, document.baseURI, links);
  return { html: template.innerHTML, links };
}
