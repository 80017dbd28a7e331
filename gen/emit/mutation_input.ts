/**
 * `mutation_input.ts`: per type annotated `Mutations()`, the root mutation fields and, per field
 * of `Create<T>Input` / `Update<T>Input`, the entity change it makes (applied by the runtime's
 * `write/apply_input_field.ts`).
 *
 * @module
 */
import type { MutationDescription, MutationInputFieldDescription } from "../../runtime/graph.ts";
import type { Model, ModelMutationInput, ModelMutationInputField } from "../model.ts";
import { description, type OwnKeys, renderTables } from "./module.ts";

const INPUT_FIELD_OWN: OwnKeys<ModelMutationInputField, MutationInputFieldDescription> = {
  name: true,
  graphqlType: true,
  list: true,
  required: true,
};

/** Renders `mutation_input.ts`. */
export function emitMutationInput(model: Model, runtime: string): string {
  const input = (m: ModelMutationInput | undefined) =>
    m && {
      field: m.field,
      input: Object.fromEntries(
        m.fields.map((f) => [
          f.name,
          description<ModelMutationInputField, MutationInputFieldDescription>(f, INPUT_FIELD_OWN),
        ]),
      ),
    };
  const value = Object.fromEntries(
    model.types.filter((t) => t.mutations).map((t) => [
      t.name,
      {
        create: input(t.mutations!.create),
        update: input(t.mutations!.update),
        delete: t.mutations!.delete,
      } satisfies MutationDescription,
    ]),
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
