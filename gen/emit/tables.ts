/**
 * The declarative table modules: `collection.ts` (scalar fields), `edges.ts`, `pagination.ts`
 * (order fields and root connection fields) and `enums.ts`.
 *
 * @module
 */
import type { GraphQLSchema } from "graphql";
import type {
  EdgeDescription,
  FieldDescription,
  OrderFieldDescription,
} from "../../runtime/graph.ts";
import type { Model, ModelEdge, ModelField, ModelOrderField } from "../model.ts";
import { orderFieldName } from "../../runtime/names.ts";
import { description, type OwnKeys, renderTables } from "./module.ts";

const FIELD_OWN: OwnKeys<ModelField, FieldDescription> = {
  name: true,
  graphqlType: true,
  nullable: true,
  description: true,
  skip: true,
  generated: true,
  optional: true,
  uuid: true,
  valueText: true,
  key: true,
  object: true,
};
const EDGE_OWN: OwnKeys<ModelEdge, EdgeDescription> = {
  name: true,
  unique: true,
  nullable: true,
  owner: true,
  primary: true,
  removable: true,
  generated: true,
  skip: true,
  description: true,
};
const ORDER_OWN: OwnKeys<ModelOrderField, OrderFieldDescription> = { name: true };

/** `collection.ts`: per type, GraphQL field -> entity property and scalar kind. */
export function emitCollection(model: Model, runtime: string): string {
  const value = Object.fromEntries(model.types.map((t) => [
    t.name,
    Object.fromEntries(
      t.fields.map((f) => [f.name, description<ModelField, FieldDescription>(f, FIELD_OWN)]),
    ),
  ]));
  const collectedFor = Object.fromEntries(
    model.types.filter((t) => Object.keys(t.collectedFor).length > 0).map((
      t,
    ) => [t.name, t.collectedFor]),
  );
  return renderTables(
    "Field collection table: per type, GraphQL field -> entity property.",
    runtime,
    ["FieldDescription", "Tables"],
    [
      {
        name: "fields",
        doc: "GraphQL type -> GraphQL field -> scalar field.",
        value,
        type: "Tables<FieldDescription>",
      },
      {
        name: "collectedFor",
        doc: "GraphQL type -> user-resolved field -> properties it needs (`CollectedFor`).",
        value: collectedFor,
        type: "Tables<string[]>",
      },
    ],
  );
}

/** `edges.ts`: per type, GraphQL edge -> entity property, target, kind. */
export function emitEdges(model: Model, runtime: string): string {
  const value = Object.fromEntries(model.types.map((t) => [
    t.name,
    Object.fromEntries(
      t.edges.map((e) => [e.name, description<ModelEdge, EdgeDescription>(e, EDGE_OWN)]),
    ),
  ]));
  return renderTables(
    "Edges: per type, one entry per GraphQL edge field, resolved by the runtime's edge resolver.",
    runtime,
    ["EdgeDescription", "Tables"],
    [{
      name: "edges",
      doc: "GraphQL type -> GraphQL edge -> edge.",
      value,
      type: "Tables<EdgeDescription>",
    }],
  );
}

/**
 * `pagination.ts`: order fields per type, and the root connection field of each type.
 *
 * @param schema the generated schema: a type whose `<T>OrderField` it left out gets none
 */
export function emitPagination(model: Model, runtime: string, schema: GraphQLSchema): string {
  // A type whose `<T>Order` the schema left out (nothing pages it) has no order field to read.
  const orderFields = Object.fromEntries(model.types.map((t) => [
    t.name,
    Object.fromEntries(
      (schema.getType(orderFieldName(t.name)) ? t.orderFields : []).map((o) => [
        o.name,
        description<ModelOrderField, OrderFieldDescription>(o, ORDER_OWN),
      ]),
    ),
  ]));
  const queryFields = Object.fromEntries(
    model.types.filter((t) => t.queryField).map((t) => [t.name, t.queryField]),
  );
  const subscriptionFields = Object.fromEntries(
    model.types.filter((t) => t.subscriptionField).map((t) => [t.name, t.subscriptionField]),
  );
  return renderTables(
    "Pagination: order fields and root connection fields per type.",
    runtime,
    ["OrderFieldDescription", "Tables"],
    [
      {
        name: "orderFields",
        doc: "GraphQL type -> `<T>OrderField` value -> ordered property.",
        value: orderFields,
        type: "Tables<OrderFieldDescription>",
      },
      {
        name: "queryFields",
        doc: "GraphQL type -> root connection field of `Query`.",
        value: queryFields,
        type: "Record<string, string>",
      },
      ...(Object.keys(subscriptionFields).length
        ? [{
          name: "subscriptionFields",
          doc: "GraphQL type -> change feed field of `Subscription` (`Subscriptions()`).",
          value: subscriptionFields,
          type: "Record<string, string>",
        }]
        : []),
    ],
  );
}

/** `enums.ts`: GraphQL enum value -> entity value, per generated enum. */
export function emitEnums(model: Model): string {
  const value = Object.fromEntries(
    model.enums.map((
      e,
    ) => [e.name, Object.fromEntries(e.values.map((v) => [v.name, v.value]))]),
  );
  return renderTables("Enum value mappings between GraphQL and the entities.", "", [], [{
    name: "enums",
    doc: "GraphQL enum -> GraphQL value -> entity value.",
    value,
    type: "Record<string, Record<string, string | number>>",
  }]);
}
