/**
 * The custom scalars. `Time` serialises a date as `Date.prototype.toISOString` does (it formats
 * years 0 to 9999 itself), on the edges of that range, of months, days and milliseconds, and on
 * random dates from year -5900 to 9800; it parses RFC 3339 date-times (section 5.6), refusing a
 * day the Gregorian calendar (JavaScript's `Date.UTC`) does not have. `BigInt` keeps 64-bit
 * integers exact as decimal strings (checked against JavaScript's `BigInt`), `JSON` literals
 * read as graphql-js's `valueFromASTUntyped` reads them, `Cursor` is a string, `Bytes` is padded
 * base64 both ways.
 */
import { assert, assertEquals, assertThrows } from "@std/assert";
import { GraphQLError, Kind, parseValue, valueFromASTUntyped } from "graphql";
import {
  BigIntScalar,
  BytesScalar,
  CursorScalar,
  JSONScalar,
  TimeScalar,
} from "../../../runtime/resolve/scalars.ts";

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

Deno.test("Time parses RFC 3339 date-times: every day the calendar has, nothing else", () => {
  const days = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate();
  for (const year of [1999, 2000, 2024, 2100]) {
    for (let month = 1; month <= 12; month++) {
      for (let day = 1; day <= 31; day++) {
        const text = `${year}-${String(month).padStart(2, "0")}-${
          String(day).padStart(2, "0")
        }T12:30:45Z`;
        if (day <= days(year, month)) {
          assertEquals(TimeScalar.parseValue(text), new Date(text), text);
        } else {
          assertThrows(() => TimeScalar.parseValue(text), GraphQLError, "RFC 3339", text);
        }
      }
    }
  }
  // offsets, fractions of any length, lower-case t and z (RFC 3339 section 5.6, NOTE)
  for (
    const text of [
      "2026-01-02T03:04:05+05:30",
      "2026-01-02T03:04:05.1-08:00",
      "2026-01-02T03:04:05.123456789Z",
      "2026-01-02t03:04:05z",
      "2026-01-02T23:59:59.999Z",
    ]
  ) {
    assertEquals((TimeScalar.parseValue(text) as Date).getTime(), new Date(text).getTime(), text);
  }
  for (
    const text of [
      "2026-01-02T24:00:00Z", // hour 24
      "2026-01-02T03:60:00Z",
      "2026-12-31T23:59:60Z", // a leap second: JavaScript dates cannot hold it
      "2026-01-02T03:04:05", // no offset
      "2026-01-02 03:04:05Z", // a space: not this scalar's separator
      "2026-1-2T03:04:05Z",
      "2026-00-10T03:04:05Z",
      "2026-01-02",
      "",
    ]
  ) {
    assertThrows(() => TimeScalar.parseValue(text), GraphQLError, "RFC 3339", text);
  }
  assertThrows(() => TimeScalar.parseValue(1_767_323_045), GraphQLError, "got number");
  const long = TimeScalar.parseValue.bind(null, "9".repeat(300));
  assertThrows(long, GraphQLError, `got "${"9".repeat(100)}"… (300 characters)`);
  // A literal: only a string
  assertEquals(
    TimeScalar.parseLiteral(parseValue('"2026-01-02T03:04:05Z"')),
    new Date("2026-01-02T03:04:05Z"),
  );
  assertThrows(() => TimeScalar.parseLiteral(parseValue("20260102")), GraphQLError, "RFC 3339");
});

Deno.test("BigInt keeps 64-bit integers exact as decimal strings", () => {
  let seed = 64;
  const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  for (let i = 0; i < 500; i++) {
    const value = BigInt.asIntN(
      64,
      BigInt(Math.floor(rand() * 2 ** 31)) << 33n | BigInt(Math.floor(rand() * 2 ** 31)),
    );
    const text = BigIntScalar.serialize(value) as string;
    assertEquals(BigInt(text), value);
    assertEquals(BigIntScalar.parseValue(text), text);
    assertEquals(BigIntScalar.parseLiteral(parseValue(text)), text); // an Int literal
    assertEquals(BigIntScalar.parseLiteral(parseValue(JSON.stringify(text))), text);
  }
  assertEquals(BigIntScalar.serialize(2n ** 63n - 1n), "9223372036854775807");
  assertEquals(BigIntScalar.serialize(-42), "-42");
  assertEquals(BigIntScalar.serialize(Number.MAX_SAFE_INTEGER), "9007199254740991");
  for (const bad of [2 ** 53, 1.5, "1.5", "1e3", " 1", "", null, true]) {
    assertThrows(() => BigIntScalar.parseValue(bad), GraphQLError, "BigInt must be", String(bad));
  }
  assertThrows(() => BigIntScalar.parseLiteral(parseValue("1.5")), GraphQLError);
});

Deno.test("JSON literals read as graphql-js's valueFromASTUntyped; variables inside are refused", () => {
  for (
    const literal of [
      '{ a: [1, 2.5, "x", true, null], b: { c: "d" } }',
      "[]",
      "-3",
      '"text"',
      "null",
      "ENUM_VALUE_AS_TEXT",
    ]
  ) {
    const ast = parseValue(literal);
    if (ast.kind === Kind.ENUM) {
      assertThrows(() => JSONScalar.parseLiteral(ast), GraphQLError);
      continue;
    }
    assertEquals(JSONScalar.parseLiteral(ast), valueFromASTUntyped(ast), literal);
  }
  assertThrows(
    () => JSONScalar.parseLiteral(parseValue("{ a: $v }")),
    GraphQLError,
    "JSON literals cannot hold variables",
  );
  const value = { nested: [1, { x: null }] };
  assertEquals(JSONScalar.serialize(value), value);
  assertEquals(JSONScalar.parseValue(value), value);
});

Deno.test("Cursor is a string", () => {
  assertEquals(CursorScalar.serialize("abc"), "abc");
  assertEquals(CursorScalar.parseValue("abc"), "abc");
  assertEquals(CursorScalar.parseLiteral(parseValue('"abc"')), "abc");
  assertThrows(() => CursorScalar.parseValue(5), GraphQLError, "Cursor must be a string, got 5");
  assertThrows(() => CursorScalar.parseLiteral(parseValue("5")), GraphQLError, "Cursor must be");
  assert(CursorScalar.description);
});

Deno.test("Bytes is base64 both ways, without touching the value's buffer", () => {
  const bytes = new Uint8Array([0, 1, 2, 250, 255]);
  assertEquals(BytesScalar.serialize(bytes), "AAEC+v8=");
  assertEquals([...bytes], [0, 1, 2, 250, 255], "still readable after serialising");
  const view = new Uint8Array([9, 0, 1, 2, 9]).subarray(1, 4);
  assertEquals(BytesScalar.serialize(view), "AAEC");
  assertEquals([...BytesScalar.parseValue("AAEC+v8=") as Uint8Array], [0, 1, 2, 250, 255]);
  assertEquals([...BytesScalar.parseValue("") as Uint8Array], []);
  for (const bad of ["AAE", "AA=C", "not base64!", "AAEC-_8", 12]) {
    assertThrows(() => BytesScalar.parseValue(bad), Error, "Bytes must be a base64 string");
  }
  assertThrows(() => BytesScalar.serialize("AAEC"), Error, "Bytes cannot represent");
});
