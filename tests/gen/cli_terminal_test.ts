/**
 * The generator's command line on a terminal and off it: under a real pseudo-terminal
 * (`script`), colours and a progress line that each step overwrites; with `NO_COLOR`, the
 * progress line without colours; into a pipe, plain text with no escape sequence at all. Counts
 * take their noun's number ("1 entity in 1 module"), and an annotation on a property that is not
 * there is an error naming the closest property (exit 1).
 */
import { assert, assertEquals, assertStringIncludes } from "@std/assert";
import { fromFileUrl, join } from "@std/path";

const root = fromFileUrl(new URL("../../", import.meta.url));
const main = join(root, "gen/main.ts");
const decoder = new TextDecoder();
// deno-lint-ignore no-control-regex
const COLOUR = /\x1b\[[0-9;]*m/;
const PROGRESS = "\r\x1b[2K";

/** Runs the CLI, under a pseudo-terminal when `terminal` (`script -qec`), from the repository. */
async function cli(args: string[], options: { terminal: boolean; env?: Record<string, string> }) {
  const command = [Deno.execPath(), "run", "-A", main, ...args].join(" ");
  const result = await new Deno.Command(
    options.terminal ? "script" : Deno.execPath(),
    {
      args: options.terminal ? ["-qec", command, "/dev/null"] : ["run", "-A", main, ...args],
      cwd: root,
      env: options.env,
      stdout: "piped",
      stderr: "piped",
    },
  ).output();
  return {
    code: result.code,
    text: decoder.decode(result.stdout) + decoder.decode(result.stderr),
  };
}

Deno.test("CLI on a terminal: colours, a progress line; NO_COLOR and pipes are plain", async () => {
  const out = await Deno.makeTempDir({ prefix: "mikrogql-cli-terminal-" });
  try {
    const valid = ["-e", "examples/blog/entities", "-o", out, "--no-format"];
    const tty = await cli(valid, { terminal: true });
    assertEquals(tty.code, 0, tty.text);
    assert(COLOUR.test(tty.text), "colours on a terminal");
    assertStringIncludes(tty.text, `${PROGRESS}\x1b[2mloading entities…`);
    assertStringIncludes(tty.text, "writing the files…");
    assertStringIncludes(tty.text, "found 4 entities in 4 modules");

    const noColor = await cli(valid, { terminal: true, env: { NO_COLOR: "1" } });
    assertEquals(noColor.code, 0, noColor.text);
    assert(!COLOUR.test(noColor.text), "no colour with NO_COLOR");
    assertStringIncludes(noColor.text, `${PROGRESS}loading entities…`);

    const piped = await cli(valid, { terminal: false });
    assertEquals(piped.code, 0, piped.text);
    assert(
      !piped.text.includes("\x1b"),
      `no escape sequence into a pipe: ${JSON.stringify(piped.text)}`,
    );

    const typo = ["-e", "tests/gen/fixtures/annotation_typo", "-o", out, "--no-format"];
    const invalid = await cli(typo, { terminal: false });
    assertEquals(invalid.code, 1, invalid.text);
    assertStringIncludes(invalid.text, "found 1 entity in 1 module\n");
    assertStringIncludes(
      invalid.text,
      'error: tests/gen/fixtures/annotation_typo/author.ts: Author.nmae: annotations on "nmae", which is no property of Author (did you mean "name"?)',
    );
    const invalidTty = await cli(typo, { terminal: true });
    assertEquals(invalidTty.code, 1, invalidTty.text);
    assertStringIncludes(invalidTty.text, "\x1b[1m\x1b[31merror\x1b[39m\x1b[22m: ");
  } finally {
    await Deno.remove(out, { recursive: true });
  }
});
