/**
 * Cursors: the format is base64url (RFC 4648 §5, checked with `@std/encoding`) of the JSON array
 * `[id, values, order, type]`; every kind of value survives `encodeCursor` then `decodeCursor`;
 * a cursor of another node type or order, or one that does not hold values of the connection's
 * kinds, is `INVALID_CURSOR` naming the argument and quoting the value (cut at 100 characters).
 */
import { assertEquals, assertInstanceOf, assertStringIncludes, assertThrows } from "@std/assert";
import { decodeBase64Url, encodeBase64Url } from "@std/encoding/base64url";
import { GraphQLError } from "graphql";
import {
  type Cursor,
  type CursorShape,
  decodeCursor,
  encodeCursor,
} from "../../../runtime/plan/cursor.ts";

const SHAPE: CursorShape = {
  idKinds: ["int"],
  valueKinds: ["string", "time", "bigint", "float", "boolean", "enum", "exactTime", "exact", "int"],
  order: "TITLE,CREATED_AT,BIG,SCORE,DONE,STATUS,EXACT_TIME,EXACT,COUNT",
  type: "Post",
};

const CURSOR: Cursor = {
  id: 42,
  values: [
    "Tag:日本語 🚀",
    new Date("2026-01-02T03:04:05.678Z"),
    "9223372036854775807",
    1.5,
    false,
    "published",
    "2026-01-02 03:04:05.123456+00",
    "text",
    7,
  ],
  order: SHAPE.order,
  type: "Post",
};

/** What the cursor text holds, read with `@std/encoding` and `JSON.parse`. */
function contents(cursor: string): unknown {
  return JSON.parse(new TextDecoder().decode(decodeBase64Url(cursor)));
}

Deno.test("cursor: base64url of the JSON [id, values, order, type]", () => {
  const text = encodeCursor(CURSOR);
  const values = [...CURSOR.values];
  values[1] = "2026-01-02T03:04:05.678Z"; // a date as its ISO string
  assertEquals(contents(text), [42, values, SHAPE.order, "Post"]);
  // bigints as decimal strings, undefined and null as null
  assertEquals(
    contents(encodeCursor({ id: 2n ** 63n - 1n, values: [null, undefined], order: "", type: "T" })),
    ["9223372036854775807", [null, null], "", "T"],
  );
  assertEquals(
    text,
    encodeBase64Url(new TextEncoder().encode(JSON.stringify(contents(text)))),
  );
});

Deno.test("cursor: every value kind survives a round trip", () => {
  const decoded = decodeCursor(encodeCursor(CURSOR), SHAPE, "after");
  assertEquals(decoded, CURSOR);
  assertInstanceOf(decoded.values[1], Date);
  // null values (nullable order terms) of any kind
  const nulls = { ...CURSOR, values: CURSOR.values.map(() => null) };
  assertEquals(decodeCursor(encodeCursor(nulls), SHAPE, "after"), nulls);
  // SQLite keeps dates as epoch milliseconds: an exactTime value may be a number
  const epoch = { id: "01HX", values: [1_767_323_045_678], order: "T", type: "Todo" };
  assertEquals(
    decodeCursor(encodeCursor(epoch), {
      idKinds: ["string"],
      valueKinds: ["exactTime"],
      order: "T",
      type: "Todo",
    }, "before"),
    epoch,
  );
  // bigint keys come back as decimal strings
  assertEquals(
    decodeCursor(encodeCursor({ id: 2n ** 40n, values: [], order: "", type: "T" }), {
      idKinds: ["bigint"],
      valueKinds: [],
      order: "",
      type: "T",
    }, "after").id,
    "1099511627776",
  );
});

Deno.test("cursor: a composite key's id is the list of its parts, each of its kind", () => {
  const shape: CursorShape = {
    idKinds: ["int", "string"],
    valueKinds: ["string"],
    order: "NAME",
    type: "BookCopy",
  };
  const cursor = { id: [1, "a"], values: ["x"], order: "NAME", type: "BookCopy" };
  assertEquals(decodeCursor(encodeCursor(cursor), shape, "after"), cursor);
  for (const id of [[1], [1, 2], ["1", "a"], [1, null], 1, "a"]) {
    assertStringIncludes(
      refusal(encodeCursor({ ...cursor, id }), shape).message,
      "bad id",
    );
  }
});

/** The error `decodeCursor` throws for `value`. */
function refusal(value: string, shape: CursorShape = SHAPE): GraphQLError {
  const error = assertThrows(() => decodeCursor(value, shape, "after"), GraphQLError);
  assertEquals(error.extensions.code, "INVALID_CURSOR");
  assertStringIncludes(error.message, 'invalid cursor in "after": ');
  return error;
}

/** `value` quoted as error messages quote user input (cut at 100 characters). */
function quote(value: string): string {
  return value.length <= 100
    ? JSON.stringify(value)
    : `${JSON.stringify(value.slice(0, 100))}… (${value.length} characters)`;
}

/** A cursor text holding `json`. */
function raw(json: unknown): string {
  return encodeBase64Url(new TextEncoder().encode(JSON.stringify(json)));
}

Deno.test("cursor: what is not a cursor of the connection is INVALID_CURSOR, with the reason", () => {
  const good = contents(encodeCursor(CURSOR)) as unknown[];
  const cases: [string, string][] = [
    ["Pz8/Pz4+Pj4", "not base64url"], // the plain base64 alphabet
    [encodeBase64Url(new TextEncoder().encode("{not json")), "not a cursor"],
    [raw({ id: 1 }), "not a cursor"],
    [raw([1, [], "TITLE"]), "not a cursor"],
    [raw([1, "x", SHAPE.order, "Post"]), "not a cursor"],
    [raw([good[0], good[1], good[2], "User"]), "made for another node type (User)"],
    [raw([good[0], good[1], "TITLE", "Post"]), 'made for another order ("TITLE")'],
    [
      raw([good[0], (good[1] as unknown[]).slice(1), good[2], "Post"]),
      "wrong number of order values",
    ],
    [raw(["42", good[1], good[2], "Post"]), "bad id"], // an int key as a string
    [raw([2 ** 53, good[1], good[2], "Post"]), "bad id"], // not a safe integer
  ];
  for (const [value, why] of cases) {
    assertEquals(refusal(value).message, `invalid cursor in "after": ${why} (${quote(value)})`);
  }
  // A bad value of each kind.
  const bad: unknown[] = [
    1, // string
    "not a date", // time
    "12a", // bigint
    "1.5", // float
    "false", // boolean
    { x: 1 }, // enum
    "02/01/2026", // exactTime
    { x: 1 }, // exact
    1.5, // int
  ];
  for (const [i, value] of bad.entries()) {
    const values = [...(good[1] as unknown[])];
    values[i] = value;
    const error = refusal(raw([good[0], values, good[2], "Post"]));
    assertStringIncludes(error.message, "bad order value", `${SHAPE.valueKinds[i]}: ${value}`);
  }
  // JSON values are not orderable: a json value kind never decodes.
  assertStringIncludes(
    refusal(raw([1, [{}], "META", "Post"]), { ...SHAPE, valueKinds: ["json"], order: "META" })
      .message,
    "bad order value",
  );
});

Deno.test("cursor: a long value is quoted cut to 100 characters", () => {
  const value = "A".repeat(500);
  const error = refusal(value);
  assertEquals(
    error.message,
    `invalid cursor in "after": not a cursor (${
      JSON.stringify("A".repeat(100))
    }… (500 characters))`,
  );
});
