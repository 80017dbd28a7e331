/**
 * The docs site's HTML: Markdown pages rendered with `marked` (heading ids
 * equal to the records' anchors) inside a layout whose header holds the
 * search box, loaded from the bundle (`/dist/searchbox.js`).
 *
 * @module
 */
import { Marked, type Tokens } from "marked";
import { createSlugger, plainText } from "./records.ts";

/** A page of the site. */
export interface Page {
  url: string;
  title: string;
  markdown: string;
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** Renders Markdown to HTML, with raw HTML escaped and headings given the records' anchors. */
export function renderMarkdown(markdown: string): string {
  const slug = createSlugger();
  const marked = new Marked({
    renderer: {
      heading(
        this: { parser: { parseInline(t: Tokens.Generic[]): string } },
        token: Tokens.Heading,
      ) {
        const id = slug(plainText(token.tokens));
        return `<h${token.depth} id="${id}">${
          this.parser.parseInline(token.tokens)
        }</h${token.depth}>\n`;
      },
      html: (token: Tokens.HTML | Tokens.Tag) => escapeHtml(token.text),
    },
  });
  return marked.parse(markdown, { async: false });
}

/**
 * The bootstrap script: the search box with the site's indices, its search
 * client pointed at this server through `transformSearchClient` and a
 * `liteClient` with `hosts`. With `?manual` in the URL the page only exposes
 * `searchBox`, `liteClient` and `docsSearchOptions` on `window` (for tests).
 */
export const BOOTSTRAP = `import searchBox, { html, liteClient } from "/dist/searchbox.js";
const hosts = [{ url: location.hostname, port: Number(location.port), protocol: location.protocol.slice(0, -1), accept: "read" }];
const docsSearchOptions = {
  container: "#search",
  appId: "mikrogql",
  apiKey: "search-only-key",
  indices: ["mikrogql-docs", "mikrogql-readme"],
  transformSearchClient: () => liteClient("mikrogql", "search-only-key", { hosts }),
  askAi: { assistantId: "mikrogql-docs-assistant", baseUrl: location.origin, suggestedQuestions: true },
};
Object.assign(window, { searchBox, html, liteClient, docsSearchOptions });
if (!new URLSearchParams(location.search).has("manual")) searchBox(docsSearchOptions);`;

/** A full HTML document: header with the search box, navigation, the page's body. */
export function layout(title: string, body: string, pages: Page[]): string {
  const nav = pages.map((p) => `<li><a href="${p.url}">${escapeHtml(p.title)}</a></li>`).join("");
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · mikrogql</title>
<link rel="stylesheet" href="/dist/style.css">
<style>body{font-family:system-ui,sans-serif;margin:0;line-height:1.5}header{display:flex;align-items:center;gap:1em;padding:.5em 1em;border-bottom:1px solid #ddd}header a{font-weight:700;color:inherit;text-decoration:none}.site{display:flex;gap:2em;padding:1em}nav ul{list-style:none;padding:0}main{max-width:48em}</style>
</head>
<body>
<header><a href="/">mikrogql docs</a><div id="search"></div></header>
<div class="site"><nav aria-label="Pages"><ul>${nav}</ul></nav><main>${body}</main></div>
<script type="module">${BOOTSTRAP}</script>
</body>
</html>`;
}
