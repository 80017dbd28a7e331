/**
 * `mutation_input.ts`: per type annotated `Mutations()`, the root mutation fields and, per field
 * of `Create<T>Input` / `Update<T>Input`, the entity change it makes (applied by the runtime's
 * `mutation.ts`).
 *
 * @module
 */
import type { Graph } from "../graph.ts";
import type { GraphMutationInput } from "../mutations.ts";
import { renderTables } from "./module.ts";

/** Renders `mutation_input.ts`. */
export function emitMutationInput(graph: Graph, runtime: string): string {
  const input = (m: GraphMutationInput | undefined) =>
    m && {
      field: m.field,
      input: Object.fromEntries(
        m.fields.map((f) => [f.name, { op: f.op, kind: f.kind, prop: f.prop, target: f.target }]),
      ),
    };
  const value = Object.fromEntries(
    graph.types.filter((t) => t.mutations).map((t) => [t.name, {
      create: input(t.mutations!.create),
      update: input(t.mutations!.update),
      delete: t.mutations!.delete,
    }]),
  );
  return renderTables(
    "Mutation inputs: per type, `Create<T>Input` / `Update<T>Input` field -> entity change.",
    runtime,
    ["MutationDescription"],
    [{
      name: "mutations",
      doc: "GraphQL type -> root mutation fields, and input field -> entity change.",
      value,
      type: "Record<string, MutationDescription>",
    }],
  );
}
