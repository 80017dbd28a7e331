/**
 * What the React package of the search box costs a React site: builds it
 * (`scripts/bundle_react.ts`, React and React DOM left to the page) into a
 * temporary directory and prints every file raw and gzip (level 9), then,
 * following the imports from `searchbox-react.js`, the JavaScript loaded
 * with the component (button, shortcuts), the modal's chunk (on intent or
 * idle), the Ask AI chunk (on its first use) and the total, against the
 * script package's budgets. React and React DOM are not counted: the site
 * has them already.
 *
 * Run: `deno task bench:react`
 */
import { gzipSync } from "node:zlib";
import { join } from "@std/path";
import { bundleReact, REACT_ENTRY, SIDE_PANEL_ENTRY } from "../scripts/bundle_react.ts";

/**
 * `@docsearch/react` 4.7.1's `DocSearch`, gzip bytes: `deno bundle --minify --platform browser`
 * of `export { DocSearch } from "npm:@docsearch/react@4.7.1"` with `react`, `react-dom`,
 * `react/jsx-runtime` and `react-dom/client` external (one file, measured once).
 */
const REFERENCE = 118_241;

/** The script package's budgets, gzip bytes (`bench/bundle_size.ts`). */
const BUDGET = { js: 15_000, jsWithAskAi: 30_000 };

const dir = await Deno.makeTempDir({ prefix: "searchbox-react-" });
try {
  await bundleReact(dir);
  const sizes = new Map<string, { raw: number; gzip: number }>();
  for await (const entry of Deno.readDir(dir)) {
    const bytes = await Deno.readFile(join(dir, entry.name));
    sizes.set(entry.name, { raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length });
  }
  const pad = (value: string | number, width: number) => String(value).padStart(width);
  console.log(`${"file".padEnd(32)}${pad("raw B", 10)}${pad("gzip B", 10)}`);
  for (const [file, size] of [...sizes].sort(([a], [b]) => a.localeCompare(b))) {
    console.log(`${file.padEnd(32)}${pad(size.raw, 10)}${pad(size.gzip, 10)}`);
  }
  const importsOf = async (file: string) => {
    const source = await Deno.readTextFile(join(dir, file));
    return {
      static: [...source.matchAll(/(?:from|import)\s*"\.\/([\w.-]+\.js)"/g)].map((m) => m[1]),
      dynamic: [...source.matchAll(/import\(\s*"\.\/([\w.-]+\.js)"\s*\)/g)].map((m) => m[1]),
    };
  };
  const closure = async (file: string, seen = new Set<string>()) => {
    if (seen.has(file)) return seen;
    seen.add(file);
    for (const next of (await importsOf(file)).static) await closure(next, seen);
    return seen;
  };
  const gzip = (files: Iterable<string>) => [...files].reduce((n, f) => n + sizes.get(f)!.gzip, 0);
  const upFront = await closure(REACT_ENTRY);
  const loaded = new Set(upFront);
  const stages = [{ label: "with the component (button, shortcuts)", files: [...upFront] }];
  for (let i = 0; i < stages.length; i++) {
    for (const file of stages[i].files) {
      for (const chunk of (await importsOf(file)).dynamic) {
        const added = [...await closure(chunk)].filter((f) => !loaded.has(f));
        if (added.length === 0) continue;
        added.forEach((f) => loaded.add(f));
        stages.push({
          label: chunk.startsWith("view")
            ? "Ask AI (on its first use)"
            : "modal (on intent or idle)",
          files: added,
        });
      }
    }
  }
  console.log("");
  for (const stage of stages) {
    console.log(`${stage.label}: ${stage.files.join(" + ")}: ${gzip(stage.files)} B gzip`);
  }
  console.log(
    `React package, up front: ${gzip(upFront)} B gzip (script package's budget ${BUDGET.js})`,
  );
  console.log(
    `React package, all JavaScript with Ask AI: ${
      gzip(loaded)
    } B gzip (budget ${BUDGET.jsWithAskAi}); react and react-dom not counted`,
  );
  console.log(`reference: @docsearch/react 4.7.1 is ${REFERENCE} B gzip, react not counted`);
  // the `./sidepanel` entry: its button up front, its panel on intent
  const panelUpFront = await closure(SIDE_PANEL_ENTRY);
  const panelAll = new Set(panelUpFront);
  for (const file of panelUpFront) {
    for (const chunk of (await importsOf(file)).dynamic) await closure(chunk, panelAll);
  }
  console.log(
    `SidePanel (./sidepanel): up front ${gzip(panelUpFront)} B gzip, with its panel ${
      gzip(panelAll)
    } B gzip; react not counted`,
  );
} finally {
  await Deno.remove(dir, { recursive: true });
}
