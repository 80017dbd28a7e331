/**
 * String arrays (`p.array()`, `string[]` properties, PostgreSQL `text[]`) written so that what
 * is stored is the array given, element for element. MikroORM 7.2's `marshallArray` loses
 * elements a client can send:
 *
 * - PostgreSQL: an element `NULL` (any case) is written unquoted and stored as SQL `NULL` (every
 *   later read of a `[String!]!` field then fails), leading and trailing spaces are trimmed, and
 *   an element quoted with `JSON.stringify` loses its escapes (`"a\nb"` reads `anb`: PostgreSQL's
 *   array syntax knows only `\\` and `\"`). Here every element is quoted, with only `\` and `"`
 *   escaped, which PostgreSQL reads back as given (`postgres-array`, MikroORM's reader, too).
 * - MariaDB/MySQL and SQLite (a comma-separated `text` column): an empty element alone (`[""]`)
 *   is written as the empty text, which reads back as `[]`, and an empty last element after a
 *   quoted one (`["a,b", ""]`) is dropped. Here every empty element is quoted (`""`), which
 *   MikroORM's reader (`unmarshallArray`) parses back as `""`.
 *
 * {@linkcode exactArrayLiterals} replaces `marshallArray` on a platform instance (the ORM's),
 * never on MikroORM's classes; `bindConnections` (`bound_connection.ts`) installs it with the
 * bound `execute`, so every ORM the runtime writes with has it.
 *
 * @module
 */
import type { Platform } from "@mikro-orm/core";
import { platformDialect } from "../dialect.ts";

const EXACT = new WeakSet<object>();

/**
 * Installs the exact array literals on `platform` (once).
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { PostgreSqlPlatform } from "@mikro-orm/postgresql";
 * import { exactArrayLiterals } from "./array_literals.ts";
 *
 * const platform = new PostgreSqlPlatform();
 * exactArrayLiterals(platform);
 * assertEquals(platform.marshallArray(["NULL", " x "]), '{"NULL"," x "}');
 * ```
 */
export function exactArrayLiterals(platform: Platform): void {
  if (EXACT.has(platform)) return;
  EXACT.add(platform);
  let dialect: string;
  try {
    dialect = platformDialect(platform);
  } catch {
    return; // a platform the runtime does not support: left as MikroORM writes
  }
  if (dialect === "postgresql") {
    platform.marshallArray = (values: string[]) =>
      `{${values.map((v) => `"${String(v).replace(/[\\"]/g, (c) => `\\${c}`)}"`).join(",")}}`;
  } else {
    platform.marshallArray = (values: string[]) =>
      values.map((v) => v === "" || /[,"\\]/.test(v) ? JSON.stringify(v) : v).join(",");
  }
}
