/**
 * Opaque pagination cursors: the primary key (the list of its parts' values for a composite key)
 * and the order values of a row, as a base64url string. A cursor also names the node type and the order it was made for, so a cursor taken
 * from another connection type or under another `orderBy` is rejected (`INVALID_CURSOR`) instead
 * of silently skipping rows.
 *
 * Follows the Relay Cursor Connections Specification (cursors are opaque strings) and entgql's
 * `Cursor{ID, Value}`.
 *
 * @module
 */
import { base64UrlToText, textToBase64Url } from "../jsutils/base64url.ts";
import { ErrorCode, gqlError, quoteInput } from "../error_codes.ts";
import { isCalendarDate } from "../column_values.ts";
import type { ScalarKind } from "../graph.ts";

/** A decoded cursor. */
export interface Cursor {
  /** The row's primary key: its value, or for a composite key the list of its parts' values. */
  id: unknown;
  /** The row's order values, one per order term (the id term excluded). */
  values: unknown[];
  /** The order key (order field names joined by `,`) the cursor was made for. */
  order: string;
  /** The GraphQL node type of the connection the cursor was made for. */
  type: string;
}

/**
 * The kind of one cursor value: a scalar kind (read from the entity), or a value read from the
 * database for a SQL order term (`order_terms.ts`): `exactTime` is a date in the database's own
 * representation (a timestamp string such as `2026-01-02 03:04:05.123456+00`, or SQLite's
 * epoch milliseconds), `exact` any other scalar.
 */
export type CursorValueKind = ScalarKind | "exact" | "exactTime";

/** What a cursor must hold to be valid for a connection. */
export interface CursorShape {
  /** The kind of each part of the node type's primary key (one for a single-column key). */
  idKinds: ("int" | "bigint" | "string")[];
  /** The kind of each order term's value, in order. */
  valueKinds: CursorValueKind[];
  /** The order key of the current `orderBy`. */
  order: string;
  /** The node type of the connection. */
  type: string;
}

/**
 * Encodes a cursor. Dates become ISO strings, bigints decimal strings.
 *
 * @returns an opaque base64url string
 */
export function encodeCursor(cursor: Cursor): string {
  const values = cursor.values.map(toJson);
  return textToBase64Url(
    JSON.stringify([toJson(cursor.id), values, cursor.order, cursor.type]),
  );
}

/**
 * Decodes and validates a cursor against the connection's shape.
 *
 * @param value the cursor string from `after` or `before`
 * @param argument the argument name, for the error message
 * @throws GraphQLError with code `INVALID_CURSOR` when the string is not a cursor of this shape
 */
export function decodeCursor(
  value: string,
  shape: CursorShape,
  argument: string,
): Cursor {
  const invalid = (why: string) =>
    gqlError(
      ErrorCode.INVALID_CURSOR,
      `invalid cursor in "${argument}": ${why} (${quoteInput(value)})`,
    );
  const text = base64UrlToText(value);
  if (text === undefined) throw invalid("not base64url");
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw invalid("not a cursor");
  }
  if (
    !Array.isArray(parsed) || parsed.length !== 4 || !Array.isArray(parsed[1])
  ) {
    throw invalid("not a cursor");
  }
  const [rawId, rawValues, order, type] = parsed as [unknown, unknown[], unknown, unknown];
  if (type !== shape.type) {
    throw invalid(`made for another node type (${String(type)})`);
  }
  if (order !== shape.order) {
    throw invalid(`made for another order (${quoteInput(String(order))})`);
  }
  if (rawValues.length !== shape.valueKinds.length) {
    throw invalid("wrong number of order values");
  }
  const id = shape.idKinds.length === 1
    ? fromJson(rawId, shape.idKinds[0])
    : Array.isArray(rawId) && rawId.length === shape.idKinds.length
    ? rawId.map((raw, i) => raw === null ? INVALID : fromJson(raw, shape.idKinds[i]))
    : INVALID;
  if (id === INVALID || (Array.isArray(id) && id.includes(INVALID))) throw invalid("bad id");
  const values = rawValues.map((raw, i) => fromJson(raw, shape.valueKinds[i]));
  if (values.includes(INVALID)) throw invalid("bad order value");
  return { id, values, order, type: shape.type };
}

const INVALID = Symbol("invalid");

function toJson(value: unknown): unknown {
  if (value instanceof Date) return value.toISOString();
  if (typeof value === "bigint") return value.toString();
  if (Array.isArray(value)) return value.map(toJson);
  return value ?? null;
}

const DECIMAL_TEXT = /^-?\d+(\.\d*)?(e[+-]?\d+)?$/i;
const TIMESTAMP = /^\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d(\.\d{1,9})?(Z|[+-]\d\d(:?\d\d)?)?$/;

function fromJson(
  raw: unknown,
  kind: CursorValueKind,
): unknown {
  if (raw === null) return null;
  switch (kind) {
    case "exactTime":
      return (typeof raw === "string" && TIMESTAMP.test(raw)) || Number.isFinite(raw)
        ? raw
        : INVALID;
    case "exact":
      return typeof raw === "string" || typeof raw === "boolean" || Number.isFinite(raw)
        ? raw
        : INVALID;
    case "int":
      return Number.isSafeInteger(raw) ? raw : INVALID;
    case "float":
      return typeof raw === "number" && Number.isFinite(raw) ? raw : INVALID;
    case "boolean":
      return typeof raw === "boolean" ? raw : INVALID;
    case "bigint":
      return typeof raw === "string" && /^-?\d+$/.test(raw) ? raw : INVALID;
    case "time": {
      if (typeof raw !== "string") return INVALID;
      const date = new Date(raw);
      return Number.isNaN(date.getTime()) ? INVALID : date;
    }
    case "decimal":
      // The entity's text: plain, or in exponent form where SQLite kept a real.
      return typeof raw === "string" && DECIMAL_TEXT.test(raw) ? raw : INVALID;
    case "date":
      return typeof raw === "string" && isCalendarDate(raw) ? raw : INVALID;
    case "enum":
      return typeof raw === "string" || typeof raw === "number" ? raw : INVALID;
    case "json":
    case "bytes":
      return INVALID;
    default:
      return typeof raw === "string" ? raw : INVALID;
  }
}
