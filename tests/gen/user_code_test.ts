/**
 * Generated modules for user code: `Resolvers` types user resolvers
 * by parent, arguments, result and context, an unknown type or field is a type error, and the
 * types and fields of the user's own SDL type-check once declared in `Resolvers<Extra>` /
 * `createSchema<Extra>` (a file that is right type-checks; each wrong line is a type error; so do
 * docs/generated-api.md's "Typed user resolvers" examples, against the blog example), and the API imports and builds its schema without reading any file (the SDL is
 * embedded; `schema.graphql` is the same text, for tools).
 */
import { assert, assertEquals, assertStringIncludes } from "@std/assert";
import { fromFileUrl, join, toFileUrl } from "@std/path";

const root = fromFileUrl(new URL("../../", import.meta.url));
const fixture = join(root, "tests/gen/fixtures/typed_resolvers/user.ts");

async function check(file: string) {
  const result = await new Deno.Command(Deno.execPath(), {
    args: ["check", file],
    cwd: root,
    stdout: "piped",
    stderr: "piped",
  }).output();
  return { success: result.success, stderr: new TextDecoder().decode(result.stderr) };
}

Deno.test("Resolvers: typed user resolvers (and declared extras) pass deno check; without the @ts-expect-error marks each wrong line fails, unknown type and field names too", async () => {
  const right = await check(fixture);
  assert(right.success, right.stderr);
  const wrong = join(
    root,
    "tests/gen/fixtures/typed_resolvers",
    `.wrong-${crypto.randomUUID()}.ts`,
  );
  try {
    const source = await Deno.readTextFile(fixture);
    const mark = (l: string) => l.trim().startsWith("// @ts-expect-error");
    assertEquals(source.split("\n").filter(mark).length, 10);
    await Deno.writeTextFile(
      wrong,
      source.split("\n").filter((l) => !mark(l)).join("\n"),
    );
    const { success, stderr } = await check(wrong);
    assertEquals(success, false);
    for (
      const message of [
        "Property 'nope' does not exist on type 'InferEntityFromProperties<",
        "is not assignable to type 'FieldResolver<number, InferEntityFromProperties<",
        "Property 'toUpperCase' does not exist on type 'number'",
        "Property 'nope' does not exist on type 'EntityManager<",
        "The left-hand side of an arithmetic operation must be of type",
        "is not assignable to type 'FieldResolver<string | number, unknown, MutationDeletePostArgs>",
        "Object literal may only specify known properties, and 'Psot' does not exist in type 'Resolvers'",
        "Object literal may only specify known properties, but 'titel' does not exist in type 'PostResolvers'",
        "Type '(stats: Stats) => string' is not assignable to type 'FieldResolver<number, Stats>",
        "Object literal may only specify known properties, and 'shoutLouder' does not exist in type",
        "Object literal may only specify known properties, and 'Stats' does not exist in type 'Resolvers<",
      ]
    ) assertStringIncludes(stderr, message);
  } finally {
    await Deno.remove(wrong).catch(() => {});
  }
});

Deno.test("self-contained output: the generated API builds its schema with every file read denied; typedefs.ts holds schema.graphql's text", async () => {
  const result = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--deny-read", "--no-prompt", fixture],
    cwd: root,
    stderr: "piped",
  }).output();
  assert(result.success, new TextDecoder().decode(result.stderr));
  const { typeDefs } = await import("../../examples/blog/generated/typedefs.ts");
  assertEquals(
    typeDefs,
    await Deno.readTextFile(join(root, "examples/blog/generated/schema.graphql")),
  );
});

Deno.test("docs/generated-api.md's Typed user resolvers examples type-check against the blog example", async () => {
  const page = await Deno.readTextFile(join(root, "docs/generated-api.md"));
  const start = page.indexOf("## Typed user resolvers");
  const end = page.indexOf("\n#", start + 1);
  const section = page.slice(start, end < 0 ? undefined : end);
  const blocks = [...section.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]);
  assertEquals(blocks.length, 2);
  const dir = await Deno.makeTempDir({ prefix: "mikrogql_readme_resolvers_" });
  try {
    // What the examples import: the user's generated module and entities (here the blog's).
    const reexport = (path: string) => `export * from "${toFileUrl(join(root, path))}";\n`;
    await Deno.mkdir(join(dir, "generated"));
    await Deno.mkdir(join(dir, "entities"));
    await Deno.writeTextFile(
      join(dir, "generated/mod.ts"),
      reexport("examples/blog/generated/mod.ts"),
    );
    await Deno.writeTextFile(
      join(dir, "entities/post.ts"),
      reexport("examples/blog/entities/post.ts"),
    );
    const files = blocks.map((_, i) => join(dir, `block_${i}.ts`));
    for (const [i, file] of files.entries()) await Deno.writeTextFile(file, blocks[i]);
    const result = await new Deno.Command(Deno.execPath(), {
      args: ["check", "--quiet", "--config", join(root, "deno.json"), ...files],
      cwd: dir,
      stderr: "piped",
    }).output();
    assert(result.success, new TextDecoder().decode(result.stderr));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
