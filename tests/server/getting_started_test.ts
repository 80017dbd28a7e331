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
import { TextLineStream } from "@std/streams/text-line-stream";

const ROOT = fromFileUrl(new URL("../../", import.meta.url));

/** One fenced block of the section: its language, its `title="path"`, its text. */
interface Block {
  lang: string;
  title?: string;
  text: string;
}

/** The fenced blocks between `<!-- getting-started -->` and `<!-- /getting-started -->`. */
export function gettingStartedBlocks(readme: string): Block[] {
  const start = readme.indexOf("<!-- getting-started -->");
  const end = readme.indexOf("<!-- /getting-started -->");
  if (start < 0 || end < start) throw new Error("README has no getting-started section");
  const section = readme.slice(start, end);
  const blocks: Block[] = [];
  for (const m of section.matchAll(/```(\w+)(?: title="([^"]+)")?\n([\s\S]*?)```/g)) {
    blocks.push({ lang: m[1], title: m[2], text: m[3] });
  }
  return blocks;
}

/** The JSON body of a README curl line (`-d '...'`). */
function curlBody(line: string): string {
  const body = /-d '(.*)'$/.exec(line.trim())?.[1];
  if (!body) throw new Error(`not a curl with -d '...': ${line}`);
  return body;
}

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
    let server: Deno.ChildProcess | undefined;
    try {
      for (const file of files) {
        let text = file.text;
        // The README's "../mikrogql" is the checkout next to the project: here, this one.
        if (file.title === "deno.json") text = text.replace('"../mikrogql"', JSON.stringify(ROOT));
        await Deno.mkdir(join(dir, dirname(file.title!)), { recursive: true });
        await Deno.writeTextFile(join(dir, file.title!), text);
      }
      const [generate, start] = shells[0].text.trim().split("\n");
      assertEquals([generate, start], ["deno task generate", "deno task start"]);
      const env = { PORT: "0", NO_COLOR: "1" };
      const generated = await new Deno.Command(Deno.execPath(), {
        args: ["task", "generate"],
        cwd: dir,
        env,
      }).output();
      const decoder = new TextDecoder();
      assertEquals(
        generated.code,
        0,
        decoder.decode(generated.stdout) + decoder.decode(generated.stderr),
      );
      server = new Deno.Command(Deno.execPath(), {
        args: ["task", "start"],
        cwd: dir,
        env,
        stdout: "piped",
        stderr: "inherit",
      }).spawn();
      const lines = server.stdout.pipeThrough(new TextDecoderStream())
        .pipeThrough(new TextLineStream());
      let url: string | undefined;
      const reader = lines.getReader();
      while (!url) {
        const line = await reader.read();
        if (line.done) break;
        if (line.value.startsWith("{")) url = JSON.parse(line.value).url;
      }
      if (!url) throw new Error("the server exited before listening");
      (async () => {
        while (!(await reader.read()).done) { /* keep the pipe drained */ }
      })();
      let last: { data?: Record<string, unknown>; errors?: unknown } = {};
      for (const line of shells[1].text.trim().split("\n")) {
        const response = await fetch(url, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: curlBody(line),
        });
        last = await response.json();
        assertEquals(last.errors, undefined, line);
      }
      assertEquals(last.data, {
        authors: {
          totalCount: 1,
          edges: [{ node: { name: "Ada", posts: { edges: [{ node: { title: "Notes" } }] } } }],
        },
      });
      server.kill("SIGTERM");
      assertEquals((await server.status).code, 0);
      server = undefined;
    } finally {
      if (server) {
        server.kill("SIGKILL");
        await server.status;
      }
      await Deno.remove(dir, { recursive: true });
    }
  },
});
