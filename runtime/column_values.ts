/**
 * The one place that decides whether a value fits its column, before any SQL runs, so a value the
 * database would refuse (an internal error), reshape or silently store differently is a
 * `BAD_USER_INPUT` error naming the input field on every database. Mutation inputs are checked
 * as values to store ({@linkcode checkColumnValue}), where-filter operands as values to compare
 * with ({@linkcode checkFilterValue}):
 *
 * - strings: no NUL character (PostgreSQL cannot store it) and no unpaired UTF-16 surrogate
 *   (stored as U+FFFD); stored strings at most the column's length: `varchar(n)`/`char(n)` from
 *   the column type, `p.string()` without a length 255 (MikroORM's default, applied on SQLite
 *   too), counted in code points as the databases count characters (an emoji is one), MariaDB `tinytext`/`text`/`mediumtext` 255/65,535/16,777,215 UTF-8 bytes;
 * - numbers: finite (NaN and ±Infinity, which a Float literal such as `1e400` becomes, are
 *   refused); integers, and integer strings (`BigInt`), within the column type's range
 *   (`tinyint`, `smallint`, `mediumint`, `int`, `bigint`);
 * - decimals (`numeric(p,s)`/`decimal(p,s)`, given as strings): plain decimal syntax
 *   (`-12.50`; no exponent, `NaN` or spaces), at most `p - s` integer digits; a stored value
 *   with more than `s` decimals is refused rather than rounded (what is acknowledged is what is
 *   stored), a compared one may have more;
 * - dates (`date` columns, strings): `YYYY-MM-DD` exactly, a real calendar day, years 1 to 9999
 *   (stored on MariaDB/MySQL: from 1000, their `date` range); date-times (`Time` values): years 1
 *   to 9999 (stored on MariaDB/MySQL: from 1000, the `datetime` range), and on MariaDB/MySQL no
 *   more fraction digits of a second than the column keeps (`datetime` alone: none; refused
 *   rather than rounded);
 * - times (`time(p)` columns, strings): `HH:MM:SS` with at most 6 fraction digits, a real time
 *   of day; a stored value with more fraction digits than `p` (`time` alone: 6 on PostgreSQL,
 *   0 on MariaDB/MySQL) is refused rather than rounded;
 * - enums: one of the property's items;
 * - inline embeddables (flattened columns): each property against its own column, named by its
 *   path (`input.address.street`);
 * - UUIDs (`uuid` properties and columns): the 8-4-4-4-12 hex form, on every database (PostgreSQL
 *   refuses other text with an error of its own, the others would store or compare it as text);
 * - keys: the values of a decoded global id's key, or a cursor's, each checked against its
 *   column as a compared value ({@linkcode keyValueError}): an integer beyond the column's type
 *   or a malformed UUID names no row (`NOT_FOUND` for `node`/`nodes`, a mutation's target and
 *   the nodes its input connects) and is refused in a where filter (`BAD_USER_INPUT` naming it).
 *
 * @module
 */
import { type EntityManager, type EntityProperty, UuidType } from "@mikro-orm/core";
import type { GraphQLError } from "graphql";
import { dialectOf } from "./dialect.ts";
import { ErrorCode, gqlError, quoteInput } from "./error_codes.ts";
import type { NodeType } from "./graph.ts";
import { keyParts, keyValuesOf, type PrimaryKey } from "./keys.ts";

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
  // `Date` (a `Date` property's type, lower-cased) is a date-time: `date` exactly.
  if (prop.type === "date" || column === "date") return "date";
  if (type === "time" || /^time\b(?!stamp)/.test(column)) return "time";
  return undefined;
}

/**
 * `BAD_USER_INPUT` naming `path` when `value` holds an unpaired UTF-16 surrogate (`"ab\ud800"`),
 * which no database stores as given (PostgreSQL and MariaDB store U+FFFD); `undefined`
 * otherwise. Applied with the NUL rule, to the same strings.
 */
export function surrogateError(value: string, path: string): GraphQLError | undefined {
  return value.isWellFormed() ? undefined : gqlError(
    ErrorCode.BAD_USER_INPUT,
    `${path}: contains an unpaired UTF-16 surrogate, which the databases cannot store`,
  );
}

