/**
 * The `Time` scalar serialises a date as `Date.prototype.toISOString` does (it formats years 0 to
 * 9999 itself), on the edges of that range, of months, days and milliseconds, and on random
 * dates from year -5900 to 9800.
 */
import { assertEquals, assertThrows } from "@std/assert";
import { GraphQLError } from "graphql";
import { TimeScalar } from "../../../runtime/resolve/scalars.ts";

Deno.test("Time serialises as toISOString", () => {
  const times = [
    0,
    -1,
    1,
    Date.UTC(2026, 1, 3, 4, 5, 6, 7),
    Date.UTC(2026, 11, 31, 23, 59, 59, 999),
    Date.UTC(2026, 9, 10, 10, 10, 10, 10),
    Date.UTC(2026, 0, 1, 0, 0, 0, 100),
    Date.UTC(999, 0, 1),
    new Date(0).setUTCFullYear(99, 0, 1), // year 99 (Date.UTC would take 99 for 1999)
    -62167219200000, // 0000-01-01T00:00:00.000Z
    -62167219200001, // the millisecond before: year -1
    253402300799999, // 9999-12-31T23:59:59.999Z
    253402300800000, // +010000-01-01
  ];
  // A fixed linear congruential sequence: the same dates on every run.
  let seed = 12345;
  for (let i = 0; i < 10_000; i++) {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    times.push(Math.round((seed / 2 ** 31) * 5e14 - 2.5e14));
  }
  for (const time of times) {
    const date = new Date(time);
    assertEquals(TimeScalar.serialize(date), date.toISOString(), String(time));
  }
  assertEquals(TimeScalar.serialize("2026-01-02T03:04:05Z"), "2026-01-02T03:04:05.000Z");
  assertEquals(TimeScalar.serialize(0), "1970-01-01T00:00:00.000Z");
  assertThrows(() => TimeScalar.serialize("never"), GraphQLError, "Time cannot represent never");
});
