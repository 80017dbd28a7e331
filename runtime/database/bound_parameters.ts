/**
 * A statement's values as bound parameters: MikroORM's SQL text (`?` a value, `??` an
 * identifier, `\?` a literal question mark) and its values become the text a driver receives
 * (PostgreSQL `$1, $2, ...`, SQLite and MariaDB/MySQL `?`) and the values beside it, each
 * converted to what MikroORM's own quoting of it (`platform.formatQuery`, `quoteValue`,
 * `escape`) means:
 *
 * - `undefined` and `null`: `null`; strings and numbers as they are;
 * - booleans: 1/0 on SQLite (`node:sqlite` binds no booleans), themselves elsewhere;
 * - bigints: their decimal text on PostgreSQL (`pg` sends text), themselves elsewhere;
 * - dates: on SQLite milliseconds since the epoch (MikroORM's SQLite storage), elsewhere the
 *   platform's text of the date (`platform.escape`: its format and its `timezone`);
 * - buffers and typed arrays: themselves (binary parameters);
 * - plain objects and values MikroORM tagged as JSON (embeddables stored as JSON): their JSON text;
 * - lists (`in (?)`): one placeholder per element, a nested list a MySQL tuple `(?, ?)`;
 * - a nested `raw()` fragment: its text spliced in, its own values bound in their turn.
 *
 * `??` identifiers are quoted by the platform into the text, as MikroORM does: they are names
 * MikroORM or the runtime chose, never values. A statement without values is left as it is (so
 * `\?` stays, as `formatQuery` leaves it).
 *
 * @module
 */
import { isRaw, JsonProperty, type Platform, Utils } from "@mikro-orm/core";
import { type Dialect, platformDialect } from "../dialect.ts";

/** A statement ready for its driver: placeholders of the database, values converted. */
export interface BoundParameters {
  /** The text the driver receives (`$n` placeholders on PostgreSQL, `?` elsewhere). */
  readonly sql: string;
  /** The values, in placeholder order, as the driver binds them. */
  readonly params: unknown[];
}

/**
 * `sql` (MikroORM's placeholders) with `params` bound for `platform`'s database.
 *
 * @throws Error for a platform mikrogql does not support (MongoDB, MSSQL, Oracle)
 */
export function bindParameters(
  platform: Platform,
  sql: string,
  params: readonly unknown[],
): BoundParameters {
  if (params.length === 0) return { sql, params: [] };
  const scalars = params.every(isScalar);
  let texts: Map<string, string> | undefined;
  if (scalars) {
    texts = TEXTS.get(platform);
    if (!texts) TEXTS.set(platform, texts = new Map());
    const text = texts.get(sql);
    if (text !== undefined) return { sql: text, params: params.map(scalarValue) };
  }
  const values: unknown[] = [];
  const text = splice(platform, platformDialect(platform), sql, params, values);
  // With strings, numbers and nulls only and no `??` identifier (a value written into the text),
  // the text follows from `sql` alone: a cached statement's (`statement_cache.ts`) is spliced once.
  if (texts && !sql.includes("??")) {
    if (texts.size >= MAX_TEXTS) texts.clear();
    texts.set(sql, text);
  }
  return { sql: text, params: values };
}

/** Bound texts of statements of scalar values, per platform: MikroORM's text -> the driver's. */
const TEXTS = new WeakMap<Platform, Map<string, string>>();
/** Most texts kept per platform (all dropped when full: the statement cache holds 2,000 shapes). */
const MAX_TEXTS = 2_000;

/** A value bound as it is, one placeholder: a string, a number, `null` or `undefined`. */
function isScalar(value: unknown): boolean {
  return value == null || typeof value === "string" || typeof value === "number";
}

/** A scalar value as the driver binds it (`driverValue` of a string, a number or a null). */
function scalarValue(value: unknown): unknown {
  return value === undefined ? null : value;
}

function splice(
  platform: Platform,
  dialect: Dialect,
  sql: string,
  params: readonly unknown[],
  into: unknown[],
): string {
  if (params.length === 0) return sql;
  let out = "";
  let pos = 0;
  let next = 0;
  for (let at = sql.indexOf("?"); at !== -1; at = sql.indexOf("?", pos)) {
    if (at > 0 && sql[at - 1] === "\\") {
      out += sql.slice(pos, at - 1) + "?";
      pos = at + 1;
      continue;
    }
    out += sql.slice(pos, at);
    if (sql[at + 1] === "?") {
      out += platform.quoteIdentifier(params[next++] as string);
      pos = at + 2;
      continue;
    }
    out += placeholders(platform, dialect, params[next++], into);
    pos = at + 1;
  }
  return out + sql.slice(pos);
}

/** The placeholder text of one parameter, its values appended to `into`. */
function placeholders(
  platform: Platform,
  dialect: Dialect,
  value: unknown,
  into: unknown[],
): string {
  if (isRaw(value)) return splice(platform, dialect, value.sql, value.params, into);
  if (isJson(value)) return placeholder(dialect, JSON.stringify(value), into);
  if (Array.isArray(value)) {
    // A list is its elements separated by commas (a nested list a MySQL tuple in parentheses).
    return value.map((v) =>
      Array.isArray(v) && dialect === "mysql"
        ? `(${placeholders(platform, dialect, v, into)})`
        : placeholders(platform, dialect, v, into)
    ).join(", ");
  }
  return placeholder(dialect, driverValue(platform, dialect, value), into);
}

function placeholder(dialect: Dialect, value: unknown, into: unknown[]): string {
  into.push(value);
  return dialect === "postgresql" ? `$${into.length}` : "?";
}

/** As `quoteValue`: plain objects and values tagged as JSON (embeddables) are JSON text. */
function isJson(value: unknown): boolean {
  return value !== null && typeof value === "object" &&
    (Utils.isPlainObject(value) || Boolean((value as { [JsonProperty]?: unknown })[JsonProperty]));
}

/** A scalar `value` as the driver binds it, meaning what MikroORM's quoting of it would. */
function driverValue(platform: Platform, dialect: Dialect, value: unknown): unknown {
  if (value === undefined) return null;
  if (value === null || typeof value === "string" || typeof value === "number") return value;
  if (typeof value === "boolean") return dialect === "sqlite" ? (value ? 1 : 0) : value;
  if (typeof value === "bigint") return dialect === "postgresql" ? String(value) : value;
  if (value instanceof Date) {
    // SQLite: milliseconds; the others: the platform's text of the date (its time zone).
    return dialect === "sqlite" ? +value : (platform.escape(value) as string).slice(1, -1);
  }
  return value;
}
