/**
 * Value markers against MikroORM's own formatting as the oracle: for random fragments and values
 * (strings with quotes, backslashes, question marks and comment ends, numbers, booleans, null,
 * dates, bigints, and values no marker carries, formatted in),
 * a fragment whose values were written as markers, placed in a statement with values of its own
 * (`?`, `??`, `\?`), then unmarked, formats (`platform.formatQuery`) to the same text as the
 * statement with the fragment's values formatted in; and a marker without the process's nonce
 * (text a value could hold) is not taken for one.
 */
import { assertEquals } from "@std/assert";
import { PostgreSqlPlatform } from "@mikro-orm/postgresql";
import { markValues, unmarkValues } from "../../../runtime/database/value_markers.ts";
import { testSeed } from "../../support/test_seed.ts";
import { random } from "../../support/random_data.ts";

const SEED = testSeed("SEED", 20_261_129);

Deno.test(`value markers format as the values they carry (seed ${SEED})`, () => {
  const next = random(SEED);
  const pick = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)];
  const platform = new PostgreSqlPlatform();
  const format = (token: "?" | "??", value: unknown) => platform.formatQuery(token, [value]);
  const value = () =>
    pick([
      () => pick(["a'b", "c\\d", "e?f", "*/", "/*", "ü€😀", "", "x y"]) + String(next()),
      () => Math.floor(next() * 2e6) - 1e6,
      () => next() * 1e3,
      () => next() < 0.5,
      () => null,
      () => new Date(Math.floor(next() * 4e12)),
      () => BigInt(Math.floor(next() * 1e15)) * 1000n,
      () => Infinity,
      () => ({ a: next() }),
    ])();
  for (let round = 0; round < 500; round++) {
    const inner: unknown[] = Array.from({ length: 1 + Math.floor(next() * 3) }, value);
    const fragment = `select "k" from "t" where ${
      inner.map((_, i) => `"c${i}" = ?`).join(" and ")
    }`;
    const marked = markValues(fragment, inner, format);
    // A value first: formatQuery leaves a text without values as it is (`\?` included). The
    // oracle: the statement with the fragment's placeholders, all values formatted at once.
    const outer: unknown[] = [value()];
    const all: unknown[] = [...outer];
    let text = "? ";
    for (let part = 0; part < 4; part++) {
      const kind = pick(["value", "identifier", "question", "fragment"]);
      if (kind === "value") {
        const v = value();
        text += " ? ";
        outer.push(v);
        all.push(v);
      } else if (kind === "identifier") {
        text += " ?? ";
        outer.push(`col${part}`);
        all.push(`col${part}`);
      } else if (kind === "question") text += " '\\?' ";
      else {
        text += ` (${marked}) `;
        all.push(...inner);
      }
    }
    const expected = platform.formatQuery(text.replaceAll(marked, fragment), all);
    const unmarked = unmarkValues(text, outer);
    assertEquals(platform.formatQuery(unmarked.sql, [...unmarked.params]), expected, text);
  }
  // An identifier is formatted.
  assertEquals(markValues("x = ??", ["col"], format), `x = "col"`);
  // A marker written without this process's nonce (a value's text) is left as it is.
  const marker = markValues("x = ?", ["v"], format);
  assertEquals(unmarkValues(marker, []), { sql: "x = ?", params: ["v"] });
  const forged = marker.replace(/value\.[0-9a-f]+:/, "value.0000000000000000:");
  assertEquals(unmarkValues(`y = '${forged}'`, []), { sql: `y = '${forged}'`, params: [] });
});
