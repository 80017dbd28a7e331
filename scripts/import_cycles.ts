/**
 * `deno task check`'s import check: the module graph of the package's entry points
 * (`deno info --json`, type-only imports included), reduced to this repository's own files, must
 * hold no circle, and no import may go against the layers of {@linkcode LAYERS} (a file imports
 * files of its own layer or of layers below it). Prints each circle and each wrong-way import and
 * exits 1 when there is one.
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

/**
 * The package's layers, lowest first: a file may import files of its own layer or of a lower one.
 * A layer is a folder (every file under it) or, ending in `*.ts`, the files directly in a folder.
 * The search box (`widget/`) is a layer apart: it and the rest import nothing of each other.
 */
export const LAYERS: readonly (readonly string[])[] = [
  ["runtime/jsutils/"],
  ["runtime/*.ts"],
  ["runtime/database/"],
  ["runtime/events/"],
  ["runtime/plan/"],
  ["runtime/request/"],
  ["runtime/read/"],
  ["runtime/write/"],
  ["runtime/resolve/"],
  ["runtime/plugins/"],
  ["mod.ts"],
  ["server/", "gen/"],
];

/** The index in {@linkcode LAYERS} of `file`'s layer, `-1` for a file of no layer. */
export function layerOf(file: string): number {
  return LAYERS.findIndex((layer) =>
    layer.some((pattern) =>
      pattern.endsWith("*.ts")
        ? file.startsWith(pattern.slice(0, -4)) && !file.slice(pattern.length - 4).includes("/")
        : pattern.endsWith("/")
        ? file.startsWith(pattern)
        : file === pattern
    )
  );
}

/**
 * The imports of `graph` that go against {@linkcode LAYERS}: from a file of a layer to a file of
 * a higher one, or between the search box (`widget/`) and the layers; as `from -> to` pairs.
 */
export function wrongWayImports(graph: ImportGraph): [string, string][] {
  const wrong: [string, string][] = [];
  for (const [from, targets] of graph) {
    for (const to of targets) {
      const widget = [from, to].filter((file) => file.startsWith("widget/")).length;
      if (widget === 1 || layerOf(to) > layerOf(from)) wrong.push([from, to]);
    }
  }
  return wrong;
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
  const wrong = wrongWayImports(graph);
  for (const [from, to] of wrong) {
    console.error(
      `wrong-way import: ${from} (layer ${layerOf(from)}) -> ${to} (layer ${layerOf(to)})`,
    );
  }
  console.log(
    `${graph.size} modules of ${entries.join(", ")}: ${cycles.length} import circle(s), ` +
      `${wrong.length} wrong-way import(s)`,
  );
  if (cycles.length > 0 || wrong.length > 0) Deno.exit(1);
}
