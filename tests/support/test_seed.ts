/**
 * The seed of a random test: fixed unless asked otherwise, so `deno task test` (and CI) runs
 * the same inputs every time and a failure is a change in the code, not a new draw; more seeds
 * run apart with `deno task test:seeds` (`MIKROGQL_RANDOM_SEEDS=1`: a new seed per run).
 *
 * The seed is printed by every test that takes one (in its name), so a failing draw replays
 * with `<VARIABLE>=<seed>`, and then becomes a fixed case.
 *
 * @module
 */

/**
 * The seed of a random test: `Deno.env[variable]` when it is set (a number replays that run,
 * `random` draws one), a new random seed under `MIKROGQL_RANDOM_SEEDS=1`, else `fixed`.
 *
 * @param variable the environment variable that replays the test, e.g. `DIFF_SEED`
 * @param fixed the seed CI runs
 * @throws Error when the variable is set to neither a number nor `random`
 */
export function testSeed(variable: string, fixed: number): number {
  const given = Deno.env.get(variable);
  if (
    given === "random" || (given === undefined && Deno.env.get("MIKROGQL_RANDOM_SEEDS") === "1")
  ) {
    return Math.floor(Math.random() * 2 ** 31);
  }
  if (given === undefined) return fixed;
  const seed = Number(given);
  if (!Number.isSafeInteger(seed)) {
    throw new Error(
      `${variable} must be an integer seed or "random", got ${JSON.stringify(given)}`,
    );
  }
  return seed;
}