/**
 * Checks `value`, about to be written to `prop` of an entity of `em` (see the module
 * documentation).
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
  const error = embeddedValueError(em, prop, value, path) ??
    columnValueError(em, prop, value, path, true);
  if (error) throw error;
}

/**
 * The first property of an inline embeddable's value (`address: { street, city }`, stored in
 * flattened columns) its column cannot hold, named by its path (`input.address.street`); an
 * embeddable stored as JSON (`object: true`, arrays) has no column per property.
 */
function embeddedValueError(
  em: EntityManager,
  prop: EntityProperty,
  value: unknown,
  path: string,
): GraphQLError | undefined {
  if (prop.kind !== "embedded" || prop.object || prop.array) return undefined;
  if (value === null || typeof value !== "object" || Array.isArray(value)) return undefined;
  for (const [key, inner] of Object.entries(value)) {
    const child = prop.embeddedProps?.[key];
    if (!child) continue;
    const error = embeddedValueError(em, child, inner, `${path}.${key}`) ??
      columnValueError(em, child, inner, `${path}.${key}`, true);
    if (error) return error;
  }
  return undefined;
}

/**
 * Checks `value`, an operand compared with `prop` in a where filter (one item of an `In` list):
 * as {@linkcode checkColumnValue}, without the limits that only storing imposes (length,
 * decimals beyond the scale, time precision, enum items, which GraphQL already checked).
 *
 * @param path the input path for the message (`where.balanceGT`)
 * @throws GraphQLError `BAD_USER_INPUT` naming `path`
 */
export function checkFilterValue(
  em: EntityManager,
  prop: EntityProperty,
  value: unknown,
  path: string,
): void {
  const error = columnValueError(em, prop, value, path, false);
  if (error) throw error;
}

/**
 * `BAD_USER_INPUT` naming `path` when a value of the key `pk` of `type` (a decoded global id's)
 * cannot be one of its column's values: an integer beyond the column's type, a malformed UUID, a
 * NUL character; `undefined` when every part fits. A part that is a to-one relation is checked
 * against the key column of the row it points to.
 *
 * @param path the input path for the message (`where.id`, `input.authorID`)
 */
export function keyValueError(
  em: EntityManager,
  type: Pick<NodeType, "entity" | "id">,
  pk: PrimaryKey,
  path: string,
): GraphQLError | undefined {
  const meta = em.getMetadata().find(type.entity);
  if (!meta) return undefined;
  const values = keyValuesOf(type, pk);
  for (const [i, part] of keyParts(type).entries()) {
    let prop = meta.properties[part.prop] as EntityProperty | undefined;
    // A relation part holds the key of the row it points to: that row's key column.
    while (prop && prop.kind !== "scalar" && prop.targetMeta?.primaryKeys.length === 1) {
      prop = prop.targetMeta.properties[prop.targetMeta.primaryKeys[0]];
    }
    const error = prop && columnValueError(em, prop, values[i], path, false);
    if (error) return error;
  }
  return undefined;
}

/** Whether every value of the key `pk` of `type` fits its column ({@linkcode keyValueError}). */
export function keyFits(
  em: EntityManager,
  type: Pick<NodeType, "entity" | "id">,
  pk: PrimaryKey,
): boolean {
  return keyValueError(em, type, pk, "") === undefined;
}

