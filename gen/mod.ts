/**
 * `@mikrogql/ext/gen`: the generator. `generate(options)` walks a directory of MikroORM entity
 * modules and writes a Relay-compliant GraphQL API for GraphQL Yoga into `options.out`.
 *
 * @module
 */
import { printSchema } from "graphql";
import { relative, resolve } from "@std/path";
import type { GenerateOptions } from "./config.ts";
import type { Diagnostic } from "./generate_error.ts";
import { Diagnostics } from "./diagnostics.ts";
import { count } from "./english.ts";
import { emitMod, emitNode, emitResolvers, emitTypeDefs } from "./emit/node.ts";
import { emitTypes } from "./emit/types.ts";
import { emitMutationInput } from "./emit/mutation_input.ts";
import { emitWhereInput } from "./emit/where_input.ts";
import { emitCollection, emitEdges, emitEnums, emitPagination } from "./emit/tables.ts";
import { buildModel } from "./build_model.ts";
import { loadPolicies, nullableRuledFields } from "./policies_module.ts";
import { applyGlobalIds } from "./ids.ts";
import { checkForeignKeyIndexes } from "./indexes.ts";
import { loadModel } from "./load_entities.ts";
import { loadOrmConfig } from "./orm_config.ts";
import type { Model } from "./model.ts";
import { buildSchema } from "./schema.ts";
import { writeFiles } from "./write.ts";

export {
  defineConfig,
  type GenerateConfig,
  type GenerateOptions,
  type OrmDiscoveryOptions,
} from "./config.ts";
export { type DiagnosticInput, formatDiagnostic } from "./diagnostics.ts";
export type { LoadedEntity } from "./load_entities.ts";
export { type Diagnostic, GenerateError } from "./generate_error.ts";
export type {
  Model,
  ModelEdge,
  ModelEmbeddable,
  ModelEnum,
  ModelField,
  ModelMutationInput,
  ModelMutationInputField,
  ModelMutations,
  ModelOrderField,
  ModelType,
  ModelWhereEdge,
  ModelWhereField,
  ModelWhereInput,
} from "./model.ts";

/**
 * Where {@linkcode generate} reports to while it runs (the command line shows it on a terminal):
 * each step as it starts, and the report lines of `log: true`.
 */
export interface GenerateReporter {
  /** A step begins: `loading entities`, `building the model`, `writing the files`, ... */
  step(name: string): void;
  /** A report line (entities found, types and files written); only with `log: true`. */
  info(line: string): void;
}

/** What `generate` wrote. */
export interface GenerateResult {
  /** The intermediate representation. */
  model: Model;
  /** Absolute output directory. */
  out: string;
  /** Names of the files written (compared, in check mode), in write order. */
  files: string[];
  /** Check mode: the files of `out` that differ from this generation (empty: up to date). */
  stale?: string[];
  /**
   * The warnings of the run (e.g. an edge into a type that is not generated, an exposed
   * one-to-many edge whose foreign key has no index).
   */
  warnings: Diagnostic[];
}

/**
 * Generates the GraphQL API for the entities under `options.entities` (or listed by the MikroORM
 * options `orm`/`ormConfig`) into `options.out`; with `options.check`, compares instead.
 *
 * @example A build script: regenerate, or in CI fail when the committed output is stale
 * ```ts
 * import { formatDiagnostic, generate, GenerateError } from "@mikrogql/ext/gen";
 *
 * try {
 *   const result = await generate({
 *     entities: "./entities",
 *     out: "./generated",
 *     check: Deno.args.includes("--ci"), // compare, write nothing
 *   });
 *   for (const warning of result.warnings) console.warn(formatDiagnostic(warning));
 *   if (result.stale?.length) {
 *     console.error(`stale: ${result.stale.join(", ")}; run the generator`);
 *     Deno.exit(1);
 *   }
 * } catch (error) {
 *   if (!(error instanceof GenerateError)) throw error;
 *   console.error(error.message); // every problem, one a line, naming file, entity and property
 *   Deno.exit(1);
 * }
 * ```
 *
 * @param reporter told each step as it starts and given the report lines of `log: true`
 *   (default: none, and `console.log`)
 * @throws GenerateError listing every problem of an invalid model, each naming the entity
 *   file and property (`diagnostics` holds them, and the run's warnings); nothing is written then.
 *   Also when there is no entity, `ormConfig` cannot be imported, or `policies` cannot be
 *   imported, exports no policies or names a field its entity does not have.
 */
export async function generate(
  options: GenerateOptions,
  reporter: GenerateReporter = { step: () => {}, info: (line) => console.log(line) },
): Promise<GenerateResult> {
  reporter.step("loading entities");
  const out = resolve(options.out);
  const runtime = options.runtimeImport ?? "@mikrogql/ext";
  const diagnostics = new Diagnostics();
  const ormFile = options.ormConfig && resolve(options.ormConfig);
  const orm = { ...(ormFile ? await loadOrmConfig(ormFile) : {}), ...options.orm };
  const loaded = await loadModel(
    { dir: options.entities && resolve(options.entities), orm, ormFile },
    diagnostics,
  );
  if (options.log) {
    const modules = new Set(loaded.entities.map((e) => e.file)).size;
    reporter.info(
      `found ${count(loaded.entities.length, "entity")} in ${count(modules, "module")}`,
    );
  }
  reporter.step("building the model");
  const model = buildModel(loaded, Deno.cwd(), diagnostics);
  applyGlobalIds(model, options.globalIds ?? "opaque", diagnostics);
  checkForeignKeyIndexes(model, diagnostics);
  const schema = buildSchema(model);
  if (options.policies) {
    nullableRuledFields(schema, model, await loadPolicies(resolve(options.policies)));
  }
  const sdl = printSchema(schema) + "\n";
  const files = new Map<string, string>([
    ["schema.graphql", sdl],
    ["typedefs.ts", emitTypeDefs(sdl)],
    ["types.ts", emitTypes(model, sdl, runtime, diagnostics)],
    ["node.ts", emitNode(model, runtime, out)],
    ["collection.ts", emitCollection(model, runtime)],
    ["edges.ts", emitEdges(model, runtime)],
    ["pagination.ts", emitPagination(model, runtime, schema)],
    ["enums.ts", emitEnums(model)],
    ["mutation_input.ts", emitMutationInput(model, runtime)],
    ["where_input.ts", emitWhereInput(model, runtime, schema)],
    ["resolvers.ts", emitResolvers(runtime)],
    ["mod.ts", emitMod(runtime)],
  ]);
  reporter.step(options.check ? "comparing with the output directory" : "writing the files");
  const stale = await writeFiles(out, files, options.format ?? true, options.check);
  if (options.log) {
    const types = `${count(model.types.length, "node type")} (${
      model.types.map((t) => t.name).join(", ")
    })`;
    const shown = relative(Deno.cwd(), out);
    const where = shown.startsWith("..") ? out : shown || ".";
    reporter.info(
      !options.check
        ? `wrote ${types} in ${files.size} files to ${where}`
        : stale.length
        ? `${where} is stale: ${stale.join(", ")} differ from a fresh generation of ${types}`
        : `${where} is up to date (${types})`,
    );
  }
  return {
    model,
    out,
    files: [...files.keys()],
    stale: options.check ? stale : undefined,
    warnings: diagnostics.warnings,
  };
}
