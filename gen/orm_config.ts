/**
 * A project's MikroORM config module (`mikro-orm.config.ts`), read as MikroORM's CLI reads it:
 * the default export is the options object, or a function or promise that gives it.
 *
 * @module
 */
import { toFileUrl } from "@std/path";
import type { OrmDiscoveryOptions } from "./config.ts";
import { GenerateError } from "./generate_error.ts";

/**
 * Imports the MikroORM config module at `file` (absolute) and returns its options.
 *
 * @throws GenerateError naming the file when it cannot be imported or exports no options object
 */
export async function loadOrmConfig(file: string): Promise<OrmDiscoveryOptions> {
  let module: Record<string, unknown>;
  try {
    module = await import(toFileUrl(file).href);
  } catch (error) {
    throw new GenerateError(`${file}: cannot import the MikroORM config: ${firstLine(error)}`);
  }
  let options = module.default ?? module.config;
  if (typeof options === "function") options = await options();
  options = await options;
  if (!options || typeof options !== "object") {
    throw new GenerateError(
      `${file}: a MikroORM config module must export default its options (an object, or a function or promise giving one)`,
    );
  }
  return options as OrmDiscoveryOptions;
}

function firstLine(error: unknown): string {
  return String((error as Error)?.message ?? error).split("\n")[0];
}
