/**
 * The generator's command line:
 *
 * ```sh
 * deno run -A jsr:@mikrogql/ext/gen/main.ts --config gen.config.ts
 * deno run -A jsr:@mikrogql/ext/gen/main.ts --entities ./entities --out ./generated
 * ```
 *
 * `--config` names a module whose default export is a `GenerateConfig` (paths relative to it);
 * `--entities`/`--out` override it. Exits 1 with the message on an invalid model, 2 on bad usage.
 *
 * @module
 */
import { parseArgs } from "@std/cli/parse-args";
import { dirname, resolve, toFileUrl } from "@std/path";
import type { GenerateConfig } from "./config.ts";
import { type Diagnostic, formatDiagnostic, generate, GenerateError } from "./mod.ts";

const USAGE =
  `usage: generate [--config gen.config.ts] [--entities DIR] [--out DIR] [--runtime-import SPECIFIER]`;

async function main(argv: string[]): Promise<number> {
  const args = parseArgs(argv, {
    string: ["config", "entities", "out", "runtime-import"],
    boolean: ["help"],
    unknown: (arg) => {
      console.error(`unknown option ${arg}\n${USAGE}`);
      Deno.exit(2);
    },
  });
  if (args.help) {
    console.log(USAGE);
    return 0;
  }
  let config: Partial<GenerateConfig> = {};
  if (args.config) {
    const path = resolve(args.config);
    const loaded = (await import(toFileUrl(path).href)).default as
      | GenerateConfig
      | undefined;
    if (!loaded) {
      console.error(`${args.config}: the config module has no default export`);
      return 2;
    }
    const base = dirname(path);
    config = {
      ...loaded,
      entities: loaded.entities && resolve(base, loaded.entities),
      out: loaded.out && resolve(base, loaded.out),
    };
  }
  const entities = args.entities ?? config.entities;
  const out = args.out ?? config.out;
  if (!entities || !out) {
    console.error(
      `missing --entities or --out (or a --config that sets them)\n${USAGE}`,
    );
    return 2;
  }
  const started = performance.now();
  let warnings: readonly Diagnostic[];
  try {
    ({ warnings } = await generate({
      ...config,
      entities,
      out,
      runtimeImport: args["runtime-import"] ?? config.runtimeImport,
      log: true,
    }));
  } catch (error) {
    if (error instanceof GenerateError) {
      report(
        error.diagnostics.length
          ? error.diagnostics
          : [{ severity: "error", message: error.message }],
      );
      console.error("nothing was written");
      return 1;
    }
    throw error;
  }
  report(warnings);
  console.log(`  took ${Math.round(performance.now() - started)} ms`);
  return 0;
}

/** Prints each diagnostic on stderr as `error: file: Entity.prop: message`. */
function report(diagnostics: readonly Diagnostic[]): void {
  for (const d of diagnostics) console.error(`${d.severity}: ${formatDiagnostic(d)}`);
}

if (import.meta.main) Deno.exit(await main(Deno.args));
