/**
 * `@mikrogql/ext/gen`: the generator. `generate(options)` walks a directory of MikroORM entity
 * modules and writes a Relay-compliant GraphQL API for GraphQL Yoga into `options.out`.
 *
 * @module
 */
import { relative, resolve } from "@std/path";
import type { GenerateOptions } from "./config.ts";
import type { Diagnostic } from "./diagnostics.ts";
import { Diagnostics } from "./diagnostics.ts";
import { emitMod, emitNode, emitResolvers, emitTypeDefs } from "./emit/node.ts";
import { emitTypes } from "./emit/types.ts";
import { emitMutationInput } from "./emit/mutation_input.ts";
import { emitWhereInput } from "./emit/where_input.ts";
import { emitCollection, emitEdges, emitEnums, emitPagination } from "./emit/tables.ts";
import { buildGraph, type Graph } from "./graph.ts";
import { applyGlobalIds } from "./ids.ts";
import { checkForeignKeyIndexes } from "./indexes.ts";
import { loadModel } from "./load.ts";
import { loadOrmConfig } from "./orm_config.ts";
import { printGraphSchema } from "./schema.ts";
import { writeFiles } from "./write.ts";

export {
  defineConfig,
  type GenerateConfig,
  type GenerateOptions,
  type OrmDiscoveryOptions,
} from "./config.ts";
export { type Diagnostic, type DiagnosticInput, formatDiagnostic } from "./diagnostics.ts";
export type { LoadedEntity } from "./load.ts";
export { GenerateError } from "./errors.ts";
export type {
  Graph,
  GraphEdge,
  GraphEnum,
  GraphField,
  GraphOrderField,
  GraphType,
} from "./graph.ts";
export type { GraphEmbeddable } from "./embeddables.ts";
export type { GraphMutationInput, GraphMutationInputField, GraphMutations } from "./mutations.ts";
export type { GraphWhereEdge, GraphWhereField, GraphWhereInput } from "./where.ts";

/** What `generate` wrote. */
export interface GenerateResult {
  /** The intermediate representation. */
  graph: Graph;
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
 * @throws GenerateError listing every problem of an invalid model, each naming the entity
 *   file and property (`diagnostics` holds them, and the run's warnings); nothing is written then.
 *   Also when there is no entity, or `ormConfig` cannot be imported.
 */
export async function generate(
  options: GenerateOptions,
): Promise<GenerateResult> {
  const out = resolve(options.out);
  const runtime = options.runtimeImport ?? "@mikrogql/ext";
  const diagnostics = new Diagnostics();
  const ormFile = options.ormConfig && resolve(options.ormConfig);
  const orm = { ...(ormFile ? await loadOrmConfig(ormFile) : {}), ...options.orm };
  const model = await loadModel(
    { dir: options.entities && resolve(options.entities), orm, ormFile },
    diagnostics,
  );
  if (options.log) {
    const modules = new Set(model.entities.map((e) => e.file)).size;
    console.log(`found ${model.entities.length} entities in ${modules} modules`);
  }
  const graph = buildGraph(model, Deno.cwd(), diagnostics);
  applyGlobalIds(graph, options.globalIds ?? "opaque", diagnostics);
  checkForeignKeyIndexes(graph, diagnostics);
  const sdl = printGraphSchema(graph) + "\n";
  const files = new Map<string, string>([
    ["schema.graphql", sdl],
    ["typedefs.ts", emitTypeDefs(sdl)],
    ["types.ts", emitTypes(graph, sdl, runtime)],
    ["node.ts", emitNode(graph, runtime, out)],
    ["collection.ts", emitCollection(graph, runtime)],
    ["edges.ts", emitEdges(graph, runtime)],
    ["pagination.ts", emitPagination(graph, runtime)],
    ["enums.ts", emitEnums(graph)],
    ["mutation_input.ts", emitMutationInput(graph, runtime)],
    ["where_input.ts", emitWhereInput(graph, runtime)],
    ["resolvers.ts", emitResolvers(runtime)],
    ["mod.ts", emitMod(runtime)],
  ]);
  const stale = await writeFiles(out, files, options.format ?? true, options.check);
  if (options.log) {
    const types = `${graph.types.length} node types (${graph.types.map((t) => t.name).join(", ")})`;
    const shown = relative(Deno.cwd(), out);
    const where = shown.startsWith("..") ? out : shown || ".";
    console.log(
      !options.check
        ? `wrote ${types} in ${files.size} files to ${where}`
        : stale.length
        ? `${where} is stale: ${stale.join(", ")} differ from a fresh generation of ${types}`
        : `${where} is up to date (${types})`,
    );
  }
  return {
    graph,
    out,
    files: [...files.keys()],
    stale: options.check ? stale : undefined,
    warnings: diagnostics.warnings,
  };
}
