/**
 * Checks of mutation input values against their columns, before any SQL runs, so a value the
 * database would refuse (or, on SQLite, silently store) is a `BAD_USER_INPUT` error naming the
 * input field on every database:
 *
 * - strings: no NUL character (PostgreSQL cannot store it), and at most the column's length:
 *   `varchar(n)`/`char(n)` from the column type, `p.string()` without a length 255 (MikroORM's
 *   default, applied on SQLite too), MariaDB `tinytext`/`text`/`mediumtext` 255/65,535/16,777,215
 *   UTF-8 bytes;
 * - integers: within the column type's range (`tinyint`, `smallint`, `mediumint`, `int`,
 *   `bigint`);
 * - dates: a valid date with a year from 1 to 9999 (from 1000 on MariaDB/MySQL, the `datetime`
 *   range);
 * - enums: one of the property's items.
 *
 * @module
 */
import type { EntityManager, EntityProperty } from "@mikro-orm/core";
import type { GraphQLError } from "graphql";
import { dialectOf } from "./dialect.ts";
import { ErrorCode, gqlError, quoteInput } from "./error_codes.ts";

const INTEGER_RANGES: [RegExp, number][] = [
  [/^tinyint/, 2 ** 7],
  [/^smallint|^int2\b/, 2 ** 15],
  [/^mediumint/, 2 ** 23],
  [/^(int|integer|int4)\b/, 2 ** 31],
  [/^(bigint|int8)\b/, 2 ** 63],
];

const TEXT_BYTES: Record<string, number> = {
  tinytext: 255,
  text: 65_535,
  mediumtext: 16_777_215,
};

const encoder = new TextEncoder();

/**
 * `BAD_USER_INPUT` naming `path` when `value` contains a NUL character (U+0000), which the
 * databases cannot store (PostgreSQL refuses it in text, even as a query parameter); `undefined`
 * otherwise. The one NUL rule: {@linkcode checkColumnValue} applies it to every string written to
 * a column, the `Limits` plugin's argument limits (`argument_limits.ts`) to every string argument.
 */
export function nulCharacterError(value: string, path: string): GraphQLError | undefined {
  return value.includes("\0")
    ? gqlError(
      ErrorCode.BAD_USER_INPUT,
      `${path}: contains a NUL character (U+0000), which the databases cannot store`,
    )
    : undefined;
}

/**
 * The kind of value a text column holds that compares as a value, not as text: a `decimal`
 * (`p.decimal()`, MikroORM's string), a `date` or a `time` of day; `undefined` for others.
 */
export function textValueKind(prop: EntityProperty): "decimal" | "date" | "time" | undefined {
  const type = String(prop.type).toLowerCase();
  const column = (prop.columnTypes?.[0] ?? "").toLowerCase();
  if (type === "decimal" || /^(decimal|numeric)\b/.test(column)) return "decimal";
  if (type === "date" || column === "date") return "date";
  if (type === "time" || /^time\b(?!stamp)/.test(column)) return "time";
  return undefined;
}

/** The text each {@linkcode textValueKind} accepts. */
export const TEXT_VALUE: Record<"decimal" | "date" | "time", RegExp> = {
  decimal: /^[+-]?(\d+(\.\d*)?|\.\d+)$/,
  date: /^\d{4}-\d\d-\d\d$/,
  time: /^\d\d:\d\d(:\d\d(\.\d+)?)?$/,
};

/**
 * Checks `value`, about to be written to `prop` of an entity of `em`.
 *
 * @param path the input path for the message (`input.title`)
 * @throws GraphQLError `BAD_USER_INPUT` naming `path` and the column's limit
 */
export function checkColumnValue(
  em: EntityManager,
  prop: EntityProperty,
  value: unknown,
  path: string,
): void {
  if (value == null) return;
  const column = (prop.columnTypes?.[0] ?? "").toLowerCase();
  const bad = (why: string) => gqlError(ErrorCode.BAD_USER_INPUT, `${path}: ${why}`);
  if (prop.enum && prop.items?.length && !prop.items.includes(value as never)) {
    throw bad(`${quoteInput(String(value))} is not one of ${prop.items.join(", ")}`);
  }
  if (typeof value === "string") {
    const nul = nulCharacterError(value, path);
    if (nul) throw nul;
    const chars = charLimit(prop, column);
    if (chars !== undefined && value.length > chars) {
      throw bad(`a string of ${value.length} characters; the column holds at most ${chars}`);
    }
    const bytes = dialectOf(em) === "mysql" ? TEXT_BYTES[column] : undefined;
    if (bytes !== undefined && value.length > bytes / 3 && encoder.encode(value).length > bytes) {
      throw bad(`longer than the column's ${bytes} bytes`);
    }
  } else if (typeof value === "number" || typeof value === "bigint") {
    const range = INTEGER_RANGES.find(([pattern]) => pattern.test(column))?.[1];
    if (range === undefined) return;
    const max = BigInt(range) * (prop.unsigned ? 2n : 1n) - 1n;
    const min = prop.unsigned ? 0n : -BigInt(range);
    if (typeof value === "number" && !Number.isInteger(value)) {
      throw bad(`${value} is not an integer`);
    }
    const n = BigInt(value);
    if (n < min || n > max) throw bad(`${n} is out of the column's range ${min} to ${max}`);
  } else if (value instanceof Date) {
    const year = value.getUTCFullYear();
    const first = dialectOf(em) === "mysql" ? 1000 : 1;
    if (Number.isNaN(year) || year < first || year > 9999) {
      throw bad(`the date must be between the years ${first} and 9999`);
    }
  }
}

/** The most characters the column holds, when it is limited in characters. */
function charLimit(prop: EntityProperty, column: string): number | undefined {
  const declared = column.match(/^(?:var)?char(?:acter)?(?: varying)?\((\d+)\)/);
  if (declared) return Number(declared[1]);
  if (prop.length) return prop.length;
  return prop.type === "string" || prop.runtimeType === "string" && column === "varchar"
    ? 255
    : undefined;
}
