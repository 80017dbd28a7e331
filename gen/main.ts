/**
 * The generator's command line (`deno task generate`, or
 * `deno run -A jsr:@mikrogql/ext/gen/main`); `--help` describes every option:
 *
 * ```sh
 * deno run -A jsr:@mikrogql/ext/gen/main --config gen.config.ts
 * deno run -A jsr:@mikrogql/ext/gen/main --entities ./entities --out ./generated --global-ids raw
 * deno run -A jsr:@mikrogql/ext/gen/main --orm-config mikro-orm.config.ts --out ./generated
 * deno run -A jsr:@mikrogql/ext/gen/main --check   # CI: exit 1 when ./generated is stale
 * deno run -A jsr:@mikrogql/ext/gen/main --watch   # regenerate on entity changes
 * deno run -A jsr:@mikrogql/ext/gen/main --init    # a starter project in an empty folder
 * ```
 *
 * Exit status: 0 done, 1 invalid model (every problem listed) or stale output (`--check`), 2 bad
 * usage, a missing --entities/--orm-config path, a bad config file or (`--init`) a starter file
 * that already exists. Errors are one line each on
 * stderr; on a terminal they are coloured (unless `NO_COLOR`) and a progress line shows the step.
 *
 * @module
 */
import { parseArgs } from "@std/cli/parse-args";
import { debounce } from "@std/async/debounce";
import { exists } from "@std/fs/exists";
import { dirname, relative, resolve, toFileUrl } from "@std/path";
import type { GenerateConfig, GenerateOptions } from "./config.ts";
import { childConfig, findDenoConfig } from "./deno_config.ts";
import { CliOutput } from "./cli_output.ts";
import { didYouMean } from "./did_you_mean.ts";
import { withArticle } from "./english.ts";
import { writeStarter } from "./init.ts";
import { generate, GenerateError } from "./mod.ts";
import { VERSION } from "./version.ts";

const HELP =
  `mikrogql generate ${VERSION}: a Relay GraphQL API (GraphQL Yoga + MikroORM) from MikroORM entities

usage: deno task generate [options]
       deno run -A jsr:@mikrogql/ext/gen/main [options]

options (each also a key of the config module, in camelCase):
  -c, --config FILE          generator config module; its default export is a GenerateConfig
                             (defineConfig), paths relative to it. Default: ./gen.config.ts when
                             it exists. Flags override its options.
  -e, --entities DIR         directory of MikroORM entity modules, walked recursively
  -o, --out DIR              output directory; written all at once, nothing on error
      --orm-config FILE      a MikroORM config module (mikro-orm.config.ts) used as is: its
                             metadataProvider, discovery, namingStrategy and embeddables options,
                             and its entities/entitiesTs when --entities is not given
      --policies FILE        the module of the policies given to createSchema (its export
                             policies, or default): fields with a field rule are nullable in the
                             generated schema.graphql and types.ts, as the server serves them
      --global-ids FORMAT    opaque (default) | universal | raw   (also --globalIds)
      --runtime-import SPEC  module the generated code imports the runtime from
                             (default @mikrogql/ext)
      --no-format            do not run deno fmt on the generated TypeScript
      --deno-config FILE     deno.json whose import map and compilerOptions load the entity
                             modules. Default: the nearest deno.json(c) from the working directory
      --check                write nothing; exit 1 when the files in --out differ from a fresh
                             generation (for CI)
  -w, --watch                generate, then regenerate whenever an entity module or config
                             changes (Ctrl-C stops)
      --init                 write a starter project into the working directory (deno.json,
                             two entities, server.ts; see README), then exit; existing files
                             are never overwritten
  -q, --quiet                print errors and warnings only
  -h, --help                 print this help
  -V, --version              print the version

exit status: 0 done, 1 invalid model or stale output (--check), 2 bad usage, a missing path,
a bad config or a starter file that exists (--init)`;

