/**
 * Generator options and the config module format.
 *
 * @module
 */

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
