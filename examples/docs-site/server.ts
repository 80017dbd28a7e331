/**
 * The docs site: Markdown docs as HTML pages, the search box bundle, the
 * search API over DocSearch records of those docs, the suggested questions of
 * the site's assistant, and the Ask AI stand-in answering from
 * `mikrogql-docs`. Two contents: `"project"` (`deno task docs`) serves the
 * repository's own documentation, README.md as the home page, `docs/*.md` and
 * ARCHITECTURE.md, all in the index `mikrogql-docs`; `"fixture"` (the search
 * box tests) serves this example's `docs/` (index `mikrogql-docs`) and the
 * README (index `mikrogql-readme`).
 *
 * @module
 */
import { walk } from "@std/fs/walk";
import { basename, dirname, fromFileUrl, join, relative } from "@std/path";
import { layout, type Page, renderMarkdown } from "./pages.ts";
import { type DocSearchRecord, markdownToRecords } from "./records.ts";
import { type AskAiFaults, type AskAiRequestLog, createAskAiApi } from "./ask_ai_api.ts";
import { createRecordIndex, createSearchApi, type SearchApiFaults } from "./search_api.ts";

/** The assistant of the site, and the suggested questions published for it. */
export const ASSISTANT_ID = "mikrogql-docs-assistant";

/** Records of the suggested-questions index: three published for the site's assistant, others not. */
export const SUGGESTED_QUESTIONS = [
  ["sq-1", "How do I add the search box to a page?", "published", ASSISTANT_ID],
  ["sq-2", "How do I change the keyboard shortcuts?", "published", ASSISTANT_ID],
  ["sq-3", "How does pagination work in the generator?", "published", ASSISTANT_ID],
  ["sq-4", "Which draft question is hidden?", "draft", ASSISTANT_ID],
  ["sq-5", "A question of another assistant?", "published", "another-assistant"],
].map(([objectID, question, state, assistantId]) => ({ objectID, question, state, assistantId }));

const HERE = dirname(fromFileUrl(import.meta.url));
const ROOT = join(HERE, "..", "..");

/** What the docs site serves. */
export interface DocsSiteOptions {
  /** What the site serves: the repository's documentation, or the tests' fixture (default). */
  content?: "project" | "fixture";
  hostname?: string;
  /** 0 picks a free port. */
  port?: number;
  /** Directory holding `searchbox.js` (and its chunks) and `style.css`. */
  distDir: string;
  /** Faults of the search API, mutable while serving. */
  faults?: SearchApiFaults;
  /** Records added to the `mikrogql-docs` index (for tests of hostile content). */
  extraRecords?: DocSearchRecord[];
  /** Faults of the Ask AI stand-in, mutable while serving. */
  askAiFaults?: AskAiFaults;
  /** Receives every Ask AI request. */
  askAiLog?: AskAiRequestLog[];
}

/** A running docs site. */
export interface DocsSite {
  url: string;
  pages: Page[];
  records: Record<string, DocSearchRecord[]>;
  close(): Promise<void>;
}

const titleCase = (name: string) => name[0].toUpperCase() + name.slice(1);

/** A page of the site, with the section (`lvl0`) and the index its records go to. */
export type SitePage = Page & { lvl0: string; index: string };

/**
 * The pages of the repository's documentation, in the order of README's table of the docs: the
 * README as the home page (`/`), each `docs/*.md` as `/docs/<name>.html`, ARCHITECTURE.md as
 * `/architecture.html`; one index, `mikrogql-docs`.
 */
export async function loadProjectPages(): Promise<SitePage[]> {
  const read = (path: string) => Deno.readTextFile(join(ROOT, path));
  const readme = await read("README.md");
  const order = [...readme.matchAll(/\]\(docs\/([\w-]+)\.md\)/g)].map((m) => m[1]);
  const names: string[] = [];
  for await (const entry of walk(join(ROOT, "docs"), { exts: [".md"], includeDirs: false })) {
    names.push(relative(join(ROOT, "docs"), entry.path).replace(/\.md$/, ""));
  }
  const rank = (name: string) => order.includes(name) ? order.indexOf(name) : order.length;
  names.sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
  const page = (url: string, markdown: string, lvl0: string, title?: string) => ({
    url,
    title: title ?? markdown.match(/^# (.+)$/m)?.[1] ?? url,
    markdown,
    lvl0,
    index: "mikrogql-docs",
  });
  return [
    page("/", readme, "Overview", "Overview"),
    ...await Promise.all(
      names.map(async (name) =>
        page(`/docs/${name}.html`, await read(`docs/${name}.md`), "Documentation")
      ),
    ),
    page("/architecture.html", await read("ARCHITECTURE.md"), "Architecture"),
  ];
}

