/**
 * `jitSchema`, the schema the `Jit` plugin compiles against: a node type's generated `id` field
 * (a key that is the single property `id`) is a leaf of a scalar of its own whose serializer gives
 * what the resolver gives; composite and natural keys, a user's `id` resolver, the served schema
 * and the generated enums' coercion of variables are left as they are.
 */
import { assert, assertEquals, assertStrictEquals, assertThrows } from "@std/assert";
import {
  GraphQLEnumType,
  GraphQLError,
  type GraphQLField,
  type GraphQLInputObjectType,
  GraphQLObjectType,
  type GraphQLSchema,
} from "graphql";
import { jitSchema } from "../../../runtime/plugins/jit_schema.ts";
import { encodeGlobalId } from "../../../runtime/plan/global_id.ts";
import { createSchema as blogSchema } from "../../../examples/blog/generated/mod.ts";
import { createSchema as librarySchema } from "../../../examples/library/generated/mod.ts";

/** `schema`'s field `type.id`. */
function idField(schema: GraphQLSchema, type: string): GraphQLField<unknown, unknown> {
  const found = schema.getType(type);
  assert(found instanceof GraphQLObjectType, type);
  return found.getFields().id;
}

/** The global id the served schema's resolver gives `row`. */
function resolved(schema: GraphQLSchema, type: string, row: object): unknown {
  return idField(schema, type).resolve!(row, {}, {}, undefined as never);
}

Deno.test("jitSchema: a generated id over the key property `id` is a leaf serialized as the resolver answers", () => {
  const schema = blogSchema();
  const copy = jitSchema(schema);
  assertStrictEquals(jitSchema(schema), copy, "one copy per schema");
  for (const [type, key] of [["User", 7], ["Post", 10_000], ["Comment", 123_456]] as const) {
    const field = idField(copy, type);
    assertEquals(field.resolve, undefined, type);
    assertEquals(String(field.type), `MikrogqlGlobalId_${type}!`);
    const serialize = (field.type as { ofType: { serialize(v: unknown): unknown } }).ofType
      .serialize;
    assertEquals(serialize(key), encodeGlobalId(type, key));
    assertEquals(serialize(key), resolved(schema, type, { id: key }));
    // The served schema is untouched: its field still resolves, as an `ID!`.
    assertEquals(String(idField(schema, type).type), "ID!");
    assert(idField(schema, type).resolve);
  }
});

Deno.test("jitSchema: a user's id resolver, composite and natural keys keep their resolvers", () => {
  const custom = () => "mine";
  const schema = blogSchema({ resolvers: { User: { id: custom } } });
  const copy = jitSchema(schema);
  assertEquals(resolved(copy, "User", { id: 1 }), "mine");
  assertEquals(String(idField(copy, "User").type), "ID!");
  assertEquals(idField(copy, "Post").resolve, undefined);

  const library = librarySchema();
  const libraryCopy = jitSchema(library);
  for (const type of ["BookCopy", "Branch", "Member"]) {
    assert(idField(libraryCopy, type).resolve, type);
    assertEquals(String(idField(libraryCopy, type).type), "ID!");
  }
  assertEquals(idField(libraryCopy, "Loan").resolve, undefined);
});

Deno.test("jitSchema: a generated enum's bad variable value is still BAD_USER_INPUT", () => {
  const copy = jitSchema(blogSchema());
  const status = copy.getType("PostStatus");
  assert(status instanceof GraphQLEnumType);
  const error = assertThrows(() => status.parseValue("Nope"), GraphQLError);
  assertEquals(error.extensions.code, "BAD_USER_INPUT");
});

Deno.test("jitSchema: the copy keeps every type's fields in the served schema's order", () => {
  const schema = blogSchema();
  const copy = jitSchema(schema);
  let compared = 0;
  for (const [name, type] of Object.entries(schema.getTypeMap())) {
    if (name.startsWith("__") || !("getFields" in type)) continue;
    const copied = copy.getType(name) as typeof type;
    assertEquals(Object.keys(copied.getFields()), Object.keys(type.getFields()), name);
    compared++;
  }
  assert(compared > 10, `${compared} types compared`);
  // A where input's predicates in the served order: the SQL follows it.
  const where = Object.keys((copy.getType("UserWhereInput") as GraphQLInputObjectType).getFields());
  assert(where.indexOf("nameHasPrefix") < where.indexOf("emailHasSuffix"), where.join());
});
