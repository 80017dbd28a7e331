/**
 * `deno task check`'s import-circle check: the module graph of the package's entry points
 * (`deno info --json`, type-only imports included), reduced to this repository's own files, must
 * hold no circle. Prints each circle (its files, and one import path around it) and exits 1 when
 * there is one.
 *
 * Run: `deno run --allow-run --allow-read scripts/import_cycles.ts [entry ...]`
 * (`deno task check:imports`); without arguments it reads the entry points of `deno.json`.
 */
import { fromFileUrl, relative } from "@std/path";

const ROOT = fromFileUrl(new URL("..", import.meta.url));

/** A module graph: each local file (path relative to the root) with the local files it imports. */
export type ImportGraph = Map<string, string[]>;

interface DenoInfoModule {
  specifier: string;
  dependencies?: { code?: { specifier?: string }; type?: { specifier?: string } }[];
}

/** The local module graph of `entries` (paths relative to the repository root), merged. */
export async function importGraph(entries: string[]): Promise<ImportGraph> {
  const graph: ImportGraph = new Map();
  for (const entry of entries) {
    for (const [from, to] of await moduleGraph(entry)) graph.set(from, to);
  }
  return graph;
}

/** The local module graph of one entry point (`deno info --json <entry>`). */
async function moduleGraph(entry: string): Promise<ImportGraph> {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", entry],
    cwd: ROOT,
    stdout: "piped",
    stderr: "inherit",
  }).output();
  if (!output.success) throw new Error(`deno info failed for ${entry}`);
  const info = JSON.parse(new TextDecoder().decode(output.stdout)) as {
    modules: DenoInfoModule[];
  };
  const local = (specifier: string | undefined) =>
    specifier?.startsWith("file://") ? relative(ROOT, fromFileUrl(specifier)) : undefined;
  const graph: ImportGraph = new Map();
  for (const module of info.modules) {
    const from = local(module.specifier);
    if (!from) continue;
    const to = new Set<string>();
    for (const dependency of module.dependencies ?? []) {
      for (const target of [dependency.code?.specifier, dependency.type?.specifier]) {
        const path = local(target);
        if (path) to.add(path);
      }
    }
    graph.set(from, [...to].sort());
  }
  return graph;
}

/**
 * The circles of `graph`: its strongly connected components of more than one file, or of one file
 * importing itself (Tarjan's algorithm), each as its files sorted.
 */
export function importCycles(graph: ImportGraph): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  let next = 0;
  const visit = (file: string) => {
    index.set(file, next);
    low.set(file, next++);
    stack.push(file);
    onStack.add(file);
    for (const target of graph.get(file) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file)!, low.get(target)!));
      } else if (onStack.has(target)) {
        low.set(file, Math.min(low.get(file)!, index.get(target)!));
      }
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== file);
    if (component.length > 1 || (graph.get(file) ?? []).includes(file)) {
      cycles.push(component.sort());
    }
  };
  for (const file of [...graph.keys()].sort()) if (!index.has(file)) visit(file);
  return cycles;
}

if (import.meta.main) {
  const config = JSON.parse(await Deno.readTextFile(`${ROOT}deno.json`)) as {
    exports: Record<string, string>;
  };
  const entries = Deno.args.length > 0 ? Deno.args : Object.values(config.exports);
  const graph = await importGraph(entries);
  const cycles = importCycles(graph);
  for (const cycle of cycles) {
    console.error(`import circle: ${cycle.join(" -> ")}`);
  }
  console.log(
    `${graph.size} modules of ${entries.join(", ")}: ${cycles.length} import circle(s)`,
  );
  if (cycles.length > 0) Deno.exit(1);
}