/** The pages of the tests' fixture: `docs/**\/*.md` of this example (lvl0 from their folder) and the README. */
export async function loadPages(): Promise<SitePage[]> {
  const pages = [];
  const docs = join(HERE, "docs");
  for await (const entry of walk(docs, { exts: [".md"], includeDirs: false })) {
    const path = relative(docs, entry.path).replaceAll("\\", "/");
    const markdown = await Deno.readTextFile(entry.path);
    pages.push({
      url: `/docs/${path.replace(/\.md$/, ".html")}`,
      title: markdown.match(/^# (.+)$/m)?.[1] ?? basename(path),
      markdown,
      lvl0: titleCase(path.split("/")[0]),
      index: "mikrogql-docs",
    });
  }
  pages.sort((a, b) => a.url.localeCompare(b.url));
  const readme = await Deno.readTextFile(join(ROOT, "README.md"));
  pages.push({
    url: "/readme.html",
    title: "README",
    markdown: readme,
    lvl0: "README",
    index: "mikrogql-readme",
  });
  return pages;
}

const CONTENT_TYPES: Record<string, string> = {
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
};

/** Starts the docs site; resolves once it listens. */
export async function serveDocsSite(
  options: DocsSiteOptions,
): Promise<DocsSite> {
  const project = options.content === "project";
  const pages = project ? await loadProjectPages() : await loadPages();
  const indexNames = [...new Set(pages.map((p) => p.index))];
  const records: Record<string, DocSearchRecord[]> = {};
  for (const page of pages) {
    (records[page.index] ??= []).push(
      ...markdownToRecords(page.markdown, page),
    );
  }
  records["mikrogql-docs"].push(...(options.extraRecords ?? []));
  // a page's relative links to other pages (`limits.md#maxcost`, `../README.md`) as site URLs
  const siteUrl = (from: Page, href: string): string => {
    if (/^[a-z]+:|^#/i.test(href)) return href;
    const [path, anchor] = href.split("#");
    const file = join(dirname(from.url === "/" ? "/README.md" : from.url), path);
    const target = pages.find((p) =>
      (p.url === "/" ? "/README.md" : p.url.replace(/\.html$/, ".md")) === file ||
      (file === "/ARCHITECTURE.md" && p.url === "/architecture.html")
    );
    return target ? `${target.url}${anchor ? `#${anchor}` : ""}` : href;
  };
  const render = (page: Page) =>
    renderMarkdown(page.markdown, project ? (href) => siteUrl(page, href) : undefined);
  const indices = Object.fromEntries(
    Object.entries(records).map((
      [name, list],
    ) => [name, createRecordIndex(list)]),
  );
  indices.algolia_ask_ai_suggested_questions = createRecordIndex(
    SUGGESTED_QUESTIONS as unknown as DocSearchRecord[],
  );
  const searchApi = createSearchApi(indices, options.faults);
  const askAiApi = createAskAiApi(indices["mikrogql-docs"], {
    faults: options.askAiFaults,
    log: options.askAiLog,
  });
  const html = (body: string, status = 200) =>
    new Response(body, {
      status,
      headers: { "content-type": "text/html; charset=utf-8" },
    });

  const server = Deno.serve({
    hostname: options.hostname ?? "127.0.0.1",
    port: options.port ?? 0,
    onListen: () => {},
  }, async (request) => {
    const api = await searchApi(request) ?? await askAiApi(request);
    if (api) return api;
    const { pathname } = new URL(request.url);
    if (pathname.startsWith("/dist/")) {
      const name = pathname.slice("/dist/".length);
      if (!/^[\w.-]+$/.test(name)) {
        return new Response("Not found", { status: 404 });
      }
      try {
        const body = await Deno.readFile(join(options.distDir, name));
        const type = CONTENT_TYPES[name.slice(name.lastIndexOf("."))] ??
          "application/octet-stream";
        return new Response(body, { headers: { "content-type": type } });
      } catch {
        return new Response("Not found", { status: 404 });
      }
    }
    const page = pages.find((p) => p.url === pathname);
    const look = { indices: indexNames, site: project };
    if (page) {
      return html(
        layout(page.title, render(page), pages, {
          ...look,
          current: project ? page.url : undefined,
        }),
      );
    }
    if (pathname === "/") {
      return html(
        layout(
          "Documentation",
          "<h1>mikrogql documentation</h1><p>Search the docs with the button above, <kbd>Ctrl</kbd> <kbd>K</kbd> or <kbd>/</kbd>.</p>",
          pages,
          look,
        ),
      );
    }
    return html(layout("Not found", "<h1>Not found</h1>", pages, look), 404);
  });
  return {
    url: `http://${server.addr.hostname}:${server.addr.port}`,
    pages,
    records,
    close: () => server.shutdown(),
  };
}
