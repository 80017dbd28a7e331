/**
 * `--init`: the generator CLI writes README's starter project into an empty folder. Its files are
 * the ones README's "Getting started in your own project" shows (README links `../mikrogql`, the
 * checkout next to the project; run from this checkout, `--init` links it), the project it writes
 * goes through README's commands and answers README's queries, and it never overwrites a file.
 */
import { assert, assertEquals, assertStringIncludes } from "@std/assert";
import { fromFileUrl, join, relative } from "@std/path";
import { starterFiles } from "../../gen/init.ts";
import { gettingStartedBlocks, servedAnswer } from "../support/starter_project.ts";

const ROOT = fromFileUrl(new URL("../../", import.meta.url));
const blocks = gettingStartedBlocks(await Deno.readTextFile(join(ROOT, "README.md")));

/** `deno run -A gen/main.ts --init` in `dir`. */
async function init(dir: string) {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", join(ROOT, "gen/main.ts"), "--init"],
    cwd: dir,
    env: { NO_COLOR: "1" },
  }).output();
  const decoder = new TextDecoder();
  return {
    code: out.code,
    stdout: decoder.decode(out.stdout),
    stderr: decoder.decode(out.stderr),
  };
}

Deno.test("--init writes README's getting-started files", () => {
  const readme = blocks.filter((b) => b.title).map((b) => ({ path: b.title, text: b.text }));
  assertEquals(starterFiles("../mikrogql"), readme);
});

Deno.test({
  name: "--init in an empty folder: generated, served, README's queries answered",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    const dir = await Deno.makeTempDir({ prefix: "mikrogql-init-" });
    try {
      const { code, stdout, stderr } = await init(dir);
      assertEquals(code, 0, stderr);
      assertStringIncludes(
        stdout,
        "wrote deno.json, entities/author.ts, entities/post.ts, server.ts",
      );
      const config = JSON.parse(await Deno.readTextFile(join(dir, "deno.json")));
      assertEquals(config.links, [relative(dir, ROOT)]);
      const [commands, curls] = blocks.filter((b) => b.lang === "sh").map((b) => b.text);
      const data = await servedAnswer(dir, commands, curls) as {
        authors: { edges: { node: { name: string } }[] };
      };
      assertEquals(data.authors.edges.map((e) => e.node.name), ["Ada"]);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test("--init overwrites nothing: exit 2 naming the files that exist, nothing written", async () => {
  const dir = await Deno.makeTempDir({ prefix: "mikrogql-init-" });
  try {
    await Deno.writeTextFile(join(dir, "server.ts"), "// mine\n");
    const { code, stderr } = await init(dir);
    assertEquals(code, 2);
    assertStringIncludes(stderr, "--init: server.ts already exists in");
    assertStringIncludes(stderr, "nothing was written");
    assertEquals(await Deno.readTextFile(join(dir, "server.ts")), "// mine\n");
    const names = [];
    for await (const entry of Deno.readDir(dir)) names.push(entry.name);
    assert(names.length === 1, names.join(", "));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
