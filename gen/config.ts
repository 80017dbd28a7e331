/**
 * Generator options and the config module format.
 *
 * @module
 */
import type { GlobalIdFormat } from "../runtime/graph.ts";

/** Options of `generate`. Paths are absolute, or relative to the current directory. */
export interface GenerateOptions {
  /** Directory holding the MikroORM entity modules. Walked recursively. */
  entities: string;
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
  /** Print what was generated to stdout. Default `false` (the CLI turns it on). */
  log?: boolean;
}

/**
 * A config module's default export: {@linkcode GenerateOptions} whose paths are relative to the
 * config file.
 */
export type GenerateConfig = GenerateOptions;

/** Identity helper that types a config module's default export. */
export function defineConfig(config: GenerateConfig): GenerateConfig {
  return config;
}
