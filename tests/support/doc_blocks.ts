/**
 * The documentation's fenced code blocks as tests read them: the pages (README.md and
 * docs/*.md), and each page's blocks with their language, `title="path"`, first line and the
 * options of a `<!-- check: key=value, ... -->` comment right before the block.
 */
import { walk } from "@std/fs/walk";
import { fromFileUrl, join, relative, toFileUrl } from "@std/path";

const ROOT = fromFileUrl(new URL("../../", import.meta.url));

/** One fenced block of a page. */
export interface DocBlock {
  /** The info string's language (`ts`, `sh`, `json`, ...). */
  lang: string;
  /** The `title="..."` of the info string (a file of README's getting started). */
  title?: string;
  /** The line of the opening fence, 1-based. */
  line: number;
  /** The options of the `<!-- check: ... -->` comment before the block. */
  options: Record<string, string>;
  /** The block's text. */
  text: string;
}

/** README.md and every docs/**.md page, relative to `root`, sorted. */
export async function docPages(root: string): Promise<string[]> {
  const pages = ["README.md"];
  for await (const entry of walk(join(root, "docs"), { exts: [".md"], includeDirs: false })) {
    pages.push(relative(root, entry.path));
  }
  return pages.sort();
}

/** The fenced blocks of a Markdown page, in order. */
export function docBlocks(markdown: string): DocBlock[] {
  const blocks: DocBlock[] = [];
  const fence = /^```(\w+)?(?: title="([^"]+)")?[^\n]*\n([\s\S]*?)^```$/gm;
  for (const m of markdown.matchAll(fence)) {
    const before = markdown.slice(0, m.index).trimEnd();
    const comment = /<!-- check: ([^>]*) -->$/.exec(before)?.[1];
    const options = Object.fromEntries(
      (comment ?? "").split(",").map((part) => part.trim().split("=")).filter((kv) => kv[1]),
    );
    blocks.push({
      lang: m[1] ?? "",
      title: m[2],
      line: markdown.slice(0, m.index).split("\n").length,
      options,
      text: m[3],
    });
  }
  return blocks;
}

/**
 * Writes `block` as a module of its own project in `dir`, as a user would paste it: the project's
 * `generated/mod.ts`, `entities.ts` and `entities/*.ts` re-export an example's (`options.example`,
 * default the blog); the block goes to `options.at` (default `block.ts`). A block that uses `orm`
 * without declaring it gets `declare const orm: MikroORM` before it: nothing else is added.
 *
 * @returns the path of the block's module
 */
export async function writeBlockProject(dir: string, block: DocBlock): Promise<string> {
  const exampleDir = join(ROOT, "examples", block.options.example ?? "blog");
  const reexport = (path: string) => `export * from "${toFileUrl(join(exampleDir, path))}";\n`;
  await Deno.mkdir(join(dir, "generated"), { recursive: true });
  await Deno.mkdir(join(dir, "entities"), { recursive: true });
  await Deno.writeTextFile(join(dir, "generated/mod.ts"), reexport("generated/mod.ts"));
  await Deno.writeTextFile(join(dir, "entities.ts"), reexport("entities.ts"));
  for await (const entry of Deno.readDir(join(exampleDir, "entities"))) {
    await Deno.writeTextFile(join(dir, "entities", entry.name), reexport(`entities/${entry.name}`));
  }
  const uses = /\borm\b/.test(block.text) && !/\b(const|let)\s+orm\b/.test(block.text);
  const prelude = uses
    ? 'import type { MikroORM } from "@mikro-orm/core";\ndeclare const orm: MikroORM;\n'
    : "";
  const path = join(dir, block.options.at ?? "block.ts");
  await Deno.writeTextFile(path, prelude + block.text);
  return path;
}
