/**
 * `where_input.ts`: per type, its `<T>WhereInput` as a table (predicate base name -> property,
 * value kind, operator family, nullability; edges with `has<Edge>` predicates), read by the
 * runtime's `whereFilter`.
 *
 * @module
 */
import type { Graph } from "../graph.ts";
import { renderTables } from "./module.ts";

/** Renders `where_input.ts`. */
export function emitWhereInput(graph: Graph, runtime: string): string {
  const value = Object.fromEntries(
    graph.types.filter((t) => t.where).map((t) => [t.name, {
      name: t.where!.name,
      fields: Object.fromEntries(
        t.where!.fields.map((f) => [f.name, {
          prop: f.prop,
          kind: f.kind,
          target: f.target,
          ops: f.ops,
          nullable: f.nullable || undefined,
        }]),
      ),
      edges: t.where!.edges.map((e) => e.name),
    }]),
  );
  return renderTables(
    "Where inputs: per type, the predicates of `<T>WhereInput` and the properties they filter.",
    runtime,
    ["WhereInputDescription"],
    [{
      name: "whereInputs",
      doc: "GraphQL type -> its `<T>WhereInput`.",
      value,
      type: "Record<string, WhereInputDescription>",
    }],
  );
}
