/**
 * README's "Getting started in your own project", step by step, in an empty temporary folder:
 * the files it shows are written as shown (the `links` entry pointing at this checkout, as the
 * README tells a user to clone it next to the project), its commands run as real processes
 * (`deno task generate`, then `deno task start` on a free port), and its curl requests are sent
 * to the server, the last one a nested query that must answer the rows the mutations wrote.
 * SIGTERM then stops the server with exit status 0. The README cannot drift from what works.
 */
import { assertEquals } from "@std/assert";
import { dirname, fromFileUrl, join } from "@std/path";
import { gettingStartedBlocks, servedAnswer } from "../support/starter_project.ts";

const ROOT = fromFileUrl(new URL("../../", import.meta.url));

Deno.test({
  name: "README getting started: empty folder -> generated -> served -> nested query answered",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    const blocks = gettingStartedBlocks(await Deno.readTextFile(join(ROOT, "README.md")));
    const files = blocks.filter((b) => b.title);
    const shells = blocks.filter((b) => b.lang === "sh");
    assertEquals(files.map((f) => f.title), [
      "deno.json",
      "entities/author.ts",
      "entities/post.ts",
      "server.ts",
    ]);
    assertEquals(shells.length, 2);
    const dir = await Deno.makeTempDir({ prefix: "mikrogql-getting-started-" });
    try {
      for (const file of files) {
        let text = file.text;
        // The README's "../mikrogql" is the checkout next to the project: here, this one.
        if (file.title === "deno.json") text = text.replace('"../mikrogql"', JSON.stringify(ROOT));
        await Deno.mkdir(join(dir, dirname(file.title!)), { recursive: true });
        await Deno.writeTextFile(join(dir, file.title!), text);
      }
      assertEquals(await servedAnswer(dir, shells[0].text, shells[1].text), {
        authors: {
          totalCount: 1,
          edges: [{ node: { name: "Ada", posts: { edges: [{ node: { title: "Notes" } }] } } }],
        },
      });
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
