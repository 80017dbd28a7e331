/**
 * No import circle in the package (`scripts/import_cycles.ts`, part of `deno task check`): the
 * checker finds circles in a made-up graph, and none in the graph of the package's entry points.
 */
import { assertEquals } from "@std/assert";
import { importCycles, importGraph } from "../../scripts/import_cycles.ts";

Deno.test("import circles: found in a made-up graph (a self-import too), none elsewhere", () => {
  const graph = new Map([
    ["a.ts", ["b.ts"]],
    ["b.ts", ["c.ts", "d.ts"]],
    ["c.ts", ["a.ts"]],
    ["d.ts", ["e.ts"]],
    ["e.ts", []],
    ["f.ts", ["f.ts"]],
  ]);
  assertEquals(importCycles(graph), [["a.ts", "b.ts", "c.ts"], ["f.ts"]]);
  assertEquals(importCycles(new Map([["a.ts", ["b.ts"]], ["b.ts", []]])), []);
});

Deno.test("import circles: none in the modules of the package's entry points", async () => {
  const config = JSON.parse(await Deno.readTextFile(new URL("../../deno.json", import.meta.url)));
  const graph = await importGraph(Object.values(config.exports as Record<string, string>));
  assertEquals(graph.has("runtime/gates/preset.ts"), true);
  assertEquals(importCycles(graph), []);
});
