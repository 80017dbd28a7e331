/**
 * Builds the browser tests share: `deno test` runs each test file in a realm of its own, so a
 * module-level promise built the search box's bundle (and DocSearch's) once per file, some 25
 * `deno bundle` runs per suite. A build here is kept in the system's temporary directory under a
 * SHA-256 of its inputs' contents (and Deno's version): the files of one run, and later runs over
 * unchanged sources, reuse it; a changed input is a new key.
 *
 * @module
 */
import { tmpdir } from "node:os";
import { encodeHex } from "@std/encoding/hex";
import { walk } from "@std/fs/walk";
import { fromFileUrl, join, relative } from "@std/path";

const ROOT = fromFileUrl(new URL("../..", import.meta.url));

/** The SHA-256 (hex) of Deno's version and every file of `inputs` (paths under the repository: files or directories), by path and content. */
async function inputsKey(inputs: string[]): Promise<string> {
  const files: string[] = [];
  for (const input of inputs) {
    const path = join(ROOT, input);
    if ((await Deno.stat(path)).isFile) files.push(path);
    else for await (const entry of walk(path, { includeDirs: false })) files.push(entry.path);
  }
  files.sort();
  const parts: Uint8Array[] = [new TextEncoder().encode(Deno.version.deno)];
  for (const file of files) {
    parts.push(new TextEncoder().encode(`\0${relative(ROOT, file)}\0`));
    parts.push(await Deno.readFile(file));
  }
  const all = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    all.set(part, at);
    at += part.length;
  }
  return encodeHex(await crypto.subtle.digest("SHA-256", all));
}

/**
 * The directory `build` wrote for these `inputs` (repository paths whose contents decide the
 * output), built now unless an earlier build of the same inputs is kept. `build` writes into a
 * new directory it is given; it is then renamed into place, so a build that fails or is
 * interrupted is never reused. A test may add files to the directory, never change or remove one.
 *
 * @throws what `build` throws
 */
export async function cachedBuild(
  name: string,
  inputs: string[],
  build: (dir: string) => Promise<void>,
): Promise<string> {
  const parent = join(tmpdir(), "mikrogql-test-builds");
  const dir = join(parent, `${name}-${await inputsKey(inputs)}`);
  if (await exists(dir)) return dir;
  await Deno.mkdir(parent, { recursive: true });
  const fresh = await Deno.makeTempDir({ dir: parent, prefix: `${name}.building-` });
  try {
    await build(fresh);
    await Deno.rename(fresh, dir);
  } catch (error) {
    await Deno.remove(fresh, { recursive: true }).catch(() => {});
    // Another process built the same inputs meanwhile: theirs is as good.
    if (await exists(dir)) return dir;
    throw error;
  }
  return dir;
}

async function exists(path: string): Promise<boolean> {
  return await Deno.stat(path).then(() => true, () => false);
}
