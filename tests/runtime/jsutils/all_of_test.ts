/**
 * `allOf`: the conjunction of MikroORM filter queries, empty ones (no string or symbol key)
 * left out: none is `{}`, one is itself, more are `$and` in their order. A filter whose only key
 * is a symbol (a raw SQL fragment of an order term) is not empty.
 */
import { assertEquals, assertStrictEquals } from "@std/assert";
import { allOf } from "../../../runtime/jsutils/all_of.ts";

Deno.test("allOf: empty filters left out; one kept as is; more joined by $and in order", () => {
  const a = { views: { $lt: 6 } };
  const b = { title: "x" };
  assertEquals(allOf(), {});
  assertEquals(allOf({}, {}), {});
  assertStrictEquals(allOf({}, a, {}), a);
  assertEquals(allOf(a, {}, b), { $and: [a, b] });
});

Deno.test("allOf: a filter holding only a symbol key (raw SQL) counts", () => {
  const raw = { [Symbol("raw")]: 1 };
  assertStrictEquals(allOf({}, raw), raw);
  assertEquals(allOf(raw, { id: 1 }), { $and: [raw, { id: 1 }] });
});
