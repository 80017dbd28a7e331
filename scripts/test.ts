/**
 * `deno task test`: runs every test suite, one after another, even when an earlier one failed,
 * then prints one line per suite and a total (`N passed, N failed`); exits 1 when any suite
 * failed (or ran no test file), 0 otherwise.
 *
 * The suites: `runtime` (tests/runtime: a test file per pure runtime module, no database or
 * server, so it runs first), `main` (tests/gen, tests/graphql, tests/server, tests/docs,
 * tests/subscriptions: generator, CLI, GraphQL over HTTP on SQLite, PostgreSQL and MariaDB, the
 * server helper, the docs' code blocks, subscriptions across servers), `replica` (tests/replica: the streaming
 * replica and PgBouncer of `.ci/replica.sh`; skipped with the reason when they are not running,
 * outside CI), `widget` (tests/widget: the search box in Chromium). Name suites to run only
 * those: `deno task test widget replica`.
 *
 * @module
 */
import { stripAnsiCode } from "@std/fmt/colors";

/** One `deno test` run. */
interface Suite {
  name: string;
  args: string[];
}

const SUITES: Suite[] = [
  { name: "runtime", args: ["--parallel", "tests/runtime"] },
  {
    name: "main",
    args: [
      "--parallel",
      "tests/gen",
      "tests/graphql",
      "tests/server",
      "tests/docs",
      "tests/subscriptions",
    ],
  },
  { name: "replica", args: ["tests/replica"] },
  { name: "widget", args: ["tests/widget"] },
];

/** The counts of `deno test`'s closing line (`ok | 3 passed (2 steps) | 0 failed | 1 ignored`). */
interface Counts {
  passed: number;
  failed: number;
  ignored: number;
}

/** The counts in a closing line of `deno test`, or `undefined` for any other line. */
export function closingCounts(line: string): Counts | undefined {
  const plain = stripAnsiCode(line);
  const match = /^(?:ok|FAILED) \| (\d+) passed.*?\| (\d+) failed(?:.*?\| (\d+) ignored)?/.exec(
    plain,
  );
  if (!match) return undefined;
  return { passed: Number(match[1]), failed: Number(match[2]), ignored: Number(match[3] ?? 0) };
}

/** How many lines of a failed suite's `ERRORS` section the summary repeats. */
const REPEATED_ERROR_LINES = 150;

/**
 * Collects the report `deno test` prints after a failure: every line from its ` ERRORS `
 * header to its closing line, the header included (so a CI log cut to its tail still names
 * the failing tests).
 */
export class FailureReport {
  #lines: string[] = [];
  #inside = false;

  /** Takes one output line (with or without colours). */
  add(line: string): void {
    const plain = stripAnsiCode(line);
    if (plain.trim() === "ERRORS") this.#inside = true;
    if (this.#inside && closingCounts(plain)) this.#inside = false;
    if (this.#inside) this.#lines.push(plain);
  }

  /** The collected lines, at most `limit` of them, and how many were left off. */
  lines(limit = REPEATED_ERROR_LINES): { lines: string[]; leftOff: number } {
    return {
      lines: this.#lines.slice(0, limit),
      leftOff: Math.max(0, this.#lines.length - limit),
    };
  }
}

/** Runs one suite, copying its output through; its counts, exit code and failure report. */
async function run(
  suite: Suite,
): Promise<{ counts?: Counts; code: number; failures: FailureReport }> {
  console.log(`\n== ${suite.name}: deno test -A ${suite.args.join(" ")}`);
  const child = new Deno.Command(Deno.execPath(), {
    args: ["test", "-A", ...suite.args],
    stdout: "piped",
    stderr: "inherit",
    stdin: "null",
  }).spawn();
  let counts: Counts | undefined;
  const failures = new FailureReport();
  let rest = "";
  const decoder = new TextDecoder();
  for await (const chunk of child.stdout) {
    await Deno.stdout.write(chunk);
    const lines = (rest + decoder.decode(chunk, { stream: true })).split("\n");
    rest = lines.pop() ?? "";
    for (const line of lines) {
      failures.add(line);
      counts = closingCounts(line) ?? counts;
    }
  }
  failures.add(rest);
  counts = closingCounts(rest) ?? counts;
  return { counts, code: (await child.status).code, failures };
}

async function main(names: string[]): Promise<number> {
  const unknown = names.filter((n) => !SUITES.some((s) => s.name === n));
  if (unknown.length) {
    console.error(`unknown suite ${unknown.join(", ")}: one of ${SUITES.map((s) => s.name)}`);
    return 2;
  }
  const chosen = names.length ? SUITES.filter((s) => names.includes(s.name)) : SUITES;
  const results = [];
  for (const suite of chosen) results.push({ suite, ...await run(suite) });
  for (const { suite, failures } of results) {
    const { lines, leftOff } = failures.lines();
    if (!lines.length) continue;
    console.log(`\n== ${suite.name}: what failed (repeated from above)`);
    for (const line of lines) console.log(line);
    if (leftOff) console.log(`... ${leftOff} more lines above`);
  }
  console.log("\n== summary");
  const total: Counts = { passed: 0, failed: 0, ignored: 0 };
  let failedSuites = 0;
  for (const { suite, counts, code } of results) {
    const ok = code === 0 && counts !== undefined;
    if (!ok) failedSuites++;
    if (counts) {
      total.passed += counts.passed;
      total.failed += counts.failed;
      total.ignored += counts.ignored;
    }
    const figures = counts
      ? `${counts.passed} passed, ${counts.failed} failed, ${counts.ignored} ignored`
      : "no closing line";
    console.log(`${suite.name}: ${ok ? "ok" : `FAILED (exit ${code})`}: ${figures}`);
  }
  // A suite that crashed before its closing line counts as one failure.
  const crashed = results.filter((r) => r.code !== 0 && (r.counts?.failed ?? 0) === 0).length;
  console.log(
    `${total.passed} passed, ${total.failed + crashed} failed, ${total.ignored} skipped`,
  );
  return failedSuites ? 1 : 0;
}

if (import.meta.main) Deno.exit(await main(Deno.args));
