/**
 * The generator and the policies module (`policies` in the config, `--policies`): the SDL it
 * writes is the schema the server serves, compared field by field with `createSchema({ policies
 * })`'s (the oracle: what the runtime serves, `runtime/resolve/field_rules.ts`); without the
 * module the two differ in exactly the fields a field rule names; a module that cannot be used
 * is an error naming it.
 */
import { assertEquals, assertMatch, assertRejects } from "@std/assert";
import { fromFileUrl, join, toFileUrl } from "@std/path";
import {
  buildSchema,
  type GraphQLSchema,
  isInterfaceType,
  isObjectType,
  lexicographicSortSchema,
  printSchema,
} from "graphql";
import { generate, GenerateError } from "../../gen/mod.ts";
import { workspaceSchema } from "../../examples/workspace/schema.ts";

const root = fromFileUrl(new URL("../../", import.meta.url));
const workspace = join(root, "examples/workspace");

/** Every field of every object and interface type: `Type.field` -> its type as printed. */
function fieldTypes(schema: GraphQLSchema): Map<string, string> {
  const types = new Map<string, string>();
  for (const type of Object.values(schema.getTypeMap())) {
    if (type.name.startsWith("__") || !(isObjectType(type) || isInterfaceType(type))) continue;
    for (const field of Object.values(type.getFields())) {
      types.set(`${type.name}.${field.name}`, String(field.type));
    }
  }
  return types;
}

/** The fields whose types differ between `a` and `b`, with both types. */
function differences(a: GraphQLSchema, b: GraphQLSchema): string[][] {
  const [left, right] = [fieldTypes(a), fieldTypes(b)];
  const names = [...new Set([...left.keys(), ...right.keys()])].sort();
  return names.filter((n) => left.get(n) !== right.get(n))
    .map((n) => [n, left.get(n) ?? "-", right.get(n) ?? "-"]);
}

Deno.test("policies: the workspace's generated schema.graphql is the schema it serves", async () => {
  const sdl = await Deno.readTextFile(join(workspace, "generated/schema.graphql"));
  const served = workspaceSchema();
  assertEquals(differences(buildSchema(sdl), served), []);
  assertEquals(
    printSchema(lexicographicSortSchema(buildSchema(sdl))),
    printSchema(lexicographicSortSchema(served)),
  );
  const types = await Deno.readTextFile(join(workspace, "generated/types.ts"));
  assertMatch(types, /email\?: \$Resolver<\$Maybe<string>, User>;/);
});

Deno.test("policies: without the module, the generated schema differs in the ruled fields only", async () => {
  const out = join(await Deno.makeTempDir(), "out");
  try {
    await generate({ entities: join(workspace, "entities"), out, format: false });
    const sdl = await Deno.readTextFile(join(out, "schema.graphql"));
    assertEquals(differences(buildSchema(sdl), workspaceSchema()), [
      ["User.email", "String!", "String"],
    ]);
    await generate({
      entities: join(workspace, "entities"),
      out,
      format: false,
      policies: join(workspace, "policies.ts"),
    });
    const guarded = await Deno.readTextFile(join(out, "schema.graphql"));
    assertEquals(differences(buildSchema(guarded), workspaceSchema()), []);
  } finally {
    await Deno.remove(join(out, ".."), { recursive: true });
  }
});

Deno.test("policies: a module that exports no policies, or names a missing field, is an error", async () => {
  const dir = await Deno.makeTempDir();
  const user = toFileUrl(join(workspace, "entities/user.ts")).href;
  const ext = toFileUrl(join(root, "mod.ts")).href;
  try {
    const cases: [string, string, RegExp][] = [
      ["none.ts", `export const rules = 1;`, /must export `policies`/],
      [
        "typo.ts",
        `import { definePolicy } from "${ext}";\nimport { User } from "${user}";\n` +
        `export const policies = [definePolicy(User, { fields: { emial: () => true } as never })];`,
        /the policy of User has a read rule for "emial", which is no field of User/,
      ],
      [
        "broken.ts",
        `throw new Error("no database here");`,
        /cannot import the policies: .*no database here/,
      ],
    ];
    for (const [name, text, message] of cases) {
      await Deno.writeTextFile(join(dir, name), text);
      const error = await assertRejects(
        () =>
          generate({
            entities: join(workspace, "entities"),
            out: join(dir, "out"),
            format: false,
            policies: join(dir, name),
          }),
        GenerateError,
      );
      assertMatch(error.message, message, name);
      assertEquals(await Deno.stat(join(dir, "out")).catch(() => null), null, name);
    }
    const cli = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "-A",
        join(root, "gen/main.ts"),
        "--config",
        join(workspace, "gen.config.ts"),
        "--policies",
        join(dir, "missing.ts"),
        "--check",
      ],
      cwd: root,
      env: { NO_COLOR: "1" },
    }).output();
    assertEquals(cli.code, 2);
    assertMatch(new TextDecoder().decode(cli.stderr), /--policies .*missing\.ts: no such file/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
