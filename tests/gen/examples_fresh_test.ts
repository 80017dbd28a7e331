/**
 * Every example's committed `generated/` is what the generator writes for its entities now
 * (`--check` with the example's `gen.config.ts`): a change to the generator or to an example's
 * entity files (their doc comments too) comes with the regenerated output.
 */
import { assertEquals } from "@std/assert";
import { fromFileUrl, join } from "@std/path";

const root = fromFileUrl(new URL("../../", import.meta.url));
const EXAMPLES = [
  "blog",
  "realworld",
  "shop",
  "todo",
  "todo/variants/raw",
  "todo/variants/universal",
  "library",
  "workspace",
  "lingo",
];

for (const example of EXAMPLES) {
  Deno.test(`examples/${example}/generated is up to date`, async () => {
    const out = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "-A",
        join(root, "gen/main.ts"),
        "--config",
        join(root, "examples", example, "gen.config.ts"),
        "--check",
        "--quiet",
      ],
      cwd: root,
      env: { NO_COLOR: "1" },
    }).output();
    const stderr = new TextDecoder().decode(out.stderr);
    assertEquals(out.code, 0, `${stderr}\nregenerate: deno task generate --config ...`);
  });
}
