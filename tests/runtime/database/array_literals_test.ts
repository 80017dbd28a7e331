/**
 * runtime/database/array_literals.ts: string arrays written element for element. PostgreSQL's
 * literal is read back by `postgres-array` (what MikroORM's PostgreSQL platform reads with), the
 * comma-separated text of MariaDB/SQLite by MikroORM's own `unmarshallArray`.
 */
import { assertEquals } from "@std/assert";
import { PostgreSqlPlatform } from "@mikro-orm/postgresql";
import { MariaDbPlatform } from "@mikro-orm/mariadb";
import { exactArrayLiterals } from "../../../runtime/database/array_literals.ts";
import { random } from "../../support/random_data.ts";

const EDGES = [
  [],
  [""],
  ["", ""],
  ["NULL"],
  ["null", "Null"],
  [" x "],
  ["a,b"],
  ['"q"', "\\"],
  ["a\nb", "{}", "\t"],
  ["😀", "\u0001"],
];

function randomArrays(seed: number, n: number): string[][] {
  const rand = random(seed);
  const chars = [...'ab ,"\\{}\n\tNUL😀é'];
  return Array.from({ length: n }, () =>
    Array.from(
      { length: Math.floor(rand() * 4) },
      () =>
        Array.from(
          { length: Math.floor(rand() * 6) },
          () => chars[Math.floor(rand() * chars.length)],
        )
          .join(""),
    ));
}

Deno.test("exactArrayLiterals: PostgreSQL reads back every array as written", () => {
  const platform = new PostgreSqlPlatform();
  exactArrayLiterals(platform);
  for (const values of [...EDGES, ...randomArrays(36, 300)]) {
    assertEquals(platform.unmarshallArray(platform.marshallArray(values)), values);
  }
  assertEquals(platform.marshallArray(["NULL", " x "]), '{"NULL"," x "}');
});

Deno.test('exactArrayLiterals: MariaDB/SQLite keep [""]', () => {
  const platform = new MariaDbPlatform();
  exactArrayLiterals(platform);
  // The comma-separated text cannot tell [] from [""] but by quoting: every other array round-trips.
  for (const values of [...EDGES, ...randomArrays(37, 300)]) {
    assertEquals(platform.unmarshallArray(platform.marshallArray(values)), values);
  }
});