/** Set in the child processes the CLI starts; they generate once, in-process. */
const CHILD = "MIKROGQL_GEN_CHILD";

class UsageError extends Error {}

async function main(argv: string[]): Promise<number> {
  const output = new CliOutput(undefined, !argv.some((a) => a === "-q" || a === "--quiet"));
  try {
    return await run(argv, output);
  } catch (error) {
    if (error instanceof UsageError) {
      output.usage(error.message);
      return 2;
    }
    if (error instanceof GenerateError) {
      output.diagnostics(
        error.diagnostics.length
          ? error.diagnostics
          : [{ severity: "error", message: error.message }],
      );
      output.note("nothing was written");
      return 1;
    }
    throw error;
  }
}

/** The command line's flags. */
type ParsedArgs = ReturnType<typeof parseArguments>;

/**
 * `argv` parsed (`@std/cli`).
 *
 * @throws UsageError for an unknown option
 */
function parseArguments(argv: string[]) {
  return parseArgs(argv, {
    string: [
      "config",
      "entities",
      "out",
      "orm-config",
      "policies",
      "global-ids",
      "runtime-import",
      "deno-config",
    ],
    boolean: ["format", "check", "watch", "init", "quiet", "help", "version"],
    negatable: ["format"],
    default: { format: undefined },
    alias: {
      c: "config",
      e: "entities",
      o: "out",
      w: "watch",
      q: "quiet",
      h: "help",
      V: "version",
      globalIds: "global-ids",
      runtimeImport: "runtime-import",
      ormConfig: "orm-config",
    },
    unknown: (arg) => {
      const name = arg.replace(/^-+/, "").replace(/=.*$/, "");
      const hint = arg.startsWith("-") ? didYouMean(name, FLAGS, "") : "";
      throw new UsageError(
        `unknown option ${arg}${hint.replace(/did you mean (\S+)\?/, "did you mean --$1?")}`,
      );
    },
  });
}

/** The long flags, for "did you mean" (their camelCase spellings are aliases, not listed). */
const FLAGS = [
  "config",
  "entities",
  "out",
  "orm-config",
  "policies",
  "global-ids",
  "runtime-import",
  "deno-config",
  "format",
  "no-format",
  "check",
  "watch",
  "init",
  "quiet",
  "help",
  "version",
];

async function run(argv: string[], output: CliOutput): Promise<number> {
  const args = parseArguments(argv);
  if (args.help) {
    console.log(HELP);
    return 0;
  }
  if (args.version) {
    console.log(VERSION);
    return 0;
  }
  if (args.init) {
    const written = await writeStarter(Deno.cwd()).catch((error) => {
      throw new UsageError(`--init: ${(error as Error).message}; nothing was written`);
    });
    output.done(`wrote ${written.join(", ")}`);
    output.info("next: deno task generate, then deno task start");
    return 0;
  }
  // A child generates once: the watching parent started it.
  const watching = args.watch && !Deno.env.get(CHILD);
  if (args.check && watching) throw new UsageError("--check and --watch exclude each other");
  if (args["deno-config"] && !await exists(args["deno-config"], { isFile: true })) {
    throw new UsageError(`--deno-config ${args["deno-config"]}: no such file`);
  }
  const denoConfig = args["deno-config"] ?? await findDenoConfig(Deno.cwd());
  const child = !Deno.env.get(CHILD) && denoConfig
    ? await childConfig(resolve(denoConfig), import.meta.url).catch((error) => {
      throw new UsageError((error as Error).message);
    })
    : undefined;
  if (watching || child) {
    // The process that generates is the one that reads the config module, once: it is
    // imported with the project's import map and compiler options there, not here.
    try {
      return watching ? await watch(child?.path, argv) : await spawn(child?.path, argv);
    } finally {
      await child?.remove();
    }
  }
  const { options, file } = await resolveOptions(args);
  const watchedFile = Deno.env.get(WATCHED);
  if (watchedFile) {
    const watched: Watched = {
      paths: [options.entities, file, options.ormConfig, options.policies]
        .filter((p): p is string => !!p)
        .map((p) => resolve(p)),
      out: resolve(options.out),
      log: options.log ?? false,
    };
    await Deno.writeTextFile(watchedFile, JSON.stringify(watched));
  }
  return await once(options, output);
}

