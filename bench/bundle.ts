/**
 * Bundle size of the search box: every file `deno task bundle` wrote to
 * `dist/`, raw and gzip (level 9), with the JavaScript total (entry plus
 * lazily loaded chunks), against the budgets and the hosted widget's sizes.
 *
 * Run: `deno task bundle && deno run -A bench/bundle.ts`
 */
import { gzipSync } from "node:zlib";
import { fromFileUrl, join } from "@std/path";

/** `@docsearch/js` 4.7.1 and its CSS, gzip bytes (issue 6). */
const REFERENCE = { js: 128_917, css: 5_962 };
/** Budgets (issues 6 and 7), gzip bytes. */
const BUDGET = { js: 15_000, jsWithAskAi: 30_000, css: 6_000 };

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
const js = rows.filter((r) => r.file.endsWith(".js"));
const sum = (list: typeof rows) => list.reduce((n, r) => n + r.gzip, 0);
// what a page loads up front: the entry and the chunks it imports statically
const entrySource = await Deno.readTextFile(join(dist, "searchbox.js"));
const staticImports = [...entrySource.matchAll(/from\s*"\.\/([\w.-]+\.js)"/g)].map((m) => m[1]);
const upFront = js.filter((r) => r.file === "searchbox.js" || staticImports.includes(r.file));
const lazy = js.filter((r) => !upFront.includes(r));
const css = rows.find((r) => r.file === "style.css");
console.log("");
console.log(
  `keyword search (loaded with the page: ${upFront.map((r) => r.file).join(" + ")}): ${
    sum(upFront)
  } B gzip (budget ${BUDGET.js})`,
);
console.log(
  `Ask AI (loaded when a modal with askAi opens: ${lazy.map((r) => r.file).join(" + ")}): ${
    sum(lazy)
  } B gzip`,
);
console.log(`all JavaScript, with Ask AI: ${sum(js)} B gzip (budget ${BUDGET.jsWithAskAi})`);
console.log(
  `style.css: ${css?.gzip} B gzip (budget ${BUDGET.css}, @docsearch/css 4.7.1: ${REFERENCE.css})`,
);
console.log(`reference: @docsearch/js 4.7.1 is ${REFERENCE.js} B gzip`);
