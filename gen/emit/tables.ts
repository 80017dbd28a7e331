/**
 * The declarative table modules: `collection.ts` (scalar fields), `edges.ts`, `pagination.ts`
 * (order fields and root connection fields) and `enums.ts`.
 *
 * @module
 */
import type { Graph } from "../graph.ts";
import { addImport, type Imports, literal, renderModule } from "./module.ts";

/** `collection.ts`: per type, GraphQL field -> entity property and scalar kind. */
export function emitCollection(graph: Graph, runtime: string): string {
  const value = Object.fromEntries(graph.types.map((t) => [
    t.name,
    Object.fromEntries(
      t.fields.map((
        f,
      ) => [f.name, { prop: f.prop, kind: f.kind, enum: f.enum }]),
    ),
  ]));
  const collectedFor = Object.fromEntries(
    graph.types.filter((t) => Object.keys(t.collectedFor).length > 0).map((
      t,
    ) => [t.name, t.collectedFor]),
  );
  const imports: Imports = new Map();
  addImport(imports, runtime, "type FieldDescription", "type Tables");
  const body = [
    `/** GraphQL type -> GraphQL field -> scalar field. */`,
    `export const fields = ${literal(value)} satisfies Tables<FieldDescription>;`,
    "",
    `/** GraphQL type -> user-resolved field -> properties it needs (\`CollectedFor\`). */`,
    `export const collectedFor = ${literal(collectedFor)} satisfies Tables<string[]>;`,
  ].join("\n");
  return renderModule(
    "Field collection table: per type, GraphQL field -> entity property.",
    imports,
    body,
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
  return tableModule(
    runtime,
    "Edges: per type, one entry per GraphQL edge field, resolved by the runtime's edge resolver.",
    "EdgeDescription",
    "edges",
    "GraphQL type -> GraphQL edge -> edge.",
    value,
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
  const imports: Imports = new Map();
  addImport(imports, runtime, "type OrderFieldDescription", "type Tables");
  const body = [
    `/** GraphQL type -> \`<T>OrderField\` value -> ordered property. */`,
    `export const orderFields = ${literal(orderFields)} satisfies Tables<OrderFieldDescription>;`,
    "",
    `/** GraphQL type -> root connection field of \`Query\`. */`,
    `export const queryFields = ${literal(queryFields)} satisfies Record<string, string>;`,
  ].join("\n");
  return renderModule(
    "Pagination: order fields and root connection fields per type.",
    imports,
    body,
  );
}

/** `enums.ts`: GraphQL enum value -> entity value, per generated enum. */
export function emitEnums(graph: Graph): string {
  const value = Object.fromEntries(
    graph.enums.map((
      e,
    ) => [e.name, Object.fromEntries(e.values.map((v) => [v.name, v.value]))]),
  );
  const body = `/** GraphQL enum -> GraphQL value -> entity value. */\nexport const enums = ${
    literal(value)
  } satisfies Record<string, Record<string, string | number>>;`;
  return renderModule(
    "Enum value mappings between GraphQL and the entities.",
    new Map(),
    body,
  );
}

function tableModule(
  runtime: string,
  doc: string,
  description: string,
  exportName: string,
  exportDoc: string,
  value: Record<string, unknown>,
): string {
  const imports: Imports = new Map();
  addImport(imports, runtime, `type ${description}`, "type Tables");
  const body = `/** ${exportDoc} */\nexport const ${exportName} = ${
    literal(value)
  } satisfies Tables<${description}>;`;
  return renderModule(doc, imports, body);
}
