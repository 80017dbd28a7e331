/**
 * Every derived GraphQL name against entgql's: the names below are those of entgql's own todo
 * example schema (ent/contrib, `entgql/internal/todo/ent.graphql` and `todo.graphql`), for the
 * same type, field and edge names. Then the generated schemas of our examples hold the names the
 * runtime derives for their types (the generator prints them, the runtime reads them back).
 */
import { assert, assertEquals } from "@std/assert";
import { buildSchema, isInputObjectType, isObjectType } from "graphql";
import {
  addIdsName,
  clearName,
  connectionName,
  createFieldName,
  createInputName,
  deleteFieldName,
  edgeIdName,
  edgeIdsName,
  edgeName,
  edgeOrderFieldPrefix,
  embeddableInputName,
  embeddedPredicateName,
  hasPredicateName,
  isConnectionName,
  isWhereInputName,
  orderFieldName,
  orderName,
  predicateName,
  propertyEnumName,
  queryFieldName,
  removeIdsName,
  updateFieldName,
  updateInputName,
  whereInputName,
} from "../../runtime/names.ts";
import type { Graph, WhereOp } from "../../runtime/graph.ts";
import * as blog from "../../examples/blog/generated/mod.ts";
import * as todo from "../../examples/todo/generated/mod.ts";
import * as shop from "../../examples/shop/generated/mod.ts";

Deno.test("names: a node type's types and root field, as entgql names them", () => {
  assertEquals(
    ["Todo", "Category"].map((t) => [
      connectionName(t),
      edgeName(t),
      orderName(t),
      orderFieldName(t),
      whereInputName(t),
    ]),
    [
      ["TodoConnection", "TodoEdge", "TodoOrder", "TodoOrderField", "TodoWhereInput"],
      [
        "CategoryConnection",
        "CategoryEdge",
        "CategoryOrder",
        "CategoryOrderField",
        "CategoryWhereInput",
      ],
    ],
  );
  // entgql's root fields: categories, groups, todos, users, billProducts
  assertEquals(["Category", "Group", "Todo", "User", "BillProduct"].map(queryFieldName), [
    "categories",
    "groups",
    "todos",
    "users",
    "billProducts",
  ]);
  assert(isConnectionName("TodoConnection") && !isConnectionName("TodoEdge"));
  assert(isWhereInputName("TodoWhereInput") && !isWhereInputName("TodoOrder"));
});

Deno.test("names: where predicates, as entgql's TodoWhereInput and CategoryWhereInput name them", () => {
  const ops: WhereOp[] = ["EQ", "NEQ", "In", "NotIn", "GT", "GTE", "LT", "LTE"];
  assertEquals(ops.map((op) => predicateName("createdAt", op)), [
    "createdAt",
    "createdAtNEQ",
    "createdAtIn",
    "createdAtNotIn",
    "createdAtGT",
    "createdAtGTE",
    "createdAtLT",
    "createdAtLTE",
  ]);
  assertEquals(
    (["Contains", "HasPrefix", "HasSuffix", "EqualFold", "ContainsFold"] as WhereOp[]).map((op) =>
      predicateName("text", op)
    ),
    ["textContains", "textHasPrefix", "textHasSuffix", "textEqualFold", "textContainsFold"],
  );
  assertEquals(predicateName("categoryID", "IsNil"), "categoryIDIsNil");
  assertEquals(predicateName("categoryID", "NotNil"), "categoryIDNotNil");
  assertEquals(
    [hasPredicateName("parent"), hasPredicateName("parent", true)],
    ["hasParent", "hasParentWith"],
  );
  assertEquals(hasPredicateName("subCategories", true), "hasSubCategoriesWith");
  assertEquals(edgeIdName("category"), "categoryID");
  // an embedded field's leaf (ours: entgql has no embeddables)
  assertEquals(embeddedPredicateName("address", "city"), "addressCity");
});

