/**
 * The declarative table modules: `collection.ts` (scalar fields), `edges.ts`, `pagination.ts`
 * (order fields and root connection fields) and `enums.ts`.
 *
 * @module
 */
import type { Graph } from "../graph.ts";
import { renderTables } from "./module.ts";

/** `collection.ts`: per type, GraphQL field -> entity property and scalar kind. */
export function emitCollection(graph: Graph, runtime: string): string {
  const value = Object.fromEntries(graph.types.map((t) => [
    t.name,
    Object.fromEntries(
      t.fields.map((f) => [f.name, {
        prop: f.prop,
        kind: f.kind,
        enum: f.enum,
        list: f.list,
        embedded: f.embedded,
        computed: f.computed,
        reads: f.reads,
      }]),
    ),
  ]));
  const collectedFor = Object.fromEntries(
    graph.types.filter((t) => Object.keys(t.collectedFor).length > 0).map((
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
export function emitEdges(graph: Graph, runtime: string): string {
  const value = Object.fromEntries(graph.types.map((t) => [
    t.name,
    Object.fromEntries(
      t.edges.map((
        e,
      ) => [e.name, {
        prop: e.prop,
        target: e.target,
        kind: e.kind,
        connection: e.connection,
        inverse: e.inverse,
        unbound: e.unbound || undefined,
      }]),
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

/** `pagination.ts`: order fields per type, and the root connection field of each type. */
export function emitPagination(graph: Graph, runtime: string): string {
  const orderFields = Object.fromEntries(graph.types.map((t) => [
    t.name,
    Object.fromEntries(
      t.orderFields.map((o) => [o.name, {
        prop: o.prop,
        kind: o.kind,
        nullable: o.nullable,
        count: o.count,
        field: o.field,
      }]),
    ),
  ]));
  const queryFields = Object.fromEntries(
    graph.types.filter((t) => t.queryField).map((t) => [t.name, t.queryField]),
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
    ],
  );
}

/** `enums.ts`: GraphQL enum value -> entity value, per generated enum. */
export function emitEnums(graph: Graph): string {
  const value = Object.fromEntries(
    graph.enums.map((
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
