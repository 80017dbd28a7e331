/**
 * `checkSelections`: aliases and repeated response keys (or fragment spreads) per selection set,
 * at the limits and one over, in nested and fragment selection sets; the first set over a limit
 * is reported, naming the limit and its value.
 */
import { assert, assertEquals } from "@std/assert";
import { parse } from "graphql";
import { checkSelections } from "../../../runtime/plugins/selection_limits.ts";

const LIMITS = { maxAliases: 3, maxFieldRepeats: 2 };

/** `n` fields aliased `a0: name`, `a1: name`, ... (distinct response keys). */
function aliases(n: number): string {
  return Array.from({ length: n }, (_, i) => `a${i}: name`).join(" ");
}

Deno.test("selection limits: aliases per selection set, at the limit and one over", () => {
  assertEquals(checkSelections(parse(`{ ${aliases(3)} }`), LIMITS), undefined);
  const error = checkSelections(parse(`{ ${aliases(4)} }`), LIMITS);
  assertEquals(error?.extensions.code, "QUERY_TOO_COMPLEX");
  assertEquals(error?.message, "a selection has 4 aliases; the limit is maxAliases = 3");
  // Counted per selection set: 3 at the root and 3 inside are within the limit.
  assertEquals(
    checkSelections(parse(`{ ${aliases(2)} users { ${aliases(3)} } }`), LIMITS),
    undefined,
  );
  // ... and the nested set over it is found.
  assertEquals(
    checkSelections(parse(`{ users { edges { node { ${aliases(4)} } } } }`), LIMITS)?.message,
    "a selection has 4 aliases; the limit is maxAliases = 3",
  );
  // In a fragment's and an inline fragment's selection set too.
  for (
    const doc of [`{ ...F } fragment F on Query { ${aliases(4)} }`, `{ ... { ${aliases(4)} } }`]
  ) {
    assertEquals(checkSelections(parse(doc), LIMITS)?.extensions.code, "QUERY_TOO_COMPLEX", doc);
  }
});

Deno.test("selection limits: one response key or fragment spread repeated, at the limit and one over", () => {
  assertEquals(checkSelections(parse("{ name name }"), LIMITS), undefined);
  assertEquals(
    checkSelections(parse("{ name name name }"), LIMITS)?.message,
    `"name" appears more than 2 times in one selection; the limit is maxFieldRepeats = 2`,
  );
  // The response key counts: an alias that reuses a field's name repeats it, and aliases of one
  // field under different names do not.
  assertEquals(
    checkSelections(parse("{ name name: email name: id }"), LIMITS)?.extensions.code,
    "QUERY_TOO_COMPLEX",
  );
  assertEquals(checkSelections(parse("{ a: name b: name c: name }"), LIMITS), undefined);
  // A fragment spread is a key of its own (`...F`), never mixed up with a field named alike.
  assertEquals(
    checkSelections(parse("{ ...F ...F ...F } fragment F on Query { name }"), LIMITS)?.message,
    `"...F" appears more than 2 times in one selection; the limit is maxFieldRepeats = 2`,
  );
  assertEquals(
    checkSelections(parse("{ ...F ...F F F } fragment F on Query { name }"), LIMITS),
    undefined,
  );
  // Inline fragments are not keys; their own sets are checked on their own.
  assertEquals(
    checkSelections(parse("{ ... { name } ... { name } ... { name } }"), LIMITS),
    undefined,
  );
  // A key longer than 100 characters is cut in the message.
  const long = "x".repeat(300);
  const message = checkSelections(parse(`{ ${long} ${long} ${long} }`), LIMITS)?.message ?? "";
  assert(message.startsWith(`"${"x".repeat(100)}" appears more than 2 times`), message);
});

Deno.test("selection limits: the first selection set over a limit in document order is reported", () => {
  const document = parse(`{
    users { edges { node { name name name } } }
    posts { ${aliases(5)} }
  }`);
  assertEquals(
    checkSelections(document, LIMITS)?.message,
    `"name" appears more than 2 times in one selection; the limit is maxFieldRepeats = 2`,
  );
  // Within one set the repeats are found while counting, the aliases after it.
  assertEquals(
    checkSelections(parse(`{ ${aliases(5)} x x x }`), LIMITS)?.message,
    `"x" appears more than 2 times in one selection; the limit is maxFieldRepeats = 2`,
  );
});
