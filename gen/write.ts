/**
 * Step 4c: write the generated files into the output directory without leaving it half-written:
 * everything is rendered and formatted in a staging directory beside it first, then the files
 * whose content changed are renamed in (an unchanged file keeps its modification time). In check
 * mode the staged files are compared with the output directory's instead.
 *
 * @module
 */
import { ensureDir } from "@std/fs";
import { dirname, join } from "@std/path";
import { GenerateError } from "./generate_error.ts";

/**
 * Writes `files` (name -> content) into `out`, or with `check` compares them with `out`'s.
 *
 * @param format run `deno fmt` on the TypeScript files before they are moved in
 * @param check write nothing; return the names of the files whose content in `out` differs
 *   (or that are missing there)
 * @returns the stale files in check mode, otherwise `[]`
 * @throws GenerateError when formatting fails; `out` is then untouched
 */
export async function writeFiles(
  out: string,
  files: Map<string, string>,
  format: boolean,
  check = false,
): Promise<string[]> {
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
    if (check) {
      const stale: string[] = [];
      for (const name of files.keys()) {
        const committed = await Deno.readTextFile(join(out, name)).catch(() => undefined);
        if (committed !== await Deno.readTextFile(join(staging, name))) stale.push(name);
      }
      return stale;
    }
    await ensureDir(out);
    for (const name of files.keys()) {
      // A file whose content is unchanged is left alone: file watchers do not wake up.
      const current = await Deno.readTextFile(join(out, name)).catch(() => undefined);
      if (current === await Deno.readTextFile(join(staging, name))) continue;
      await Deno.rename(join(staging, name), join(out, name));
    }
    return [];
  } finally {
    await Deno.remove(staging, { recursive: true }).catch(() => {});
  }
}
