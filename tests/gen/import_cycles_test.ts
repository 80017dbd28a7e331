/**
 * No import circle and no wrong-way import in the package (`scripts/import_cycles.ts`, part of
 * `deno task check`): the checker finds both in made-up graphs, and none in the graph of the
 * package's entry points.
 */
import { assertEquals } from "@std/assert";
import {
  importCycles,
  importGraph,
  layerOf,
  wrongWayImports,
} from "../../scripts/import_cycles.ts";

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
  assertEquals(graph.has("runtime/plugins/preset.ts"), true);
  assertEquals(importCycles(graph), []);
  assertEquals(wrongWayImports(graph), []);
});

Deno.test("wrong-way imports: a lower layer importing a higher one, the search box and the rest", () => {
  assertEquals(layerOf("runtime/keys.ts"), 1);
  assertEquals(layerOf("runtime/read/find_rows.ts"), layerOf("runtime/read/paginate.ts"));
  assertEquals(layerOf("scripts/test.ts"), -1);
  const graph = new Map([
    ["runtime/read/find_rows.ts", ["runtime/plan/page_plan.ts", "runtime/keys.ts"]],
    ["runtime/plan/page_plan.ts", ["runtime/read/row_limit.ts"]],
    ["runtime/keys.ts", ["runtime/database/read_from.ts"]],
    ["runtime/write/node_mutation.ts", ["runtime/resolve/noder.ts"]],
    ["server/serve.ts", ["runtime/plugins/preset.ts", "widget/mod.ts"]],
    ["widget/mod.ts", ["widget/options.ts"]],
  ]);
  assertEquals(wrongWayImports(graph), [
    ["runtime/plan/page_plan.ts", "runtime/read/row_limit.ts"],
    ["runtime/keys.ts", "runtime/database/read_from.ts"],
    ["runtime/write/node_mutation.ts", "runtime/resolve/noder.ts"],
    ["server/serve.ts", "widget/mod.ts"],
  ]);
});
