/**
 * Generator options and the config module format.
 *
 * @module
 */
import type { Options } from "@mikro-orm/core";
import type { GlobalIdFormat } from "../runtime/graph.ts";

/**
 * The MikroORM options the generator's metadata discovery takes from a project's MikroORM config
 * (`orm` or `ormConfig`); connection options are ignored (discovery runs on an in-memory SQLite
 * driver without connecting). `entitiesTs` or else `entities` (class references, `EntitySchema`s,
 * or paths and globs relative to `baseDir`, default the working directory, as MikroORM resolves
 * them) is used when no entity directory is given.
 */
export type OrmDiscoveryOptions = Partial<
  Pick<
    Options,
    | "metadataProvider"
    | "discovery"
    | "namingStrategy"
    | "embeddables"
    | "entities"
    | "entitiesTs"
    | "baseDir"
  >
>;

/** Options of `generate`. Paths are absolute, or relative to the current directory. */
export interface GenerateOptions {
  /**
   * Directory holding the MikroORM entity modules. Walked recursively. Optional when `orm` or
   * `ormConfig` lists the entities.
   */
  entities?: string;
  /** Output directory for the generated files. Created when missing. */
  out: string;
  /**
   * Module specifier generated code imports the runtime from. Default `"@mikrogql/ext"`.
   */
  runtimeImport?: string;
  /**
   * How global ids are made: `opaque` (default, base64url of type and key), `universal`
   * (integer keys in one 2^32 range per type, see `setupUniversalIds`) or `raw` (the UUID or
   * prefixed-ULID key itself, typed by `IdPrefix` or the `nodeType` hook).
   */
  globalIds?: GlobalIdFormat;
  /** Run `deno fmt` on the generated TypeScript. Default `true`. */
  format?: boolean;
  /**
   * MikroORM options for metadata discovery (`metadataProvider: ReflectMetadataProvider` for
   * legacy decorators, `discovery`, `namingStrategy`, `entities`), e.g. a project's MikroORM
   * config object as is.
   */
  orm?: OrmDiscoveryOptions;
  /**
   * Path of a MikroORM config module (`mikro-orm.config.ts`) whose default export (an options
   * object, or a function or promise giving one) is used as `orm`; `orm` wins where both set an
   * option.
   */
  ormConfig?: string;
  /**
   * Path of the module holding the policies the server hands to `createSchema({ policies })`
   * (its export `policies`, else its default export: an array of `definePolicy` results). The
   * fields their field rules name are then nullable in the generated `schema.graphql`,
   * `typedefs.ts` and `types.ts`, as the served schema makes them; without it those files show
   * them non-null, and the served schema (`printSchema(createSchema({ policies }))`) is the truth.
   */
  policies?: string;
  /**
   * Compare instead of write: nothing is written, and `GenerateResult.stale` lists the files
   * of `out` that differ from a fresh generation. Default `false`.
   */
  check?: boolean;
  /** Print progress lines (entities found, types and files written) to stdout. Default `false`. */
  log?: boolean;
}

/**
 * A config module's default export: {@linkcode GenerateOptions} whose paths are relative to the
 * config file.
 */
export type GenerateConfig = GenerateOptions;

/**
 * Identity helper that types a config module's default export.
 *
 * @example `gen.config.ts`, run with `deno run -A jsr:@mikrogql/ext/gen/main --config gen.config.ts`
 * ```ts
 * import { defineConfig } from "@mikrogql/ext/gen";
 *
 * export default defineConfig({
 *   entities: "./entities", // relative to this file
 *   out: "./generated",
 *   globalIds: "opaque",
 * });
 * ```
 *
 * @returns `config`, unchanged
 */
export function defineConfig(config: GenerateConfig): GenerateConfig {
  return config;
}
