/**
 * The most parameters one statement may bind, per database, checked by the bound `execute`
 * (`bound_connection.ts`) before a statement goes out: over it, the statement is refused with
 * `QUERY_TOO_COMPLEX` naming the limit, rather than sent to fail in the driver or the server
 * (PostgreSQL's protocol counts parameters in 16 bits: a statement of 65,536 fails there, and a
 * read of it was retried as a lost connection).
 *
 * Sources: PostgreSQL's Bind message (`Int16` parameter count, 65,535); MariaDB/MySQL prepared
 * statements (65,535 placeholders; mysql2's `query` escapes the values into the text, the same
 * bound is kept so a statement behaves alike on every database); SQLite's
 * `SQLITE_MAX_VARIABLE_NUMBER` (32,766 since 3.32, `node:sqlite` as built into Deno 2.9).
 *
 * @module
 */
import type { Platform } from "@mikro-orm/core";
import { type Dialect, platformDialect } from "../dialect.ts";
import { ErrorCode, gqlError } from "../error_codes.ts";

/** The most bound parameters of one statement, per database. */
export const PARAMETER_LIMITS: Readonly<Record<Dialect, number>> = {
  postgresql: 65_535,
  mysql: 65_535,
  sqlite: 32_766,
};

/**
 * Throws when a statement of `count` bound parameters is over `platform`'s database's limit.
 *
 * @throws GraphQLError `QUERY_TOO_COMPLEX` naming the count and the limit
 */
export function checkParameterCount(platform: Platform, count: number): void {
  if (count <= PARAMETER_LIMITS.sqlite) return; // the smallest: no dialect lookup below it
  const dialect = platformDialect(platform);
  const limit = PARAMETER_LIMITS[dialect];
  if (count > limit) {
    throw gqlError(
      ErrorCode.QUERY_TOO_COMPLEX,
      `a statement of ${count} parameters; the database (${dialect}) binds at most ${limit} per statement: ask for fewer values (shorter lists, fewer or smaller where trees) at once`,
    );
  }
}