/**
 * The generation's options: the config module's (read here, once per generation), overridden
 * by the flags, and the config module's path.
 *
 * @throws UsageError for a bad config module, option value, or a missing `out` or entities
 */
async function resolveOptions(
  args: ParsedArgs,
): Promise<{ options: GenerateOptions; file?: string }> {
  const config = await readConfig(args.config);
  const options: Partial<GenerateOptions> = {
    ...config.options,
    entities: args.entities ?? config.options.entities,
    out: args.out ?? config.options.out,
    ormConfig: args["orm-config"] ?? config.options.ormConfig,
    policies: args.policies ?? config.options.policies,
    globalIds: (args["global-ids"] as GenerateOptions["globalIds"]) ?? config.options.globalIds,
    runtimeImport: args["runtime-import"] ?? config.options.runtimeImport,
    format: args.format ?? config.options.format,
    check: args.check || config.options.check,
    log: args.quiet ? false : config.options.log ?? true,
  };
  if (options.globalIds && !GLOBAL_IDS.includes(options.globalIds)) {
    throw new UsageError(
      `--global-ids must be one of ${GLOBAL_IDS.join(", ")}, got "${options.globalIds}"`,
    );
  }
  const out = options.out;
  if (!out) throw new UsageError("missing --out (or a --config that sets out)");
  if (options.entities && !await exists(options.entities, { isDirectory: true })) {
    throw new UsageError(`--entities ${options.entities}: no such directory`);
  }
  if (options.ormConfig && !await exists(options.ormConfig, { isFile: true })) {
    throw new UsageError(`--orm-config ${options.ormConfig}: no such file`);
  }
  if (options.policies && !await exists(options.policies, { isFile: true })) {
    throw new UsageError(`--policies ${options.policies}: no such file`);
  }
  if (!options.entities && !options.ormConfig && !options.orm?.entities) {
    throw new UsageError(
      "missing --entities or --orm-config (or a --config that sets entities, ormConfig or orm)",
    );
  }
  return { options: { ...options, out }, file: config.file };
}

/** Generates in this process; prints warnings, progress and the time taken. */
async function once(options: GenerateOptions, output: CliOutput): Promise<number> {
  const started = performance.now();
  const result = await generate(options, {
    step: (name) => output.step(name),
    info: (line) => output.info(line),
  });
  output.diagnostics(result.warnings);
  if (options.log) output.done(`done in ${Math.round(performance.now() - started)} ms`);
  return result.stale?.length ? 1 : 0;
}

/**
 * Runs this CLI again in a child process (which generates once) with the given Deno config.
 *
 * @param env extra environment variables of the child
 */
async function spawn(
  config: string | undefined,
  args: string[],
  env: Record<string, string> = {},
): Promise<number> {
  const { code } = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      "--no-lock",
      ...(config ? ["--config", config] : []),
      import.meta.url,
      ...args,
    ],
    env: { ...env, [CHILD]: "1" },
    stdin: "null",
  }).spawn().status;
  return code;
}

/**
 * `--watch`: generates (in a fresh process each time, so changed modules are imported anew),
 * then again whenever a module under the entity directory or a config module changes. The
 * first child says what to watch ({@linkcode Watched}); when it could not read the config
 * module, its exit status is the result.
 */
