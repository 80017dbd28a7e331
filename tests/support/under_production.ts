/**
 * Runs a check under `NODE_ENV=production` in a process of its own. `deno test --parallel` runs
 * test files as workers of one process, which share its environment: a test that set
 * `NODE_ENV` itself would change what every other test's servers (GraphiQL, introspection,
 * suggestions) and spawned examples see meanwhile (a CI run's example started with GraphiQL off
 * that way). So no test sets it: it exports the check and calls `underProduction`.
 *
 * @module
 */

/**
 * Imports `module` in a new `deno run -A` process with `NODE_ENV=production` (and `env`) and
 * awaits its export `name` (a function of no arguments).
 *
 * @throws Error with the process's output when the function throws (or the process exits non-zero)
 */
export async function underProduction(
  module: string,
  name: string,
  env: Record<string, string> = {},
): Promise<void> {
  const script = `import { ${name} } from ${JSON.stringify(module)}; await ${name}();`;
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["eval", "--ext=ts", script],
    env: { ...env, NODE_ENV: "production" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder();
  const printed = `${text.decode(output.stdout)}${text.decode(output.stderr)}`;
  if (printed.trim()) console.log(printed.trimEnd());
  if (!output.success) {
    throw new Error(`${name} failed under NODE_ENV=production (exit ${output.code})`);
  }
}
