/**
 * Every command that starts a server for a user runs it with the benchmarks' `SERVER_FLAGS`
 * (`bench/server_process.ts`): README's `start` task, the one `--init` writes (`gen/init.ts`) and
 * `deno task example`. So the figures of `bench:peers` and the other server benchmarks are those of
 * the stack a user runs, flags included.
 */
import { assert } from "@std/assert";
import { fromFileUrl } from "@std/path";
import { SERVER_FLAGS } from "../../bench/server_process.ts";
import { starterFiles } from "../../gen/init.ts";

const ROOT = fromFileUrl(new URL("../../", import.meta.url));

Deno.test("docs: README's start task, --init's and deno task example run with SERVER_FLAGS", async () => {
  const readme = await Deno.readTextFile(`${ROOT}README.md`);
  const readmeStart = readme.match(/"start": "([^"]*)"/)?.[1];
  const initJson = starterFiles().find((file) => file.path === "deno.json")!.text;
  const initStart = JSON.parse(initJson).tasks.start as string;
  const example = JSON.parse(await Deno.readTextFile(`${ROOT}deno.json`)).tasks.example as string;
  const commands = { "README start": readmeStart, "--init start": initStart, example };
  for (const [name, command] of Object.entries(commands)) {
    assert(command, `${name}: no command found`);
    const server = command.split("&&").at(-1)!.trim().split(/\s+/);
    assert(server[0] === "deno" && server[1] === "run", `${name}: not a deno run: ${command}`);
    for (const flag of SERVER_FLAGS) {
      assert(server.includes(flag), `${name} runs without ${flag}: ${command}`);
    }
  }
});
