/**
 * The custom scalars. `Time` serialises a date as `Date.prototype.toISOString` does (it formats
 * years 0 to 9999 itself), on the edges of that range, of months, days and milliseconds, and on
 * random dates from year -5900 to 9800; it parses RFC 3339 date-times (section 5.6), refusing a
 * day the Gregorian calendar (JavaScript's `Date.UTC`) does not have. `Date` takes and gives
 * `YYYY-MM-DD` days of that calendar (every day of years 1 to 9999 against `Date.UTC`);
 * `Decimal` takes plain decimal text and gives a number's or an exponent text's plain digits
 * (checked against JavaScript's `BigInt` arithmetic). `BigInt` keeps 64-bit
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
  DateScalar,
  DecimalScalar,
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

Deno.test("Date takes and gives YYYY-MM-DD days of the calendar", () => {
  // Every day of a year that is a leap year (2024), one that is not (2026), 2000 and 1900, and
  // the first and last days of years 1 to 9999, against Date.UTC's calendar.
  const days: string[] = [];
  for (const year of [1900, 2000, 2024, 2026]) {
    for (let t = Date.UTC(year, 0, 1); t < Date.UTC(year + 1, 0, 1); t += 86_400_000) {
      days.push(new Date(t).toISOString().slice(0, 10));
    }
  }
  for (let year = 1; year <= 9999; year += 7) {
    const first = new Date(Date.UTC(2000, 0, 1));
    first.setUTCFullYear(year);
    days.push(first.toISOString().slice(0, 10), `${String(year).padStart(4, "0")}-12-31`);
  }
  for (const day of days) {
    assertEquals(DateScalar.parseValue(day), day);
    assertEquals(DateScalar.parseLiteral(parseValue(JSON.stringify(day))), day);
    assertEquals(DateScalar.serialize(day), day);
    assertEquals(DateScalar.serialize(new Date(`${day}T00:00:00Z`)), day);
  }
  assertEquals(days.filter((d) => d.endsWith("-02-29")).length, 2); // 2000 and 2024, not 1900
  for (
    const bad of [
      "2026-02-29", // not a leap year
      "1900-02-29",
      "2026-02-30",
      "2026-04-31",
      "2026-13-01",
      "2026-00-10",
      "2026-01-00",
      "2026-1-2",
      "26-01-02",
      "2026-01-02T00:00:00Z",
      " 2026-01-02",
      "",
    ]
  ) {
    assertThrows(() => DateScalar.parseValue(bad), GraphQLError, "Date must be", bad);
    assertThrows(() => DateScalar.serialize(bad), GraphQLError, "Date cannot represent", bad);
  }
  assertThrows(() => DateScalar.parseValue(20260102), GraphQLError, "got number");
  assertThrows(() => DateScalar.parseLiteral(parseValue("20260102")), GraphQLError, "Date must");
  assertThrows(() => DateScalar.serialize(new Date(NaN)), GraphQLError, "Date cannot");
});

Deno.test("Decimal takes plain decimal text and gives the stored text in plain digits", () => {
  for (const text of ["0", "-0.00", "007.50", "12.5", "-99999999.99", "1" + "0".repeat(40)]) {
    assertEquals(DecimalScalar.parseValue(text), text);
    assertEquals(DecimalScalar.parseLiteral(parseValue(JSON.stringify(text))), text);
    assertEquals(DecimalScalar.serialize(text), text); // the database's text, its scale kept
  }
  assertEquals(DecimalScalar.parseValue(42), "42");
  assertEquals(
    DecimalScalar.parseLiteral(parseValue("123456789012345678901234567890")),
    "123456789012345678901234567890",
  );
  for (
    const bad of [
      "1e5",
      "1.",
      ".5",
      "+1",
      " 1",
      "1 ",
      "NaN",
      "Infinity",
      "1,5",
      "",
      1.5,
      2 ** 53,
      null,
      true,
    ]
  ) {
    assertThrows(() => DecimalScalar.parseValue(bad), GraphQLError, "Decimal must be", String(bad));
  }
  assertThrows(() => DecimalScalar.parseLiteral(parseValue("1.5")), GraphQLError, "Decimal must");
  // Numbers and exponent text (SQLite's reals) in plain digits, exact: the digits of the
  // shortest round-trip text shifted by the exponent, checked with BigInt arithmetic.
  let seed = 7;
  const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const numbers = [1e21, -1e21, 1.5e-7, 5e-324, 1.7976931348623157e308, 0.1 + 0.2, -0, 123.456];
  for (let i = 0; i < 2000; i++) numbers.push((rand() - 0.5) * 10 ** Math.floor(rand() * 60 - 30));
  for (const n of numbers) {
    const text = DecimalScalar.serialize(n) as string;
    assert(/^-?\d+(\.\d*[1-9])?$/.test(text), `${n} -> ${text}`);
    const [mantissa, exponent = "0"] = String(n).split("e");
    const [integer, fraction = ""] = mantissa.replace("-", "").split(".");
    const scale = Math.max(0, fraction.length - Number(exponent));
    const expected = BigInt(integer + fraction) *
      10n ** BigInt(Math.max(0, Number(exponent) - fraction.length));
    const [gotInteger, gotFraction = ""] = text.replace("-", "").split(".");
    assertEquals(
      BigInt(gotInteger + gotFraction.padEnd(scale, "0")),
      expected,
      `${n} -> ${text}`,
    );
    assertEquals(Number(text), n === 0 ? 0 : n, `${n} -> ${text}`);
    assertEquals(DecimalScalar.serialize(String(n)), text);
  }
  assertEquals(DecimalScalar.serialize(12n), "12");
  for (const bad of [NaN, Infinity, "NaN", "Infinity", "abc", null, {}]) {
    assertThrows(() => DecimalScalar.serialize(bad), GraphQLError, "Decimal cannot", String(bad));
  }
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
