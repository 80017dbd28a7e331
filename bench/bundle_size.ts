/**
 * Bundle size of the search box: every file `deno task bundle` wrote to
 * `dist/`, raw and gzip (level 9); then, following the imports from
 * `searchbox.js`, the JavaScript loaded up front, with the modal's chunk and
 * with the Ask AI chunk, and the total, against the budgets and
 * the hosted widget's sizes. Files no import reaches are not counted.
 *
 * Run: `deno task bundle && deno run -A bench/bundle_size.ts`
 */
import { gzipSync } from "node:zlib";
import { fromFileUrl, join } from "@std/path";

/**
 * `@docsearch/js` 4.7.1 and its CSS, gzip bytes (the hosted widget the search box replaces), and
 * `@docsearch/sidepanel-js` 4.7.0's `dist/esm/index.js` (`npm pack`, gzip -9: 111,946 B).
 */
const REFERENCE = { js: 128_917, css: 5_962, sidePanel: 111_946 };
/**
 * Budgets, gzip bytes: the JavaScript a page loads up front (button and shortcuts), all the
 * keyword mode's JavaScript (up front and the modal's chunk; Ask AI's reported apart), the
 * stylesheet, and the Sidepanel's (`sidepanel.js`, its own files): up front, and all.
 */
const BUDGET = {
  js: 15_000,
  keyword: 30_000,
  css: 6_000,
  sidePanel: { upFront: 12_000, all: 27_000 },
};

const dist = fromFileUrl(new URL("../dist", import.meta.url));
const rows: Array<{ file: string; raw: number; gzip: number }> = [];
for await (const entry of Deno.readDir(dist)) {
  if (!entry.isFile) continue;
  const bytes = await Deno.readFile(join(dist, entry.name));
  rows.push({ file: entry.name, raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length });
}
rows.sort((a, b) => a.file.localeCompare(b.file));
const pad = (value: string | number, width: number) => String(value).padStart(width);
console.log(`${"file".padEnd(28)}${pad("raw B", 10)}${pad("gzip B", 10)}`);
for (const row of rows) {
  console.log(`${row.file.padEnd(28)}${pad(row.raw, 10)}${pad(row.gzip, 10)}`);
}
const sum = (list: typeof rows) => list.reduce((n, r) => n + r.gzip, 0);
const row = (file: string) => rows.find((r) => r.file === file)!;
/** The files `file` imports statically (`from"./x.js"`, `import"./x.js"`) and dynamically (`import("./x.js")`). */
const importsOf = async (file: string) => {
  const source = await Deno.readTextFile(join(dist, file));
  return {
    static: [...source.matchAll(/(?:from|import)\s*"\.\/([\w.-]+\.js)"/g)].map((m) => m[1]),
    dynamic: [...source.matchAll(/import\(\s*"\.\/([\w.-]+\.js)"\s*\)/g)].map((m) => m[1]),
  };
};
/** `file` and every file it imports statically, transitively: what loading it downloads. */
const closure = async (file: string, seen = new Set<string>()) => {
  if (seen.has(file)) return seen;
  seen.add(file);
  for (const next of (await importsOf(file)).static) await closure(next, seen);
  return seen;
};
// what a page loads up front: the entry and the chunks it imports statically; then each
// dynamically imported chunk with what it adds (the modal's chunk, then Ask AI's)
const upFront = await closure("searchbox.js");
const stages: Array<{ label: string; files: string[] }> = [
  { label: "up front (button, shortcuts)", files: [...upFront] },
];
const loaded = new Set(upFront);
for (let i = 0; i < stages.length; i++) {
  for (const file of stages[i].files) {
    for (const chunk of (await importsOf(file)).dynamic) {
      const added = [...await closure(chunk)].filter((f) => !loaded.has(f));
      if (added.length === 0) continue;
      added.forEach((f) => loaded.add(f));
      stages.push({
        label: chunk.startsWith("view") ? "Ask AI (on its first use)" : "modal (on intent or idle)",
        files: added,
      });
    }
  }
}
const css = rows.find((r) => r.file === "style.css");
console.log("");
for (const stage of stages) {
  const files = stage.files.map(row);
  console.log(`${stage.label}: ${stage.files.join(" + ")}: ${sum(files)} B gzip`);
}
const all = [...loaded].map(row);
console.log(
  `up-front JavaScript: ${sum(stages[0].files.map(row))} B gzip (budget ${BUDGET.js})`,
);
const keyword = stages.filter((s) => !s.label.startsWith("Ask AI")).flatMap((s) => s.files);
console.log(`keyword mode JavaScript: ${sum(keyword.map(row))} B gzip (budget ${BUDGET.keyword})`);
console.log(`all JavaScript, with Ask AI: ${sum(all)} B gzip`);
// the Sidepanel's own bundle: `sidepanel.js` and its static imports up front, its panel on intent
const panelUpFront = await closure("sidepanel.js");
const panelAll = new Set(panelUpFront);
for (const file of panelUpFront) {
  for (const chunk of (await importsOf(file)).dynamic) await closure(chunk, panelAll);
}
console.log(
  `Sidepanel up front (button, Ctrl/Cmd+I): ${[...panelUpFront].join(" + ")}: ${
    sum([...panelUpFront].map(row))
  } B gzip (budget ${BUDGET.sidePanel.upFront})`,
);
console.log(
  `Sidepanel with its panel (on intent): ${
    sum([...panelAll].map(row))
  } B gzip (budget ${BUDGET.sidePanel.all}, @docsearch/sidepanel-js 4.7.0: ${REFERENCE.sidePanel})`,
);
console.log(
  `style.css: ${css?.gzip} B gzip (budget ${BUDGET.css}, @docsearch/css 4.7.1: ${REFERENCE.css})`,
);
console.log(`reference: @docsearch/js 4.7.1 is ${REFERENCE.js} B gzip`);
