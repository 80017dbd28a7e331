/**
 * README's "Getting started in your own project" as the tests run it: the section's fenced blocks,
 * and a project folder taken through the section's commands (`deno task generate`, then
 * `deno task start` on a free port) and its curl requests, then stopped with SIGTERM.
 */
import { assertEquals } from "@std/assert";
import { TextLineStream } from "@std/streams/text-line-stream";

/** One fenced block of the section: its language, its `title="path"`, its text. */
export interface Block {
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

/**
 * Runs the section's commands in the project folder `dir`: `commands` (its first shell block:
 * `deno task generate`, `deno task start`), then each line of `curls` (its second) against the
 * server; every answer without errors. Between the two commands, `deno check` of the project
 * (`server.ts`, which imports the entities and the generated `mod.ts`) must pass: what an editor
 * shows red fails here. Stops the server with SIGTERM, which must exit 0.
 *
 * @returns the data of the last answer
 */
export async function servedAnswer(
  dir: string,
  commands: string,
  curls: string,
): Promise<Record<string, unknown> | undefined> {
  const [generate, start] = commands.trim().split("\n");
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
  const checked = await new Deno.Command(Deno.execPath(), {
    args: ["check", "--quiet", "server.ts", "generated/mod.ts"],
    cwd: dir,
    env,
  }).output();
  assertEquals(checked.code, 0, decoder.decode(checked.stdout) + decoder.decode(checked.stderr));
  let server: Deno.ChildProcess | undefined = new Deno.Command(Deno.execPath(), {
    args: ["task", "start"],
    cwd: dir,
    env,
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  try {
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
    for (const line of curls.trim().split("\n")) {
      const response = await fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: curlBody(line),
      });
      last = await response.json();
      assertEquals(last.errors, undefined, line);
    }
    server.kill("SIGTERM");
    assertEquals((await server.status).code, 0);
    server = undefined;
    return last.data;
  } finally {
    if (server) {
      server.kill("SIGKILL");
      await server.status;
    }
  }
}
