/**
 * The package version the generator prints for `--version` (kept equal to `deno.json`'s
 * `version` by tests/gen/cli_test.ts, which compares `--version` with it).
 *
 * @module
 */

/** `@mikrogql/ext`'s version. */
export const VERSION = "0.1.0";
