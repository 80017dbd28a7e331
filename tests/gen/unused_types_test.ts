/**
 * No unused generated types: in every example's generated SDL each named type is reachable from
 * `Query`, `Mutation` or a node type (what `node(id:)` returns), walking field types, arguments,
 * interfaces, implementations and input fields (a connection, order or where input of a type no
 * field pages, an enum no field uses, an input no mutation takes would be left over); the
 * generated resolver map covers only types and fields the SDL has (graphql-tools refuses a
 * resolver of a type the schema lacks); and the generated tables describe only the where inputs
 * and order fields the SDL has.
 */
import { assert, assertEquals } from "@std/assert";
import {
  buildSchema,
  getNamedType,
  type GraphQLNamedType,
  type GraphQLSchema,
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isIntrospectionType,
  isObjectType,
  isSpecifiedScalarType,
  isUnionType,
} from "graphql";
import { fromFileUrl, join } from "@std/path";
import type { Graph } from "../../runtime/graph.ts";

const root = fromFileUrl(new URL("../../", import.meta.url));
const EXAMPLES = [
  "blog",
  "realworld",
  "shop",
  "todo",
  "library",
  "workspace",
  "todo/variants/raw",
  "todo/variants/universal",
  "lingo",
];

/** The named types of `schema` that nothing reachable from the roots (query, mutation, subscription) and node types references. */
function unreferenced(schema: GraphQLSchema): string[] {
  const seen = new Set<string>();
  const queue: GraphQLNamedType[] = [];
  const add = (type: GraphQLNamedType | null | undefined) => {
    if (type && !seen.has(type.name)) {
      seen.add(type.name);
      queue.push(type);
    }
  };
  add(schema.getQueryType());
  add(schema.getMutationType());
  add(schema.getSubscriptionType());
  const node = schema.getType("Node");
  assert(node && isInterfaceType(node), "the schema has the Node interface");
  for (const type of schema.getPossibleTypes(node)) add(type);
  for (let type = queue.pop(); type; type = queue.pop()) {
    if (isObjectType(type) || isInterfaceType(type)) {
      for (const i of type.getInterfaces()) add(i);
      for (const field of Object.values(type.getFields())) {
        add(getNamedType(field.type));
        for (const arg of field.args) add(getNamedType(arg.type));
      }
      if (isInterfaceType(type)) { for (const t of schema.getPossibleTypes(type)) add(t); }
    } else if (isUnionType(type)) {
      for (const t of type.getTypes()) add(t);
    } else if (isInputObjectType(type)) {
      for (const field of Object.values(type.getFields())) add(getNamedType(field.type));
    }
  }
  return Object.values(schema.getTypeMap())
    .filter((t) => !isIntrospectionType(t) && !isSpecifiedScalarType(t) && !seen.has(t.name))
    .map((t) => t.name);
}

Deno.test("unreferenced types: the walk finds a connection, an order input and an enum nothing uses", () => {
  const schema = buildSchema(`
    interface Node { id: ID! }
    type Query { node(id: ID!): Node }
    type Gadget implements Node { id: ID! }
    type GadgetConnection { edges: [Gadget] }
    input GadgetOrder { direction: OrderDirection }
    enum OrderDirection { ASC DESC }
  `);
  assertEquals(unreferenced(schema).sort(), ["GadgetConnection", "GadgetOrder", "OrderDirection"]);
});

for (const example of EXAMPLES) {
  Deno.test(`no unused generated types: ${example}`, async () => {
    const generated = join(root, "examples", example, "generated");
    const schema = buildSchema(await Deno.readTextFile(join(generated, "schema.graphql")));
    assertEquals(unreferenced(schema), []);
    const { graph, resolvers } = await import(join(generated, "mod.ts"));
    // The tables describe only inputs the schema has: where inputs, order fields.
    for (const type of Object.values(graph.types as Graph["types"])) {
      if (type.where) assert(schema.getType(type.where.name), type.where.name);
      const orderField = schema.getType(`${type.name}OrderField`);
      assertEquals(
        Object.keys(type.orderFields).sort(),
        isEnumType(orderField) ? orderField.getValues().map((v) => v.name).sort() : [],
        `${type.name}'s order fields`,
      );
    }
    for (const [typeName, fields] of Object.entries(resolvers())) {
      const type = schema.getType(typeName);
      assert(type, `resolvers of ${typeName}, which the SDL does not have`);
      if (!isObjectType(type)) continue;
      for (const field of Object.keys(fields as object)) {
        assert(field in type.getFields(), `a resolver of ${typeName}.${field}, not in the SDL`);
      }
    }
  });
}
