/**
 * A `Create<T>Input` / `Update<T>Input` value and the fields it gives: which of its entries a
 * write applies, each with the description of its generated input field.
 *
 * @module
 */
import type { MutationInputFieldDescription } from "../graph.ts";

/** A `Create<T>Input` / `Update<T>Input` value as graphql-js passes it: field name -> value. */
export type MutationInput = Record<string, unknown>;

/** One field an input gives: its name in the input, its description, its value. */
export interface InputField {
  /** The field's name in the generated input, e.g. `authorID`, `clearTags`. */
  name: string;
  /** What the field does to which property (`graph.ts`). */
  field: MutationInputFieldDescription;
  /** The value as given: a scalar, a global id or a list of them, `true` for a `clear<Field>`. */
  value: unknown;
}

/**
 * The fields of `input` a write applies, in `input`'s order: a `clear<Field>` when it is `true`,
 * any other field when its value is neither `undefined` nor `null` (those leave the property
 * unchanged). Entries `table` does not describe (a user's `extend input` field) are left out.
 *
 * @param table the generated input's fields (`NodeType.mutations.create.input` or `update`'s)
 */
export function givenFields(
  table: Record<string, MutationInputFieldDescription>,
  input: MutationInput,
): InputField[] {
  return Object.entries(input).flatMap(([name, value]) => {
    const field = table[name];
    if (!field) return [];
    const given = field.op === "clear" ? value === true : value != null;
    return given ? [{ name, field, value }] : [];
  });
}