Deno.test("names: mutation fields and inputs, as entgql's CreateTodoInput and UpdateCategoryInput name them", () => {
  assertEquals(
    [
      createFieldName("Todo"),
      createInputName("Todo"),
      updateFieldName("Todo"),
      updateInputName("Todo"),
    ],
    ["createTodo", "CreateTodoInput", "updateTodo", "UpdateTodoInput"],
  );
  assertEquals(deleteFieldName("Todo"), "deleteTodo");
  // CreateTodoInput.childIDs, CreateCategoryInput.todoIDs/subCategoryIDs, CreateUserInput.friendIDs
  assertEquals(["children", "todos", "subCategories", "friends", "groups"].map(edgeIdsName), [
    "childIDs",
    "todoIDs",
    "subCategoryIDs",
    "friendIDs",
    "groupIDs",
  ]);
  assertEquals(edgeIdName("parent"), "parentID");
  assertEquals(
    ["children", "subCategories"].map((e) => [addIdsName(e), removeIdsName(e), clearName(e)]),
    [
      ["addChildIDs", "removeChildIDs", "clearChildren"],
      ["addSubCategoryIDs", "removeSubCategoryIDs", "clearSubCategories"],
    ],
  );
  assertEquals(["parent", "config", "count"].map(clearName), [
    "clearParent",
    "clearConfig",
    "clearCount",
  ]);
});

Deno.test("names: edge order fields, property enums and embeddable inputs, as entgql names them", () => {
  // TodoOrderField: CHILDREN_COUNT, PARENT_STATUS, CATEGORY_TEXT; CategoryOrderField: TODOS_COUNT
  assertEquals(edgeOrderFieldPrefix("children") + "COUNT", "CHILDREN_COUNT");
  assertEquals(edgeOrderFieldPrefix("parent") + "STATUS", "PARENT_STATUS");
  assertEquals(edgeOrderFieldPrefix("category") + "TEXT", "CATEGORY_TEXT");
  assertEquals(edgeOrderFieldPrefix("todos") + "COUNT", "TODOS_COUNT");
  assertEquals(edgeOrderFieldPrefix("subCategories"), "SUB_CATEGORIES_");
  // TodoStatus, CategoryStatus; a snake_case property's parts joined
  assertEquals(propertyEnumName("Todo", "status"), "TodoStatus");
  assertEquals(propertyEnumName("Category", "status"), "CategoryStatus");
  assertEquals(propertyEnumName("Order", "payment_state"), "OrderPaymentState");
  // CategoryConfigInput
  assertEquals(embeddableInputName("CategoryConfig"), "CategoryConfigInput");
});

Deno.test("names: every generated schema holds the names the runtime derives for its types", () => {
  const examples: [string, Graph, string][] = [
    ["blog", blog.graph, blog.typeDefs],
    ["todo", todo.graph, todo.typeDefs],
    ["shop", shop.graph, shop.typeDefs],
  ];
  let checked = 0;
  for (const [name, graph, typeDefs] of examples) {
    const schema = buildSchema(typeDefs);
    const query = schema.getQueryType()!.getFields();
    const mutation = schema.getMutationType()?.getFields() ?? {};
    // Connections (and their order inputs) exist for the types a root field or edge pages.
    const paged = new Set(Object.keys(graph.queryFields));
    for (const type of Object.values(graph.types)) {
      for (const edge of Object.values(type.edges)) if (edge.connection) paged.add(edge.target);
    }
    for (const type of Object.values(graph.types)) {
      const label = `${name}: ${type.name}`;
      assert(schema.getType(type.name), label);
      if (type.abstract) continue;
      assertEquals(isObjectType(schema.getType(connectionName(type.name))), paged.has(type.name));
      assertEquals(isObjectType(schema.getType(edgeName(type.name))), paged.has(type.name));
      if (paged.has(type.name) && Object.keys(type.orderFields).length) {
        assert(isInputObjectType(schema.getType(orderName(type.name))), label);
        const values = schema.getType(orderFieldName(type.name));
        assertEquals(
          values && "getValues" in values ? values.getValues().map((v) => v.name).sort() : [],
          Object.keys(type.orderFields).sort(),
          label,
        );
      }
      const queryField = graph.queryFields[type.name];
      if (queryField) assert(query[queryField], `${label}: ${queryField}`);
      if (type.mutations?.create) {
        assert(mutation[createFieldName(type.name)], label);
        assert(isInputObjectType(schema.getType(createInputName(type.name))), label);
      }
      if (type.mutations?.update) {
        assert(isInputObjectType(schema.getType(updateInputName(type.name))), label);
      }
      if (type.where) {
        // argument limits find where trees by this name; the predicates of its edges
        assertEquals(type.where.name, whereInputName(type.name), label);
        assert(isWhereInputName(type.where.name), label);
        const input = schema.getType(type.where.name);
        assert(isInputObjectType(input), label);
        for (const edge of type.where.edges) {
          assert(input.getFields()[hasPredicateName(edge)], `${label}: has ${edge}`);
        }
      }
      checked++;
    }
  }
  assert(checked > 10);
});
