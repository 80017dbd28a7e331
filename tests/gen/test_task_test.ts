/**
 * `deno task test` (scripts/test.ts) in a folder of made-up suites: a failing first suite does
 * not stop the later ones, the summary names every suite's result, the total line counts all of
 * them, the failing test's error is repeated after the last suite (a log cut to its tail still
 * names it), and the exit status is 1; all passing is 0; an unknown suite name is usage (2).
 */
import { assertEquals, assertMatch, assertStringIncludes } from "@std/assert";
import { join } from "@std/path";

const SCRIPT = new URL("../../scripts/test.ts", import.meta.url).pathname;

async function project(files: Record<string, string>): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "mikrogql-test-task-" });
  for (const [path, text] of Object.entries(files)) {
    await Deno.mkdir(join(dir, path, ".."), { recursive: true });
    await Deno.writeTextFile(join(dir, path), text);
  }
  await Deno.writeTextFile(join(dir, "deno.json"), "{}");
  return dir;
}

async function runTask(cwd: string, args: string[] = []) {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", SCRIPT, ...args],
    cwd,
    env: { NO_COLOR: "1" },
  }).output();
  const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
  return { code: out.code, text };
}

const PASS = `Deno.test("passes", () => {});\n`;
const FAIL = `Deno.test("fails", () => { throw new Error("boom"); });\n`;

Deno.test("test task: a failing suite does not stop the others; all are reported", async () => {
  const dir = await project({
    "tests/runtime/plan/p_test.ts": PASS,
    "tests/gen/a_test.ts": PASS,
    "tests/graphql/b_test.ts": FAIL,
    "tests/server/s_test.ts": PASS,
    "tests/docs/d_test.ts": PASS,
    "tests/subscriptions/x_test.ts": PASS,
    "tests/replica/r_test.ts": `Deno.test({ name: "r", ignore: true, fn: () => {} });\n`,
    "tests/widget/w_test.ts": `Deno.test("widget ran", () => {});\n`,
  });
  try {
    const { code, text } = await runTask(dir);
    assertEquals(code, 1, text);
    assertStringIncludes(text, "widget ran");
    assertMatch(text, /^runtime: ok: 1 passed, 0 failed, 0 ignored$/m);
    assertMatch(text, /^main: FAILED \(exit 1\): 4 passed, 1 failed, 0 ignored$/m);
    assertMatch(text, /^replica: ok: 0 passed, 0 failed, 1 ignored$/m);
    assertMatch(text, /^widget: ok: 1 passed, 0 failed, 0 ignored$/m);
    assertMatch(text, /^6 passed, 1 failed, 1 skipped$/m);
    const repeated = text.slice(text.indexOf("widget ran"));
    assertMatch(repeated, /== main: what failed \(repeated from above\)\n\s*ERRORS/);
    assertMatch(repeated, /fails => \.\/tests\/graphql\/b_test\.ts/);
    assertStringIncludes(repeated, "boom");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("test task: exit 0 when every suite passes; chosen suites only; unknown suite is 2", async () => {
  const dir = await project({
    "tests/runtime/r_test.ts": PASS,
    "tests/gen/a_test.ts": PASS,
    "tests/graphql/b_test.ts": PASS,
    "tests/server/s_test.ts": PASS,
    "tests/docs/d_test.ts": PASS,
    "tests/subscriptions/x_test.ts": PASS,
    "tests/replica/r_test.ts": PASS,
    "tests/widget/w_test.ts": PASS,
  });
  try {
    const all = await runTask(dir);
    assertEquals(all.code, 0, all.text);
    assertMatch(all.text, /^8 passed, 0 failed, 0 skipped$/m);
    const one = await runTask(dir, ["widget"]);
    assertEquals(one.code, 0, one.text);
    assertMatch(one.text, /^1 passed, 0 failed, 0 skipped$/m);
    const bad = await runTask(dir, ["widgets"]);
    assertEquals(bad.code, 2);
    assertStringIncludes(bad.text, "unknown suite widgets");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
