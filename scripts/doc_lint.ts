/**
 * `deno task check`'s documentation lint: `deno doc --lint` over the package's entry points
 * (`mod.ts`, `gen/mod.ts`, `widget/mod.ts`), filtered to our own types. Every missing docstring
 * counts; a `private-type-ref` problem counts unless the referenced type is an npm package's
 * (`EntityManager`, `GraphQLSchema`, `Plugin`, `VNode`, ...): a name that the package's sources
 * import from a bare specifier (`@mikro-orm/core`, `graphql`, `graphql-yoga`, `preact`, ...) in a
 * module that does not declare the same name. Prints the problems that count and exits 1 when
 * there is one.
 *
 * Run: `deno run --allow-run --allow-read scripts/doc_lint.ts` (`deno task doc:lint`)
 */
import { stripAnsiCode } from "@std/fmt/colors";
import { walk } from "@std/fs";
import { fromFileUrl } from "@std/path";

const ROOT = fromFileUrl(new URL("..", import.meta.url));
/** The package's entry points (deno.json `exports`, without the generator's command line). */
export const ENTRY_POINTS = ["mod.ts", "gen/mod.ts", "widget/mod.ts"];
/** The folders of the published sources whose imports decide what is an npm type. */
const SOURCES = ["runtime", "gen", "widget"];

/** One problem of `deno doc --lint`. */
export interface DocProblem {
  /** The rule, e.g. `missing-jsdoc`, `private-type-ref`. */
  rule: string;
  /** The first line of the problem, e.g. `public type 'X' references private type 'Y'`. */
  message: string;
  /** The whole text of the problem as printed. */
  text: string;
  /** For `private-type-ref`: the referenced type's name. */
  referenced?: string;
}

/** Splits `deno doc --lint` output (colours removed) into its problems. */
export function parseDocLint(output: string): DocProblem[] {
  const plain = stripAnsiCode(output);
  const problems: DocProblem[] = [];
  for (const block of plain.split(/\n(?=error\[)/)) {
    const head = block.match(/^error\[([a-z-]+)\]: (.*)/);
    if (!head) continue;
    const referenced = head[2].match(/references private type '([^']+)'/)?.[1];
    problems.push({ rule: head[1], message: head[2], text: block.trimEnd(), referenced });
  }
  return problems;
}

/**
 * The names our sources import from bare specifiers (npm packages), each in a module that does
 * not declare the same name: the types a public signature may reference without exporting them.
 */
export async function foreignNames(dirs: string[] = SOURCES): Promise<Set<string>> {
  const foreign = new Set<string>();
  for (const dir of dirs) {
    for await (const entry of walk(`${ROOT}${dir}`, { exts: [".ts"], includeDirs: false })) {
      const text = await Deno.readTextFile(entry.path);
      const declared = new Set(
        [...text.matchAll(
          /^(?:export\s+)?(?:declare\s+)?(?:interface|type|class|function|const|enum)\s+([A-Za-z_$][\w$]*)/gm,
        )].map((m) => m[1]),
      );
      for (const m of text.matchAll(/^import\s+(?:type\s+)?([^;]*?)\s+from\s+"([^".][^"]*)"/gms)) {
        for (const name of m[1].replace(/[{}]/g, "").split(",")) {
          const local = name.trim().replace(/^type\s+/, "").split(/\s+as\s+/).pop()?.trim();
          if (local && local !== "*" && !declared.has(local)) foreign.add(local);
        }
      }
    }
  }
  return foreign;
}

/** Runs `deno doc --lint` on the entry points and returns the problems about our own code. */
export async function docLint(): Promise<{ all: DocProblem[]; ours: DocProblem[] }> {
  const { stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["doc", "--lint", ...ENTRY_POINTS],
    cwd: ROOT,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decoder = new TextDecoder();
  const all = parseDocLint(decoder.decode(stdout) + "\n" + decoder.decode(stderr));
  const foreign = await foreignNames();
  const ours = all.filter((p) => !(p.referenced && foreign.has(p.referenced)));
  return { all, ours };
}

if (import.meta.main) {
  const { all, ours } = await docLint();
  for (const problem of ours) console.error(problem.text + "\n");
  console.log(
    `deno doc --lint ${ENTRY_POINTS.join(" ")}: ${all.length} problems, ` +
      `${all.length - ours.length} references to npm types (allowed), ${ours.length} ours`,
  );
  if (ours.length) Deno.exit(1);
}
