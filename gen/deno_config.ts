/**
 * Running the generator with the user's import map. Deno resolves the bare specifiers of every
 * module of a process with ONE config: for `deno run path/to/gen/main.ts` the `deno.json` found
 * from the main module's directory, i.e. the package's own, not the project's. The entity
 * modules import the project's aliases (`@app/`, its `@mikro-orm/core`), and need its
 * `compilerOptions` (`experimentalDecorators`, `emitDecoratorMetadata`). So the CLI finds the
 * project's `deno.json` (from the working directory up, or `--deno-config`) and runs the
 * generation in a child `deno run --config <merged>`, where `<merged>` is the project's config
 * plus, when the generator runs from local files, an import map scope giving the generator's
 * own directory the package's imports. Both resolve `@mikro-orm/core` to one npm package as
 * long as their versions agree.
 *
 * @module
 */
import { exists } from "@std/fs/exists";
import { parse as parseJsonc } from "@std/jsonc";
import { dirname, fromFileUrl, join, resolve, toFileUrl } from "@std/path";
import { GenerateError } from "./generate_error.ts";

const NAMES = ["deno.json", "deno.jsonc"];

/** The nearest `deno.json`/`deno.jsonc` from `dir` up, or `undefined`. */
export async function findDenoConfig(dir: string): Promise<string | undefined> {
  for (let at = resolve(dir);; at = dirname(at)) {
    for (const name of NAMES) {
      const path = join(at, name);
      if (await exists(path, { isFile: true })) return path;
    }
    if (dirname(at) === at) return undefined;
  }
}

/**
 * The config the generation must run with when it is not the one this process runs with:
 * `undefined` when `userConfig` is the package's own (the generator's repository) or absent.
 *
 * @param userConfig the project's `deno.json` (absolute)
 * @param generatorUrl `import.meta.url` of the generator's main module
 * @returns the path to pass as `--config`, and a cleanup that removes it when it was written
 * @throws GenerateError naming the file when it is not valid JSON(C)
 */
export async function childConfig(
  userConfig: string,
  generatorUrl: string,
): Promise<{ path: string; remove: () => Promise<void> } | undefined> {
  if (!generatorUrl.startsWith("file:")) {
    // A published package resolves its own imports; the project's config is all it needs.
    return { path: userConfig, remove: () => Promise.resolve() };
  }
  const packageDir = fromFileUrl(new URL("../", generatorUrl));
  const packageConfig = join(packageDir, "deno.json");
  if (resolve(userConfig) === packageConfig) return undefined;
  const user = await readConfig(userConfig);
  const own = await readConfig(packageConfig);
  const ownImports = Object.fromEntries(
    Object.entries((own.imports ?? {}) as Record<string, string>).map(([key, value]) => [
      key,
      /^\.{1,2}\//.test(value) ? new URL(value, toFileUrl(packageConfig)).href : value,
    ]),
  );
  const merged = {
    ...user,
    scopes: {
      ...(user.scopes as Record<string, unknown> | undefined),
      [toFileUrl(packageDir).href]: ownImports,
    },
  };
  // Beside the project's config, so every relative path in it keeps its meaning.
  const path = join(dirname(userConfig), `.mikrogql-gen-${crypto.randomUUID().slice(0, 8)}.json`);
  await Deno.writeTextFile(path, JSON.stringify(merged, null, 2));
  return { path, remove: () => Deno.remove(path).catch(() => {}) };
}

async function readConfig(path: string): Promise<Record<string, unknown>> {
  try {
    return parseJsonc(await Deno.readTextFile(path)) as Record<string, unknown>;
  } catch (error) {
    throw new GenerateError(`${path}: cannot read the Deno config: ${(error as Error).message}`);
  }
}
