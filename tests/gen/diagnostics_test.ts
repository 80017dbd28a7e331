/**
 * What the generator reports, through its command line: every problem of a model in one run,
 * each once, under the file that declares the entity (not a barrel re-exporting it); import and
 * initialisation failures once per cause, at the file, line and column Deno names, without colour
 * codes; what cannot work (a create that could never succeed, an embeddable with nothing to show)
 * left out with a warning naming entity, property and remedy; and an unchanged output file is not
 * written again.
 */
import { assertEquals, assertMatch } from "@std/assert";
import { exists } from "@std/fs";
import { fromFileUrl, join } from "@std/path";
import { generate } from "../../gen/mod.ts";

const root = fromFileUrl(new URL("../../", import.meta.url));

/** Runs the generator's command line in the repository; its exit code and stderr lines. */
async function cli(...args: string[]): Promise<{ code: number; lines: string[] }> {
  const result = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "gen/main.ts", ...args],
    cwd: root,
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "" },
  }).output();
  const text = new TextDecoder().decode(result.stderr);
  return { code: result.code, lines: text.split("\n").filter((l) => l) };
}

Deno.test("every problem in one run, each once, under the file that declares the entity", async () => {
  const out = join(await Deno.makeTempDir(), "out");
  const { code, lines } = await cli("-e", "tests/gen/fixtures/one_run", "-o", out);
  assertEquals(code, 1);
  const file = "tests/gen/fixtures/one_run/sandwich.ts";
  assertEquals(lines.filter((l) => l.startsWith("error: ")).sort(), [
    `error: ${file}: Sandwich.fillings: OrderField "FILLINGS" on a non-comparable property (json)`,
    `error: ${file}: Sandwich.next: RelayConnection() on a unique edge`,
    `error: ${file}: Sandwich.nmae: annotations on "nmae", which is no property of Sandwich (did you mean "name"?)`,
    `error: ${file}: Sandwich: invalid QueryField name "all-sandwiches"`,
  ]);
  assertEquals(await exists(out), false);
});

Deno.test("import failures: once per cause, at Deno's file, line and column, no colour codes", async () => {
  const dir = await Deno.makeTempDir({ dir: join(root, "tests/gen"), prefix: ".imports-" });
  try {
    await Deno.writeTextFile(join(dir, "bad.ts"), "export const x: number = ;\n");
    for (const name of ["a", "b", "c"]) {
      await Deno.writeTextFile(
        join(dir, `${name}.ts`),
        `import { x } from "./bad.ts";\nexport const ${name} = x;\n`,
      );
    }
    await Deno.writeTextFile(join(dir, "init.ts"), "export const y = Z + 1;\nconst Z = 2;\n");
    // An import cycle read by a decorator: the error names the property typed by the class.
    await Deno.writeTextFile(
      join(dir, "cycle_a.ts"),
      `import { B } from "./cycle_b.ts";\nexport function D(_c: unknown) {\n  return () => {};\n}\nexport class A {\n  b?: B;\n}\nexport const related = () => B;\n`,
    );
    await Deno.writeTextFile(
      join(dir, "cycle_b.ts"),
      `import { A, D } from "./cycle_a.ts";\nexport class B {\n  @D(A)\n  owner!: A;\n}\n`,
    );
    const rel = dir.slice(root.length);
    const { code, lines } = await cli("-e", rel, "-o", join(dir, "out"));
    assertEquals(code, 1);
    const errors = lines.filter((l) => l.startsWith("error: "));
    assertEquals(errors, [
      `error: ${rel}/bad.ts:1:26: cannot import: SyntaxError: Expression expected`,
      `error: ${rel}/cycle_b.ts:3:6: cannot import: Cannot access 'A' before initialization: the property "owner" refers to A, which an import cycle has not initialized yet; declare its type as Rel<A> (import type { Rel } from "@mikro-orm/core", the class imported with import type) and give the entity lazily (entity: () => A)`,
      `error: ${rel}/init.ts:1:18: cannot import: Cannot access 'Z' before initialization`,
    ]);
    assertEquals(lines.some((l) => l.includes("\x1b[")), false);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("what cannot work is left out with a warning: a create that could never succeed, an empty embeddable", async () => {
  const out = join(await Deno.makeTempDir(), "out");
  try {
    const result = await generate({
      entities: join(root, "tests/gen/fixtures/cannot_create"),
      out,
    });
    assertEquals(
      result.warnings.map((w) => [w.entity, w.prop, w.message.split(":")[0]]),
      [
        ["Member", "identity", "field left out"],
        ["Member", "passwordHash", "createMember left out"],
      ],
    );
    assertMatch(result.warnings[1].message, /make it nullable or give it a default/);
    const sdl = await Deno.readTextFile(join(out, "schema.graphql"));
    assertEquals(/createMember\(|input CreateMemberInput/.test(sdl), false);
    assertMatch(sdl, /updateMember\(/);
    assertEquals(/\btype Identity\b|IdentityInput/.test(sdl), false);
    // Expose() on an embeddable's hidden property shows it.
    assertMatch(sdl, /type Badge \{\n {2}code: String!\n\}/);
  } finally {
    await Deno.remove(join(out, ".."), { recursive: true }).catch(() => {});
  }
});

Deno.test("an output file whose content did not change is not written again", async () => {
  const out = join(await Deno.makeTempDir(), "out");
  try {
    const options = { entities: join(root, "tests/gen/fixtures/hidden"), out };
    await generate(options);
    const before = new Map<string, number>();
    for await (const entry of Deno.readDir(out)) {
      before.set(entry.name, (await Deno.stat(join(out, entry.name))).mtime!.getTime());
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
    await generate(options);
    for (const [name, mtime] of before) {
      assertEquals((await Deno.stat(join(out, name))).mtime!.getTime(), mtime, name);
    }
  } finally {
    await Deno.remove(join(out, ".."), { recursive: true }).catch(() => {});
  }
});
