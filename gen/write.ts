/**
 * Step 4c: write the generated files into the output directory without leaving it half-written:
 * everything is rendered and formatted in a staging directory beside it first, then renamed in.
 *
 * @module
 */
import { ensureDir } from "@std/fs";
import { dirname, join } from "@std/path";
import { GenerateError } from "./errors.ts";

/**
 * Writes `files` (name -> content) into `out`.
 *
 * @param format run `deno fmt` on the TypeScript files before they are moved in
 * @throws GenerateError when formatting fails; `out` is then untouched
 */
export async function writeFiles(
  out: string,
  files: Map<string, string>,
  format: boolean,
): Promise<void> {
  await ensureDir(dirname(out));
  const staging = await Deno.makeTempDir({
    dir: dirname(out),
    prefix: ".mikrogql-",
  });
  try {
    for (const [name, content] of files) {
      await Deno.writeTextFile(join(staging, name), content);
    }
    if (format) {
      const ts = [...files.keys()].filter((n) => n.endsWith(".ts")).map((n) => join(staging, n));
      const result = await new Deno.Command(Deno.execPath(), {
        args: ["fmt", "--quiet", ...ts],
        stderr: "piped",
      })
        .output();
      if (!result.success) {
        throw new GenerateError(
          `deno fmt failed on generated code: ${new TextDecoder().decode(result.stderr)}`,
        );
      }
    }
    await ensureDir(out);
    for (const name of files.keys()) {
      await Deno.rename(join(staging, name), join(out, name));
    }
  } finally {
    await Deno.remove(staging, { recursive: true }).catch(() => {});
  }
}