/** Whether `prop` holds UUIDs (`p.uuid()`, `type: "uuid"`, a `uuid` column). */
function isUuid(prop: EntityProperty, column: string): boolean {
  return prop.customType instanceof UuidType || column === "uuid" ||
    String(prop.type).toLowerCase() === "uuid";
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const DECIMAL = /^(-?)(\d+)(?:\.(\d+))?$/;
const DATE = /^(\d{4})-(\d\d)-(\d\d)$/;

/** Whether `text` is a decimal number in plain syntax (`-12.50`: no exponent, `+`, `NaN` or spaces). */
export function isDecimalText(text: string): boolean {
  return DECIMAL.test(text);
}

/**
 * Whether `text` is an ISO 8601 calendar date `YYYY-MM-DD` naming a day of the (proleptic
 * Gregorian) calendar: `2026-02-28`, not `2026-02-30` nor `2026-1-2`.
 */
export function isCalendarDate(text: string): boolean {
  const parts = text.match(DATE);
  if (!parts) return false;
  const [year, month, day] = parts.slice(1).map(Number);
  const date = new Date(Date.UTC(2000, month - 1, day));
  date.setUTCFullYear(year);
  return month >= 1 && month <= 12 && date.getUTCMonth() === month - 1 &&
    date.getUTCDate() === day;
}
const TIME = /^(\d\d):(\d\d):(\d\d)(?:\.(\d{1,6}))?$/;

function columnValueError(
  em: EntityManager,
  prop: EntityProperty,
  value: unknown,
  path: string,
  stored: boolean,
): GraphQLError | undefined {
  if (value == null) return undefined;
  const column = (prop.columnTypes?.[0] ?? "").toLowerCase();
  const bad = (why: string) => gqlError(ErrorCode.BAD_USER_INPUT, `${path}: ${why}`);
  const mysql = dialectOf(em) === "mysql";
  if (stored && prop.enum && prop.items?.length && !prop.items.includes(value as never)) {
    return bad(`${quoteInput(String(value))} is not one of ${prop.items.join(", ")}`);
  }
  if (typeof value === "string") {
    const text = nulCharacterError(value, path) ?? surrogateError(value, path);
    if (text) return text;
    if (isUuid(prop, column)) {
      return UUID.test(value) ? undefined : bad(`${quoteInput(value)} is not a UUID`);
    }
    if (/^(numeric|decimal)\b/.test(column) || prop.type === "decimal") {
      return decimalError(value, prop, column, stored, bad);
    }
    if (column === "date") return dateError(value, stored && mysql ? 1000 : 1, bad);
    if (/^time\b/.test(column)) return timeError(value, column, mysql ? 0 : 6, stored, bad);
    if (/^-?\d+$/.test(value)) {
      const range = integerRange(prop, column);
      if (range) return rangeError(BigInt(value), range, bad);
    }
    if (!stored) return undefined;
    const chars = charLimit(prop, column);
    // Characters as the databases count them: code points (an emoji is one, two UTF-16 units).
    if (chars !== undefined && value.length > chars && codePoints(value) > chars) {
      return bad(`a string of ${codePoints(value)} characters; the column holds at most ${chars}`);
    }
    const bytes = mysql ? TEXT_BYTES[column] : undefined;
    if (bytes !== undefined && value.length > bytes / 3 && encoder.encode(value).length > bytes) {
      return bad(`longer than the column's ${bytes} bytes`);
    }
  } else if (typeof value === "number" || typeof value === "bigint") {
    if (typeof value === "number" && !Number.isFinite(value)) {
      return bad(`${value} is not a finite number`);
    }
    const range = integerRange(prop, column);
    if (range === undefined) return undefined;
    if (typeof value === "number" && !Number.isInteger(value)) {
      return bad(`${value} is not an integer`);
    }
    return rangeError(BigInt(value), range, bad);
  } else if (value instanceof Date) {
    const year = value.getUTCFullYear();
    const first = stored && mysql ? 1000 : 1;
    if (Number.isNaN(year) || year < first || year > 9999) {
      return bad(`the date must be between the years ${first} and 9999`);
    }
    // MariaDB/MySQL `datetime`/`timestamp` keep as many fraction digits as declared (none by
    // default) and round the rest away: refused rather than stored differently.
    const digits = mysql && stored ? fractionDigits(column) : undefined;
    if (digits !== undefined && digits < 3 && value.getUTCMilliseconds() % 10 ** (3 - digits)) {
      return bad(
        `${value.toISOString()} has more than ${digits} fraction digits of a second; the column is ${column} (not rounded: send the value to store)`,
      );
    }
  }
  return undefined;
}

/** The column's integer range, `[min, max]`, when it is an integer column. */
function integerRange(prop: EntityProperty, column: string): [bigint, bigint] | undefined {
  const range = INTEGER_RANGES.find(([pattern]) => pattern.test(column))?.[1];
  if (range === undefined) return undefined;
  return prop.unsigned ? [0n, BigInt(range) * 2n - 1n] : [-BigInt(range), BigInt(range) - 1n];
}

function rangeError(
  n: bigint,
  [min, max]: [bigint, bigint],
  bad: (why: string) => GraphQLError,
): GraphQLError | undefined {
  return n < min || n > max ? bad(`${n} is out of the column's range ${min} to ${max}`) : undefined;
}

function decimalError(
  value: string,
  prop: EntityProperty,
  column: string,
  stored: boolean,
  bad: (why: string) => GraphQLError,
): GraphQLError | undefined {
  const parts = value.match(DECIMAL);
  if (!parts) return bad(`${quoteInput(value)} is not a decimal number (digits, one optional ".")`);
  const declared = column.match(/\((\d+)\s*(?:,\s*(\d+))?\)/);
  const precision = Number(declared?.[1] ?? prop.precision ?? NaN);
  const scale = Number(declared?.[2] ?? prop.scale ?? 0);
  if (Number.isNaN(precision)) return undefined; // numeric without a precision: any size
  const integer = parts[2].replace(/^0+(?=\d)/, "");
  const decimals = parts[3] ?? "";
  if (integer !== "0" && integer.length > precision - scale) {
    return bad(
      `${quoteInput(value)} has more than ${
        precision - scale
      } integer digits; the column is numeric(${precision},${scale})`,
    );
  }
  if (stored && decimals.replace(/0+$/, "").length > scale) {
    return bad(
      `${
        quoteInput(value)
      } has more than ${scale} decimals; the column is numeric(${precision},${scale}) (not rounded: send the value to store)`,
    );
  }
  return undefined;
}

function dateError(
  value: string,
  firstYear: number,
  bad: (why: string) => GraphQLError,
): GraphQLError | undefined {
  if (!DATE.test(value)) return bad(`${quoteInput(value)} is not a date (YYYY-MM-DD)`);
  if (!isCalendarDate(value)) return bad(`${quoteInput(value)} is not a day of the calendar`);
  const year = Number(value.slice(0, 4));
  if (year < firstYear || year > 9999) {
    return bad(`the date must be between the years ${firstYear} and 9999`);
  }
  return undefined;
}

function timeError(
  value: string,
  column: string,
  defaultPrecision: number,
  stored: boolean,
  bad: (why: string) => GraphQLError,
): GraphQLError | undefined {
  const parts = value.match(TIME);
  if (!parts) return bad(`${quoteInput(value)} is not a time of day (HH:MM:SS[.ffffff])`);
  const [hour, minute, second] = parts.slice(1, 4).map(Number);
  if (hour > 23 || minute > 59 || second > 59) {
    return bad(`${quoteInput(value)} is not a time of day`);
  }
  const precision = Number(column.match(/\((\d)\)/)?.[1] ?? defaultPrecision);
  if (stored && (parts[4] ?? "").replace(/0+$/, "").length > precision) {
    return bad(
      `${
        quoteInput(value)
      } has more than ${precision} fraction digits; the column is ${column} (not rounded: send the value to store)`,
    );
  }
  return undefined;
}

/** The number of Unicode code points of `text` (what `varchar(n)` counts). */
function codePoints(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

/** The fraction digits of seconds a `datetime(p)`/`timestamp(p)` column keeps (`p`, else 0). */
function fractionDigits(column: string): number | undefined {
  const match = column.match(/^(?:datetime|timestamp)(?:\((\d)\))?/);
  return match ? Number(match[1] ?? 0) : undefined;
}

/** The most characters the column holds, when it is limited in characters. */
function charLimit(prop: EntityProperty, column: string): number | undefined {
  const declared = column.match(/^(?:var)?char(?:acter)?(?: varying)?\((\d+)\)/);
  if (declared) return Number(declared[1]);
  // A length of another column type is not one of characters (`timestamptz(6)`'s precision).
  if (column && !/char|text|string/.test(column)) return undefined;
  if (prop.length) return prop.length;
  return prop.type === "string" || prop.runtimeType === "string" && column === "varchar"
    ? 255
    : undefined;
}
