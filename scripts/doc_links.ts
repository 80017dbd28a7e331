/**
 * `deno task check`'s link lint of the documentation (README.md, ARCHITECTURE.md, docs/**.md):
 * every relative link names a file of the repository and, with `#anchor`, a heading of that page
 * (GitHub's anchors, which the docs site renders too: `createSlugger` of the docs site), and every
 * backticked repository path (`runtime/read/lean_records.ts`, `tests/graphql/`, `deno.json`)
 * exists. A backticked path is one whose first segment is a top-level entry of the repository;
 * in ARCHITECTURE.md, which names runtime files by their folder (`read/find_rows.ts`), a path
 * whose first segment is a folder of `runtime/` is read from there. Placeholders (`<name>`, `*`,
 * `{a,b}`) are not paths, nor are paths under an entry of `.gitignore` (`dist/`: built). Links to other sites are not fetched. Prints each problem as
 * `page:line: message` and exits 1 when there is one.
 *
 * Run: `deno run --allow-read scripts/doc_links.ts` (`deno task doc:links`)
 *
 * @module
 */
import { Lexer, type Token, type Tokens } from "marked";
import { walk } from "@std/fs/walk";
import { dirname, fromFileUrl, join, normalize, relative } from "@std/path";
import { createSlugger, plainText } from "../examples/docs-site/records.ts";

const ROOT = fromFileUrl(new URL("..", import.meta.url));

/** One problem: the page (relative to the root), its line, what is wrong. */
export interface LinkProblem {
  page: string;
  line: number;
  message: string;
}

/** The pages the lint reads, relative to `root`: README.md, ARCHITECTURE.md, docs/**.md. */
export async function documentationPages(root = ROOT): Promise<string[]> {
  const pages = ["README.md", "ARCHITECTURE.md"];
  for await (const entry of walk(join(root, "docs"), { exts: [".md"], includeDirs: false })) {
    pages.push(relative(root, entry.path));
  }
  return pages.sort();
}

/** The anchors of a page's headings, as GitHub and the docs site give them. */
export function headingAnchors(markdown: string): Set<string> {
  const slug = createSlugger();
  const anchors = new Set<string>();
  for (const token of new Lexer().lex(markdown)) {
    if (token.type === "heading") anchors.add(slug(plainText((token as Tokens.Heading).tokens)));
  }
  return anchors;
}

/** Each inline token of a page (links, code spans, ...) with the line it starts on. */
function* inlineTokens(markdown: string): Generator<{ token: Token; line: number }> {
  let line = 1;
  const visit = function* (
    tokens: Token[],
    start: number,
  ): Generator<{ token: Token; line: number }> {
    let at = start;
    for (const token of tokens) {
      yield { token, line: at };
      const children = "tokens" in token ? token.tokens : undefined;
      if (children) yield* visit(children, at);
      if (token.type === "list") {
        let itemLine = at;
        for (const item of (token as Tokens.List).items) {
          yield* visit(item.tokens, itemLine);
          itemLine += item.raw.split("\n").length - 1;
        }
      }
      if (token.type === "table") {
        const table = token as Tokens.Table;
        for (const cell of table.header) yield* visit(cell.tokens, at);
        // the header, the delimiter row, then one line per row
        for (const [i, row] of table.rows.entries()) {
          for (const cell of row) yield* visit(cell.tokens, at + 2 + i);
        }
      }
      at += (token.raw.match(/\n/g) ?? []).length;
    }
  };
  for (const token of new Lexer().lex(markdown)) {
    if (token.type !== "code") yield* visit([token], line);
    line += (token.raw.match(/\n/g) ?? []).length;
  }
}

/** The top-level entries of the repository (`runtime`, `deno.json`, `.ci`, ...). */
async function topLevel(root: string): Promise<Set<string>> {
  const names = new Set<string>();
  for await (const entry of Deno.readDir(root)) names.add(entry.name);
  return names;
}

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.stat(path);
    return true;
  } catch {
    return false;
  }
}

/** The plain entries of `.gitignore` (`dist/`, `bench/.peers/`): paths made by builds and runs. */
async function ignored(root: string): Promise<string[]> {
  const text = await Deno.readTextFile(join(root, ".gitignore")).catch(() => "");
  return text.split("\n").map((l) => l.trim()).filter((l) => l && !/[*#!]/.test(l));
}

/** Whether a code span's text is a repository path to check (see the module's doc). */
function pathOf(
  text: string,
  top: Set<string>,
  runtimeFolders: Set<string>,
  page: string,
  skip: string[],
) {
  if (/[<>*{}\s$]|^-|:\/\//.test(text) || text.startsWith("/")) return undefined;
  const clean = text.replace(/[.,;:]$/, "");
  const first = clean.split("/")[0];
  if (skip.some((entry) => `${clean}/`.startsWith(entry.replace(/\/?$/, "/")))) return undefined;
  if (top.has(first) && (clean.includes("/") || /\.\w+$/.test(clean))) return clean;
  if (page === "ARCHITECTURE.md" && runtimeFolders.has(first) && clean.includes("/")) {
    return `runtime/${clean}`;
  }
  return undefined;
}

/** The problems of every page, in page and line order. */
export async function linkProblems(root = ROOT): Promise<LinkProblem[]> {
  const problems: LinkProblem[] = [];
  const top = await topLevel(root);
  const skip = await ignored(root);
  const runtimeFolders = new Set<string>();
  for await (const entry of Deno.readDir(join(root, "runtime"))) {
    if (entry.isDirectory) runtimeFolders.add(entry.name);
  }
  const anchorsOf = new Map<string, Set<string>>();
  const anchors = async (path: string) => {
    if (!anchorsOf.has(path)) anchorsOf.set(path, headingAnchors(await Deno.readTextFile(path)));
    return anchorsOf.get(path)!;
  };
  for (const page of await documentationPages(root)) {
    const markdown = await Deno.readTextFile(join(root, page));
    for (const { token, line } of inlineTokens(markdown)) {
      if (token.type === "link") {
        const href = (token as Tokens.Link).href;
        if (/^[a-z]+:/i.test(href)) continue; // another site, mailto:
        const [path, anchor] = href.split("#");
        const target = path ? normalize(join(root, dirname(page), path)) : join(root, page);
        if (!target.startsWith(normalize(root)) || !(await exists(target))) {
          problems.push({ page, line, message: `link to a missing file: ${href}` });
        } else if (anchor && target.endsWith(".md") && !(await anchors(target)).has(anchor)) {
          problems.push({ page, line, message: `link to a missing heading: ${href}` });
        }
      } else if (token.type === "codespan") {
        const text = (token as Tokens.Codespan).text;
        const path = pathOf(text, top, runtimeFolders, page, skip);
        if (path && !(await exists(join(root, path)))) {
          problems.push({ page, line, message: `no such path in the repository: ${text}` });
        }
      }
    }
  }
  return problems;
}

if (import.meta.main) {
  const problems = await linkProblems();
  for (const p of problems) console.log(`${p.page}:${p.line}: ${p.message}`);
  if (problems.length) {
    console.log(`${problems.length} problem(s) in the documentation's links and paths`);
    Deno.exit(1);
  }
}
