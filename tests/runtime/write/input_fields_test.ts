/**
 * The fields an input gives, against the rule the generated inputs document (`graph.ts`,
 * `NodeMutation.set`): `undefined` and `null` leave a property unchanged, `clear<Field>` clears
 * only when `true`, `false` / `0` / `""` are values, and entries the generated input does not
 * describe (a user's `extend input` field) are the caller's. The oracle is a filter written
 * from that rule, run on every combination of field kind and value.
 */
import { assertEquals } from "@std/assert";
import type { MutationInputFieldDescription } from "../../../runtime/graph.ts";
import { givenFields } from "../../../runtime/write/input_fields.ts";

const TABLE: Record<string, MutationInputFieldDescription> = {
  title: { op: "set", kind: "field", prop: "title" },
  clearTitle: { op: "clear", kind: "field", prop: "title" },
  authorID: { op: "set", kind: "edge", prop: "author", target: "User" },
  clearAuthor: { op: "clear", kind: "edge", prop: "author" },
  addTagIDs: { op: "add", kind: "edges", prop: "tags", target: "Tag" },
  removeTagIDs: { op: "remove", kind: "edges", prop: "tags", target: "Tag" },
  clearTags: { op: "clear", kind: "edges", prop: "tags" },
};

const VALUES: unknown[] = [undefined, null, true, false, 0, "", "x", ["VGFnOjE="], []];

Deno.test("givenFields: every field with every value, against the documented rule", () => {
  for (const name of Object.keys(TABLE)) {
    for (const value of VALUES) {
      const clear = TABLE[name].op === "clear";
      const expected = (clear ? value === true : value !== undefined && value !== null)
        ? [{ name, field: TABLE[name], value }]
        : [];
      assertEquals(givenFields(TABLE, { [name]: value }), expected, `${name}: ${String(value)}`);
    }
  }
});

Deno.test("givenFields: keeps the input's order and leaves fields the table lacks out", () => {
  const input = {
    clearTags: true,
    extra: "a user's field",
    title: "t",
    authorID: null,
    addTagIDs: ["a"],
  };
  assertEquals(givenFields(TABLE, input).map((f) => f.name), ["clearTags", "title", "addTagIDs"]);
});
