/**
 * Generated modules for user code: `Resolvers` types user resolvers
 * by parent, arguments, result and context, an unknown type or field is a type error, and the
 * types and fields of the user's own SDL type-check once declared in `Resolvers<Extra>` /
 * `createSchema<Extra>` (a file that is right type-checks; each wrong line is a type error), and the API imports and builds its schema without reading any file (the SDL is
 * embedded; `schema.graphql` is the same text, for tools).
 */
import { assert, assertEquals, assertStringIncludes } from "@std/assert";
import { fromFileUrl, join } from "@std/path";

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
