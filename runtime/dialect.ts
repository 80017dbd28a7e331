/**
 * The SQL that differs between the databases mikrogql runs on (SQLite, PostgreSQL,
 * MariaDB/MySQL): identifier quoting, case-sensitive substring matching and the exact text of a
 * stored value.
 *
 * @module
 */
import type { EntityManager, Platform } from "@mikro-orm/core";
import { BaseMySqlPlatform, BasePostgreSqlPlatform, SqlitePlatform } from "@mikro-orm/sql";

/** The SQL dialect family of an EntityManager's database. */
export type Dialect = "sqlite" | "postgresql" | "mysql";

/**
 * The dialect of `em`'s platform.
 *
 * @throws Error for a platform mikrogql does not support (MongoDB, MSSQL, Oracle)
 */
export function dialectOf(em: EntityManager): Dialect {
  return platformDialect(em.getPlatform());
}

/**
 * The dialect of a MikroORM platform (a connection's, an EntityManager's).
 *
 * @throws Error for a platform mikrogql does not support (MongoDB, MSSQL, Oracle)
 */
export function platformDialect(platform: Platform): Dialect {
  if (platform instanceof SqlitePlatform) return "sqlite";
  if (platform instanceof BasePostgreSqlPlatform) return "postgresql";
  if (platform instanceof BaseMySqlPlatform) return "mysql";
  throw new Error(`unsupported database platform ${platform.constructor.name}`);
}

/**
 * `parts` as one SQL identifier path, each part quoted as `em`'s database quotes identifiers:
 * `quoteIdentifiers(em, "t", "author_id")` is `"t"."author_id"` on PostgreSQL and SQLite,
 * `` `t`.`author_id` `` on MariaDB.
 */
export function quoteIdentifiers(em: EntityManager, ...parts: string[]): string {
  const platform = em.getPlatform();
  return parts.map((part) => platform.quoteIdentifier(part)).join(".");
}

/** Where the searched text sits in the value. */
export type TextMatch = "contains" | "prefix" | "suffix";

/**
 * A case-sensitive match of `column` against the literal `text` (entgql `Contains`, `HasPrefix`,
 * `HasSuffix`), with every pattern character of `text` escaped:
 *
 * - PostgreSQL: `LIKE ... ESCAPE '!'` (`LIKE` is case-sensitive there);
 * - SQLite: `GLOB` (its `LIKE` ignores ASCII case), with `*`, `?` and `[` escaped;
 * - MariaDB/MySQL: `LIKE BINARY ... ESCAPE '!'` (the default collations ignore case).
 *
 * @returns the SQL condition and its one parameter
 */
export function matchText(
  dialect: Dialect,
  column: string,
  match: TextMatch,
  text: string,
): [string, string] {
  if (dialect === "sqlite") {
    const glob = text.replace(/[*?[]/g, "[$&]");
    return [`${column} glob ?`, wrap(match, glob, "*")];
  }
  const like = wrap(match, escapeLike(text), "%");
  return dialect === "mysql"
    ? [`${column} like binary ? escape '!'`, like]
    : [`${column} like ? escape '!'`, like];
}

/**
 * A case-insensitive substring match (entgql `ContainsFold`): `lower(column) LIKE lower(?)`
 * with `%`, `_` and the escape character `!` of `text` escaped, the same on every dialect.
 *
 * @returns the SQL condition and its one parameter
 */
export function containsFold(column: string, text: string): [string, string] {
  return [`lower(${column}) like lower(?) escape '!'`, wrap("contains", escapeLike(text), "%")];
}

/**
 * An expression that reads `column` with the full precision the database stores: PostgreSQL and
 * MariaDB return timestamps to drivers as JavaScript `Date`s (milliseconds), so their text form
 * is read instead (microseconds); SQLite returns what was stored.
 */
export function exactValue(dialect: Dialect, column: string): string {
  switch (dialect) {
    case "postgresql":
      return `cast(${column} as text)`;
    case "mysql":
      return `cast(${column} as char)`;
    default:
      return column;
  }
}

function escapeLike(text: string): string {
  return text.replace(/[!%_]/g, "!$&");
}

function wrap(match: TextMatch, pattern: string, any: string): string {
  return match === "contains"
    ? `${any}${pattern}${any}`
    : match === "prefix"
    ? `${pattern}${any}`
    : `${any}${pattern}`;
}
