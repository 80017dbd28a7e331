/**
 * `deno task bundle`: the search box's browser bundle. Runs `deno bundle`
 * (minified ESM, code splitting: the entry `widget/script.ts` written as
 * `searchbox.js`, the published file name, the modal's and Ask AI's chunks,
 * `style.css`; then, in a second run, the Sidepanel's entry
 * `widget/sidepanel.ts` as `sidepanel.js` with its own chunks, as DocSearch
 * ships `@docsearch/sidepanel-js` apart: the search box's files do not
 * change for it, and a page with both shares no module state between them,
 * only the hybrid mode's DOM event) into an emptied output directory (`dist`, or the first
 * argument); adds the dark theme for `theme: "auto"` to `style.css`
 * (`withAutoDark`); then drops the indentation inside template literals:
 * the `html` templates (htm) keep their source indentation through the
 * minifier, and htm drops whitespace that holds a newline at the edges of a
 * text (so also a newline between two tags or a tag and an interpolation;
 * see `TEXT_EDGE_NEWLINE`). Minified code has no other raw newlines (string
 * literals escape them).
 *
 * Run: `deno run -A scripts/bundle.ts [outdir]`
 */
import { fromFileUrl, join } from "@std/path";

const ROOT = fromFileUrl(new URL("..", import.meta.url));

/** The published name of the entry's output (`deno bundle` names it `script.js`, after its source). */
const ENTRY = "searchbox.js";

/**
 * A newline that is a whole text between two tags, a tag and an
 * interpolation, or a template's edge and a tag: htm drops it (whitespace
 * holding a newline at the edges of a text); and a newline between an
 * attribute value and the tag's `>` or `/>`. Not touched: a newline between
 * two interpolations or inside a plain string such as `` `\n` ``.
 */
export const TEXT_EDGE_NEWLINE =
  /(?<=`)\n(?=<)|(?<=>)\n(?=`|<|\$\{)|(?<=\})\n(?=<)|(?<=[}"])\n(?=\/?>)/g;

/**
 * A newline between two attributes of a tag (before `name=` or `...${`): the
 * same whitespace to htm as a space, which the tags written on one line use.
 */
export const ATTRIBUTE_NEWLINE = /\n(?=[A-Za-z][\w-]*=|\.\.\.\$\{)/g;

/**
 * The dark theme's rule in the minified `style.css` (`html[data-theme="dark"]`
 * in `widget/style.css`); it holds custom properties only, so no brace.
 */
const DARK_RULE = /html\[data-theme=dark\]\{([^{}]*)\}/g;

/** Where `theme: "auto"` is dark: on a dark OS, unless the page chose light (an open media rule). */
const AUTO_DARK =
  "@media (prefers-color-scheme: dark){html:not([data-theme=light]) .DocSearch--auto";

/**
 * `css` (the minified `style.css`) with the dark rule's declarations
 * repeated right after it for `theme: "auto"` on a dark OS, unless the page
 * chose light: the dark theme is written once in `widget/style.css`.
 *
 * @throws {Error} when `css` has no or several dark rules.
 */
export function withAutoDark(css: string): string {
  const rules = [...css.matchAll(DARK_RULE)];
  if (rules.length !== 1) {
    throw new Error(`style.css: expected one html[data-theme=dark] rule, found ${rules.length}`);
  }
  const [rule, declarations] = rules[0];
  const end = rules[0].index + rule.length;
  return `${css.slice(0, end)}${AUTO_DARK}{${declarations}}}${css.slice(end)}`;
}

/** The `deno bundle` arguments, writing `entries` to `outDir`. */
function bundleArgs(outDir: string, entries: string[]): string[] {
  return [
    "bundle",
    "--quiet",
    "--minify",
    "--platform",
    "browser",
    "--code-splitting",
    "--outdir",
    outDir,
    ...entries,
  ];
}

/** Bundles into `outDir` (emptied first); throws with `deno bundle`'s output when it fails. */
export async function bundle(outDir: string): Promise<void> {
  await Deno.remove(outDir, { recursive: true }).catch(() => {});
  const run = async (dir: string, entries: string[]) => {
    const { success, stderr } = await new Deno.Command(Deno.execPath(), {
      args: bundleArgs(dir, entries),
      cwd: ROOT,
      stdout: "null",
      stderr: "piped",
    }).output();
    if (!success) throw new Error(`deno bundle failed:\n${new TextDecoder().decode(stderr)}`);
  };
  await run(outDir, ["widget/script.ts", "widget/style.css"]);
  await Deno.rename(join(outDir, "script.js"), join(outDir, ENTRY));
  const sidePanelDir = join(outDir, ".sidepanel");
  await run(sidePanelDir, ["widget/sidepanel.ts"]);
  for await (const entry of Deno.readDir(sidePanelDir)) {
    const target = join(outDir, entry.name);
    if (await Deno.stat(target).then(() => true, () => false)) {
      throw new Error(`sidepanel bundle: ${entry.name} is also a file of the search box's bundle`);
    }
    await Deno.rename(join(sidePanelDir, entry.name), target);
  }
  await Deno.remove(sidePanelDir);
  const css = join(outDir, "style.css");
  await Deno.writeTextFile(css, withAutoDark(await Deno.readTextFile(css)));
  for await (const entry of Deno.readDir(outDir)) {
    if (!entry.name.endsWith(".js")) continue;
    const path = join(outDir, entry.name);
    const code = await Deno.readTextFile(path);
    if (code.includes('"./script.js"')) {
      throw new Error(`${entry.name} imports the entry by its source name, renamed to ${ENTRY}`);
    }
    await Deno.writeTextFile(
      path,
      code.replace(/\n[ \t]+/g, "\n").replace(TEXT_EDGE_NEWLINE, "").replace(
        ATTRIBUTE_NEWLINE,
        " ",
      ),
    );
  }
}

if (import.meta.main) {
  await bundle(Deno.args[0] ?? join(ROOT, "dist"));
}
