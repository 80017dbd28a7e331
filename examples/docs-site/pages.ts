/**
 * The docs site's HTML: Markdown pages rendered with `marked` (heading ids
 * equal to the records' anchors) inside a layout whose header holds the
 * search box, loaded from the bundle (`/dist/searchbox.js`), a theme switch
 * (light, dark: `html[data-theme]`, which the search box follows), the
 * navigation, and an empty `<aside id="sidepanel">` where a side panel
 * (issue 38's Sidepanel of `widget/`) mounts once it exists.
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

/**
 * Renders Markdown to HTML, with raw HTML escaped (comments dropped) and headings given the
 * records' anchors; `link` maps each link's href (a page's relative links to site URLs).
 */
export function renderMarkdown(markdown: string, link?: (href: string) => string): string {
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
      html: (token: Tokens.HTML | Tokens.Tag) =>
        /^<!--[\s\S]*-->\s*$/.test(token.text) ? "" : escapeHtml(token.text),
    },
    walkTokens: link
      ? (token) => {
        if (token.type === "link") token.href = link(token.href);
      }
      : undefined,
  });
  return marked.parse(markdown, { async: false });
}

/**
 * The bootstrap script: the search box with the site's indices, its search
 * client pointed at this server through `transformSearchClient` and a
 * `liteClient` with `hosts`, and on the project's pages the Sidepanel (Ask AI
 * beside the page, answering from the same index) in `<aside id="sidepanel">`. With `?manual` in the URL the page only exposes
 * `searchBox`, `liteClient` and `docsSearchOptions` on `window` (for tests).
 */
export const bootstrap = (indices: string[]) =>
  `import searchBox, { html, liteClient } from "/dist/searchbox.js";
const hosts = [{ url: location.hostname, port: Number(location.port), protocol: location.protocol.slice(0, -1), accept: "read" }];
const docsSearchOptions = {
  container: "#search",
  appId: "mikrogql",
  apiKey: "search-only-key",
  indices: ${JSON.stringify(indices)},
  transformSearchClient: () => liteClient("mikrogql", "search-only-key", { hosts }),
  askAi: { assistantId: "mikrogql-docs-assistant", baseUrl: location.origin, suggestedQuestions: true },
};
Object.assign(window, { searchBox, html, liteClient, docsSearchOptions });
if (!new URLSearchParams(location.search).has("manual")) {
  searchBox(docsSearchOptions);
  // The Sidepanel beside the modal (hybrid: the modal's Ask AI opens in it), on the site's pages.
  if (document.getElementById("sidepanel")) {
    import("/dist/sidepanel.js").then(({ sidePanel }) =>
      sidePanel({ ...docsSearchOptions, container: "#sidepanel", variant: "floating" })
    );
  }
}`;

/**
 * The theme switch: the reader's choice (kept in `localStorage`), else the operating system's
 * preference, as `html[data-theme]`; run in the head so the first paint has the theme.
 */
const THEME = `const stored = localStorage.getItem("mikrogql-docs-theme");
document.documentElement.dataset.theme = stored ??
  (matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light");
addEventListener("DOMContentLoaded", () => {
  const button = document.getElementById("theme");
  const show = () => button.setAttribute("aria-pressed", String(document.documentElement.dataset.theme === "dark"));
  show();
  button.addEventListener("click", () => {
    const next = document.documentElement.dataset.theme === "dark" ? "light" : "dark";
    document.documentElement.dataset.theme = next;
    localStorage.setItem("mikrogql-docs-theme", next);
    show();
  });
});`;

const STYLE =
  `:root{color-scheme:light;--bg:#fff;--fg:#1c1e21;--muted:#5c6370;--line:#dde1e6;--code:#f3f4f6;--link:#3451b2}
html[data-theme=dark]{color-scheme:dark;--bg:#15171c;--fg:#e3e6eb;--muted:#9aa1ad;--line:#2d323b;--code:#22262e;--link:#8fa8ff}
body{font-family:system-ui,sans-serif;margin:0;line-height:1.55;background:var(--bg);color:var(--fg)}
main a{color:var(--link)}header{display:flex;align-items:center;gap:1em;padding:.5em 1em;border-bottom:1px solid var(--line)}
header>a{font-weight:700;color:inherit;text-decoration:none}header #search{flex:1}
#theme{background:none;border:1px solid var(--line);border-radius:6px;color:inherit;padding:.3em .6em;cursor:pointer}
.site{display:flex;gap:2em;padding:1em}nav{flex:0 0 14em}nav ul{list-style:none;padding:0;margin:0}nav li{margin:.25em 0}
nav a{color:var(--muted);text-decoration:none}nav a[aria-current=page]{color:var(--fg);font-weight:600}
main{max-width:50em;min-width:0;flex:1}pre,code{background:var(--code);border-radius:4px}pre{padding:.8em;overflow:auto}
code{padding:.1em .3em}pre code{padding:0}table{border-collapse:collapse}td,th{border:1px solid var(--line);padding:.3em .5em}
`;

/** The tests' fixture page's style: what the search box tests measured against. */
const FIXTURE_STYLE =
  `body{font-family:system-ui,sans-serif;margin:0;line-height:1.5}header{display:flex;align-items:center;gap:1em;padding:.5em 1em;border-bottom:1px solid #ddd}header a{font-weight:700;color:inherit;text-decoration:none}.site{display:flex;gap:2em;padding:1em}nav ul{list-style:none;padding:0}main{max-width:48em}`;

/** How {@linkcode layout} builds a page. */
export interface LayoutOptions {
  /** The indices the search box searches, in priority order. */
  indices?: string[];
  /** The URL of the page shown (marked `aria-current` in the navigation). */
  current?: string;
  /**
   * The documentation site's page (`deno task docs`): its style, the theme switch and the side
   * panel's mount point; without it, the tests' fixture page as the search box tests know it.
   */
  site?: boolean;
}

/**
 * A full HTML document: header with the search box (and, for the site, the theme switch),
 * navigation, the page's body (and the side panel's mount point).
 */
export function layout(
  title: string,
  body: string,
  pages: Page[],
  { indices = ["mikrogql-docs", "mikrogql-readme"], current, site = false }: LayoutOptions = {},
): string {
  const nav = pages.map((p) =>
    `<li><a href="${p.url}"${p.url === current ? ' aria-current="page"' : ""}>${
      escapeHtml(p.title)
    }</a></li>`
  ).join("");
  const head = site
    ? `<style>${STYLE}</style>\n<script>${THEME}</script>`
    : `<style>${FIXTURE_STYLE}</style>`;
  const themeSwitch = site
    ? '<button id="theme" type="button" aria-label="Dark theme" aria-pressed="false">◐</button>'
    : "";
  const sidepanel = site ? '<aside id="sidepanel" aria-label="Side panel"></aside>' : "";
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · mikrogql</title>
<link rel="stylesheet" href="/dist/style.css">
${head}
</head>
<body>
<header><a href="/">mikrogql docs</a><div id="search"></div>${themeSwitch}</header>
<div class="site"><nav aria-label="Pages"><ul>${nav}</ul></nav><main>${body}</main>${sidepanel}</div>
<script type="module">${bootstrap(indices)}</script>
</body>
</html>`;
}
