/**
 * Generator decisions about where inputs and ids: the `<T>WhereInput` layout and `Skip(SkipWhereInput)`, the
 * `where`/`orderBy` arguments, and the checks of the `globalIds` option against the model.
 */
import { assert, assertEquals, assertMatch, assertRejects } from "@std/assert";
import { fromFileUrl, join } from "@std/path";
import { buildSchema, type GraphQLEnumType } from "graphql";
import { generate, GenerateError } from "../../gen/mod.ts";

const root = fromFileUrl(new URL("../../", import.meta.url));

async function generated(entities: string, globalIds?: "opaque" | "universal" | "raw") {
  const out = join(await Deno.makeTempDir(), "out");
  try {
    const result = await generate({ entities: join(root, entities), out, globalIds });
    return { result, sdl: await Deno.readTextFile(join(out, "schema.graphql")) };
  } finally {
    await Deno.remove(out, { recursive: true }).catch(() => {});
  }
}

/** The field lines of the SDL block `input <name> { ... }`. */
function input(sdl: string, name: string): string[] {
  const block = sdl.match(new RegExp(`input ${name} \\{([^}]*)\\}`))?.[1];
  assert(block, `no input ${name}`);
  return block.split("\n").map((l) => l.trim()).filter((l) => l && !l.startsWith('"""'));
}

Deno.test("where inputs: entgql layout; Skip(SkipWhereInput) on a type and on a field", async () => {
  const { sdl, result } = await generated("tests/gen/fixtures/skip_where");
  assertEquals(input(sdl, "PersonWhereInput"), [
    "not: PersonWhereInput",
    "and: [PersonWhereInput!]",
    "or: [PersonWhereInput!]",
    "id: ID",
    "idNEQ: ID",
    "idIn: [ID!]",
    "idNotIn: [ID!]",
    "idGT: ID",
    "idGTE: ID",
    "idLT: ID",
    "idLTE: ID",
    "name: String",
    "nameNEQ: String",
    "nameIn: [String!]",
    "nameNotIn: [String!]",
    "nameGT: String",
    "nameGTE: String",
    "nameLT: String",
    "nameLTE: String",
    "nameContains: String",
    "nameHasPrefix: String",
    "nameHasSuffix: String",
    "nameEqualFold: String",
    "nameContainsFold: String",
    "nickname: String",
    "nicknameNEQ: String",
    "nicknameIn: [String!]",
    "nicknameNotIn: [String!]",
    "nicknameGT: String",
    "nicknameGTE: String",
    "nicknameLT: String",
    "nicknameLTE: String",
    "nicknameContains: String",
    "nicknameHasPrefix: String",
    "nicknameHasSuffix: String",
    "nicknameIsNil: Boolean",
    "nicknameNotNil: Boolean",
    "nicknameEqualFold: String",
    "nicknameContainsFold: String",
    "friendID: ID",
    "friendIDNEQ: ID",
    "friendIDIn: [ID!]",
    "friendIDNotIn: [ID!]",
    "friendIDIsNil: Boolean",
    "friendIDNotNil: Boolean",
    "hasSecrets: Boolean",
    "hasFriend: Boolean",
    "hasFriendWith: [PersonWhereInput!]",
  ]);
  assert(!sdl.includes("SecretWhereInput"), "a skipped type has no where input");
  assertMatch(sdl, /secrets\([^)]*\): SecretConnection!/s);
  assertMatch(sdl, /people\([^)]*where: PersonWhereInput[^)]*\): PersonConnection!/s);
  assertEquals(result.model.types.find((t) => t.name === "Secret")!.where, undefined);
});

Deno.test("MultiOrder: orderBy takes a list; edge order fields join the enum", async () => {
  const schema = buildSchema((await generated("examples/todo/entities")).sdl);
  const query = schema.getQueryType()!.getFields();
  const orderBy = (field: string) =>
    query[field].args.find((a) => a.name === "orderBy")!.type.toString();
  assertEquals(orderBy("todos"), "[TodoOrder!]");
  assertEquals(orderBy("users"), "UserOrder");
  const values = (schema.getType("TodoOrderField") as GraphQLEnumType).getValues().map((v) =>
    v.name
  );
  assertEquals(values, [
    "ID",
    "CREATED_AT",
    "STATUS",
    "PRIORITY",
    "TEXT",
    "PARENT_STATUS",
    "CHILDREN_COUNT",
    "CATEGORY_TEXT",
  ]);
});

Deno.test("globalIds: the format must fit the primary keys and IdPrefix", async () => {
  await assertRejects(
    () => generated("examples/todo/variants/raw/entities", "universal"),
    GenerateError,
    "universal global ids need integer primary keys",
  );
  await assertRejects(
    () => generated("examples/todo/entities", "raw"),
    GenerateError,
    "raw global ids need string primary keys",
  );
  await assertRejects(
    () => generated("examples/todo/variants/raw/entities", "opaque"),
    GenerateError,
    `IdPrefix("todo") needs globalIds: "raw"`,
  );
  await assertRejects(
    () => generated("examples/todo/entities", "nope" as "raw"),
    GenerateError,
    "globalIds must be one of opaque, universal, raw",
  );
});
