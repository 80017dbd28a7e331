/**
 * graphql-schema-linter's description rules on the generated schema of every example (blog,
 * realworld, shop, todo and its variants, library), whose entities, embeddables and properties
 * carry doc comments: no finding. Entity and property doc comments become descriptions (an
 * inherited property's from the class that declares it, an embeddable's on its object and input),
 * and every generated type, field, argument, input field and enum value has one. The ordering rules (`*-sorted-alphabetically`) stay off: fields keep the
 * entity's property order and Relay's, as entgql prints them. A schema with an undocumented
 * field is flagged, so the test can fail.
 */
import { assertEquals, assertStringIncludes } from "@std/assert";
import { fromFileUrl, join } from "@std/path";

const root = fromFileUrl(new URL("../../", import.meta.url));
/** The linter as pinned in deno.json's imports. */
const LINTER = JSON.parse(await Deno.readTextFile(join(root, "deno.json"))).imports[
  "graphql-schema-linter"
];
const RULES = [
  "types-have-descriptions",
  "fields-have-descriptions",
  "arguments-have-descriptions",
  "input-object-values-have-descriptions",
  "enum-values-have-descriptions",
];

async function lint(schema: string) {
  const out = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      LINTER,
      "--format",
      "compact",
      "--rules",
      RULES.join(","),
      schema,
    ],
    cwd: root,
    env: { NO_COLOR: "1" },
  }).output();
  const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
  return { code: out.code, findings: text.split("\n").filter((l) => /\(\S+\)$/.test(l)) };
}

const EXAMPLES = [
  "blog",
  "realworld",
  "shop",
  "todo",
  "todo/variants/raw",
  "todo/variants/universal",
  "library",
  "lingo",
];

for (const example of EXAMPLES) {
  Deno.test(`schema lint: the ${example} example's generated schema passes the description rules`, async () => {
    const { code, findings } = await lint(
      join(root, "examples", example, "generated/schema.graphql"),
    );
    assertEquals(findings, []);
    assertEquals(code, 0);
  });
}

Deno.test("schema lint: an undocumented field is a finding", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const file = join(dir, "schema.graphql");
    await Deno.writeTextFile(file, '"""The root."""\ntype Query {\n  hello: String\n}\n');
    const { code, findings } = await lint(file);
    assertEquals(code, 1);
    assertEquals(findings.length, 1);
    assertStringIncludes(findings[0], "Query.hello");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