async function watch(denoConfig: string | undefined, argv: string[]): Promise<number> {
  const watchedFile = await Deno.makeTempFile({ prefix: "mikrogql-watch-", suffix: ".json" });
  let watched: Watched;
  try {
    const code = await spawn(denoConfig, argv, { [WATCHED]: watchedFile });
    const text = await Deno.readTextFile(watchedFile);
    if (!text) return code;
    watched = JSON.parse(text);
  } finally {
    await Deno.remove(watchedFile).catch(() => {});
  }
  const { paths, out, log } = watched;
  const watching = () => {
    if (log) console.log(`watching ${paths.map((p) => relative(Deno.cwd(), p)).join(", ")}`);
  };
  let running = Promise.resolve();
  const regenerate = () => {
    running = running.then(async () => {
      await spawn(denoConfig, argv);
      watching();
    });
  };
  const later = debounce(regenerate, 100);
  const watcher = Deno.watchFs(paths, { recursive: true });
  watching();
  Deno.addSignalListener("SIGINT", () => watcher.close());
  for await (const event of watcher) {
    if (event.paths.some((p) => !p.startsWith(out) && /\.(ts|mts|js|mjs)$/.test(p))) later();
  }
  await running;
  return 0;
}

/**
 * What a watching parent watches, as the first child it starts resolved it from the config
 * module and the flags (absolute paths).
 */
interface Watched {
  /**
   * The entity directory, the config module, the MikroORM config module and the policies module,
   * those given.
   */
  paths: string[];
  /** The output directory, whose changes are not the user's. */
  out: string;
  /** Print the "watching" lines. */
  log: boolean;
}

/** The file a child writes its {@linkcode Watched} to, set by a watching parent. */
const WATCHED = "MIKROGQL_GEN_WATCHED";

/** The config module's options (paths made relative to the working directory) and its path. */
async function readConfig(
  flag: string | undefined,
): Promise<{ options: Partial<GenerateConfig>; file?: string }> {
  const file = flag ??
    (await exists("gen.config.ts", { isFile: true }) ? "gen.config.ts" : undefined);
  if (!file) return { options: {} };
  const path = resolve(file);
  if (!await exists(path, { isFile: true })) throw new UsageError(`--config ${file}: no such file`);
  let module: Record<string, unknown>;
  try {
    module = await import(toFileUrl(path).href);
  } catch (error) {
    throw new UsageError(
      `--config ${file}: cannot import: ${String((error as Error).message).split("\n")[0]}`,
    );
  }
  const loaded = module.default;
  if (!loaded || typeof loaded !== "object") {
    throw new UsageError(
      `--config ${file}: the module must export default a config object (defineConfig({...}))`,
    );
  }
  const options = loaded as Record<string, unknown>;
  for (const [key, value] of Object.entries(options)) {
    const expected = CONFIG_KEYS[key];
    if (!expected) {
      throw new UsageError(
        `--config ${file}: unknown option "${key}"${
          didYouMean(key, Object.keys(CONFIG_KEYS))
        } (one of ${Object.keys(CONFIG_KEYS).join(", ")})`,
      );
    }
    if (value !== undefined && typeof value !== expected) {
      throw new UsageError(`--config ${file}: option "${key}" must be ${withArticle(expected)}`);
    }
  }
  const base = dirname(path);
  const at = (p: unknown) => typeof p === "string" ? resolve(base, p) : undefined;
  return {
    file: path,
    options: {
      ...options,
      entities: at(options.entities),
      out: at(options.out),
      ormConfig: at(options.ormConfig),
      policies: at(options.policies),
    },
  };
}

const GLOBAL_IDS = ["opaque", "universal", "raw"];

/** The keys of a config module's default export and their `typeof`. */
const CONFIG_KEYS: Record<string, string> = {
  entities: "string",
  out: "string",
  runtimeImport: "string",
  globalIds: "string",
  format: "boolean",
  orm: "object",
  ormConfig: "string",
  policies: "string",
  check: "boolean",
  log: "boolean",
};

if (import.meta.main) Deno.exit(await main(Deno.args));
