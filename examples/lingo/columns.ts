/**
 * The app's PostgreSQL-shaped columns on the other databases, as a MikroORM `discovery.onMetadata`
 * hook (the options every ORM of the example opens with: `ormOptions`). On PostgreSQL nothing
 * changes: keys default to `gen_random_uuid()` (read back by `INSERT ... RETURNING`), `deletedAt`
 * is a `timestamptz` and `text[]` columns are arrays, types MikroORM maps to no runtime type (the
 * generator types them by their column type). Elsewhere:
 *
 * - SQLite: the key defaults to a version 4 UUID built from `randomblob` (SQLite has no UUID
 *   function; MikroORM reads it back by `RETURNING` as on PostgreSQL);
 * - MariaDB: MikroORM 7 reads back no key the database makes but an auto-increment one (its
 *   MariaDB platform writes no `RETURNING`), so the key is made by `onCreate`
 *   (`crypto.randomUUID()`) when the row is flushed;
 * - both: `timestamptz` is MikroORM's `datetime` (MariaDB `datetime(3)`, milliseconds kept), and
 *   a `text[]` column MikroORM's `string[]` (a text column of comma-separated values).
 *
 * @module
 */
import type { EntityMetadata, Options, Platform } from "@mikro-orm/core";

/** SQLite: a version 4 UUID (RFC 9562) from 16 random bytes, lower-case hex. */
const SQLITE_UUID = `(lower(hex(randomblob(4)) || '-' || hex(randomblob(2)) || '-4' ||
  substr(hex(randomblob(2)), 2) || '-' || substr('89ab', 1 + (abs(random()) % 4), 1) ||
  substr(hex(randomblob(2)), 2) || '-' || hex(randomblob(6))))`.replace(/\s+/g, " ");

/** Adapts one entity's PostgreSQL-shaped columns to `platform`'s database. */
export function adaptColumns(meta: EntityMetadata, platform: Platform): void {
  const dialect = platform.constructor.name;
  if (/Postgre/i.test(dialect)) return;
  for (const prop of Object.values(meta.properties)) {
    if (prop.defaultRaw === "gen_random_uuid()") {
      if (/Sqlite/i.test(dialect)) {
        prop.defaultRaw = SQLITE_UUID;
      } else {
        delete prop.defaultRaw;
        prop.onCreate = () => crypto.randomUUID();
      }
    }
    const type = String(prop.type).toLowerCase();
    if (type === "timestamptz") {
      prop.type = "datetime";
      prop.length = 3;
    } else if (type === "text[]") {
      prop.type = "string[]";
    }
  }
}

/** The MikroORM options the example's ORMs open with (servers, tests): {@linkcode adaptColumns}. */
export const ormOptions: Partial<Options> = { discovery: { onMetadata: adaptColumns } };
