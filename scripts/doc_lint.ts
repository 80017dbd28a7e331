/**
 * `deno task check`'s documentation lint: `deno doc --lint` over the package's entry points
 * (`mod.ts`, `gen/mod.ts`, `server/mod.ts`, `widget/mod.ts`), filtered to our own types. Every missing docstring
 * counts; a `private-type-ref` problem counts unless the referenced type is an npm package's
 * (`EntityManager`, `GraphQLSchema`, `Plugin`, `VNode`, ...): a name that the package's sources
 * import from a bare specifier (`@mikro-orm/core`, `graphql`, `graphql-yoga`, `preact`, ...) in a
 * module that does not declare the same name. On top of `deno doc --lint`, every function a user
 * calls ({@linkcode REQUIRED_EXAMPLES}, listed per entry point) must have an `@example` holding a
 * code block, as denoland/std requires of its exports (`missing-example`, naming the module and
 * the symbol). Prints the problems that count and exits 1 when there is one.
 *
 * Run: `deno run --allow-run --allow-read scripts/doc_lint.ts` (`deno task doc:lint`)
 */
import { stripAnsiCode } from "@std/fmt/colors";
import { walk } from "@std/fs";
import { fromFileUrl } from "@std/path";

const ROOT = fromFileUrl(new URL("..", import.meta.url));
/** The package's entry points (deno.json `exports`, without the generator's command line). */
export const ENTRY_POINTS = ["mod.ts", "gen/mod.ts", "server/mod.ts", "widget/mod.ts"];
/**
 * The functions a user calls, per module that exports them: each must have an `@example` with a
 * fenced code block (see {@linkcode missingExamples}). The keys are the entry points of
 * {@linkcode ENTRY_POINTS}, plus the blog example's generated `mod.ts`, which stands for every
 * generated module: the generator writes `createSchema`'s docstring (`gen/emit/node.ts`), and
 * `--check` keeps the committed example equal to a fresh generation.
 */
export const REQUIRED_EXAMPLES: Readonly<Record<string, readonly string[]>> = {
  "mod.ts": [
    "createGraphQLSchema",
    "createResolvers",
    "createNode",
    "updateNode",
    "deleteNode",
    "fromContext",
    "noder",
    "noders",
    "globalIdOf",
    "encodeGlobalId",
    "decodeGlobalId",
    "annotate",
    "definePolicy",
    "setupUniversalIds",
    "replicaFailover",
    "readConnectionType",
    "createDocumentCaches",
    "Jit",
    "BodyLimit",
    "Csrf",
    "Limits",
    "ClientErrors",
    "Transactioner",
    "ReadRetry",
    "Deadline",
    "mikrogqlPreset",
    "gqlError",
    "Subscriptions",
    "createChangeFeed",
    "captureChanges",
  ],
  "gen/mod.ts": ["generate", "defineConfig"],
  "server/mod.ts": ["openOrm", "serve", "databaseKindOf"],
  "examples/blog/generated/mod.ts": ["createSchema"],
  "widget/mod.ts": ["searchBox", "html"],
  // the component as the module that defines it: its name and `searchBox`'s differ only in case
  "widget/ui/search_box.ts": ["SearchBox"],
};
/** The folders of the published sources whose imports decide what is an npm type. */
const SOURCES = ["runtime", "gen", "server", "widget"];

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

/**
 * The part of `deno doc --json` output the example rule reads: per module URL, its exported
 * symbols, each with the JSDoc tags of its declarations.
 */
export interface DocJson {
  /** Module URL (`file:///.../mod.ts`) -> its documentation. */
  nodes: Record<string, {
    symbols?: {
      name: string;
      declarations?: { jsDoc?: { tags?: { kind: string; doc?: string }[] } }[];
    }[];
  }>;
}

/**
 * The `@example` texts of the symbol `name` exported by the module `file` (a path relative to
 * the repository), in declaration order; `undefined` when the module does not export it.
 */
export function examplesOf(doc: DocJson, file: string, name: string): string[] | undefined {
  const module = Object.entries(doc.nodes).find(([url]) => url.endsWith(`/${file}`))?.[1];
  const symbol = module?.symbols?.find((s) => s.name === name);
  if (!symbol) return undefined;
  return (symbol.declarations ?? []).flatMap((d) =>
    (d.jsDoc?.tags ?? []).filter((t) => t.kind === "example").map((t) => t.doc ?? "")
  );
}

/** The fenced code blocks of an `@example` text (their contents, without the fences). */
export function codeBlocks(example: string): string[] {
  return [...example.matchAll(/^```[a-z]*\n([\s\S]*?)^```/gm)].map((m) => m[1]);
}

/**
 * The `missing-example` problems of `doc` (the `deno doc --json` output of the modules of
 * `required`): one per required symbol that its module does not export, or whose docstring has
 * no `@example` with a non-empty fenced code block.
 *
 * @param required module path (relative to the repository) -> the symbols that need an example
 */
export function missingExamples(
  doc: DocJson,
  required: Readonly<Record<string, readonly string[]>> = REQUIRED_EXAMPLES,
): DocProblem[] {
  const problems: DocProblem[] = [];
  for (const [file, names] of Object.entries(required)) {
    for (const name of names) {
      const examples = examplesOf(doc, file, name);
      const why = examples === undefined
        ? "is not exported"
        : !examples.some((e) => codeBlocks(e).some((code) => code.trim() !== ""))
        ? "has no @example with a code block"
        : undefined;
      if (!why) continue;
      const message = `${file}: '${name}' ${why}; a function a user calls needs an @example`;
      problems.push({
        rule: "missing-example",
        message,
        text: `error[missing-example]: ${message}`,
      });
    }
  }
  return problems;
}

/** Runs `deno doc <args>` in the repository; its exit status and output as text. */
async function denoDoc(
  args: string[],
): Promise<{ success: boolean; stdout: string; stderr: string }> {
  const { success, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["doc", ...args],
    cwd: ROOT,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decoder = new TextDecoder();
  return { success, stdout: decoder.decode(stdout), stderr: decoder.decode(stderr) };
}

/** `deno doc --json` of the modules of `files` (paths relative to the repository). */
export async function docJson(files: readonly string[]): Promise<DocJson> {
  const { success, stdout, stderr } = await denoDoc(["--json", ...files]);
  if (!success) throw new Error(`deno doc --json failed: ${stderr}`);
  return JSON.parse(stdout) as DocJson;
}

/**
 * Runs `deno doc --lint` on the entry points and the example rule on
 * {@linkcode REQUIRED_EXAMPLES}, and returns the problems: `all` of them, and `ours` (all but the
 * references to npm types).
 */
export async function docLint(): Promise<{ all: DocProblem[]; ours: DocProblem[] }> {
  const { stdout, stderr } = await denoDoc(["--lint", ...ENTRY_POINTS]);
  const all = [
    ...parseDocLint(stdout + "\n" + stderr),
    ...missingExamples(await docJson(Object.keys(REQUIRED_EXAMPLES))),
  ];
  const foreign = await foreignNames();
  const ours = all.filter((p) => !(p.referenced && foreign.has(p.referenced)));
  return { all, ours };
}

if (import.meta.main) {
  const { all, ours } = await docLint();
  for (const problem of ours) console.error(problem.text + "\n");
  const examples = Object.values(REQUIRED_EXAMPLES).flat().length;
  console.log(
    `deno doc --lint ${ENTRY_POINTS.join(" ")} and @example on ${examples} functions: ` +
      `${all.length} problems, ${all.length - ours.length} references to npm types (allowed), ` +
      `${ours.length} ours`,
  );
  if (ours.length) Deno.exit(1);
}
