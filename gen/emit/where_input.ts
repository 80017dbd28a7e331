/**
 * `where_input.ts`: per type, its `<T>WhereInput` as a table (predicate base name -> property,
 * value kind, operator family, nullability; edges with `has<Edge>` predicates), read by the
 * runtime's `whereFilter`.
 *
 * @module
 */
import type { GraphQLSchema } from "graphql";
import type { WhereFieldDescription, WhereInputDescription } from "../../runtime/graph.ts";
import type { Model, ModelWhereField } from "../model.ts";
import { description, type OwnKeys, renderTables } from "./module.ts";

const WHERE_FIELD_OWN: OwnKeys<ModelWhereField, WhereFieldDescription> = {
  name: true,
  graphqlType: true,
};

/**
 * Renders `where_input.ts`.
 *
 * @param schema the generated schema: a where input it leaves out (nothing takes it) gets no table
 */
export function emitWhereInput(model: Model, runtime: string, schema: GraphQLSchema): string {
  const value = Object.fromEntries(
    model.types.filter((t) => t.where && schema.getType(t.where.name)).map((t) => [
      t.name,
      {
        name: t.where!.name,
        fields: Object.fromEntries(
          t.where!.fields.map((f) => [
            f.name,
            description<ModelWhereField, WhereFieldDescription>(f, WHERE_FIELD_OWN),
          ]),
        ),
        edges: t.where!.edges.map((e) => e.name),
      } satisfies WhereInputDescription,
    ]),
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
