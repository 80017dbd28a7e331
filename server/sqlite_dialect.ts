/**
 * The Kysely dialect `openOrm` gives MikroORM for SQLite: MikroORM's `NodeSqliteDialect`
 * (`node:sqlite`'s `DatabaseSync` behind the interface Kysely's `SqliteDialect` expects), except
 * that an integer column holding a value beyond ±2^53 − 1 (a `bigint` property at 2^63 − 1)
 * reads back exactly. `node:sqlite` reads integers as JavaScript numbers and throws
 * `ERR_OUT_OF_RANGE` for one a number cannot hold; such a query (`select`, `pragma`, `explain`:
 * nothing it does is undone by running it twice) is read again with `setReadBigInts(true)`, its
 * integers within the safe range turned back into numbers and the others kept as `bigint`, which
 * MikroORM's `BigIntType` maps as it does on PostgreSQL and MariaDB (a string, by default). A
 * statement that writes and returns rows (`returning`) is never run twice: it reads bigints from
 * the start and narrows its rows. Other statements run once, as before.
 *
 * @module
 */
import { SqliteDialect } from "kysely";
import { DatabaseSync, type StatementSync } from "node:sqlite";

type Row = Record<string, unknown>;

/** `node:sqlite`'s error for an integer a JavaScript number cannot hold. */
function outOfRange(error: unknown): boolean {
  return (error as { code?: unknown })?.code === "ERR_OUT_OF_RANGE";
}

/** Whether a value of `row` is the number -2^63 (see {@linkcode exactly}). */
function holdsInt64Min(row: Row): boolean {
  for (const value of Object.values(row)) if (value === -(2 ** 63)) return true;
  return false;
}

/** A row's `bigint`s within the safe integer range as numbers; the others kept. */
function narrowed(row: Row): Row {
  for (const [column, value] of Object.entries(row)) {
    if (
      typeof value === "bigint" && value <= BigInt(Number.MAX_SAFE_INTEGER) &&
      value >= BigInt(Number.MIN_SAFE_INTEGER)
    ) {
      row[column] = Number(value);
    }
  }
  return row;
}

/**
 * `read` of `statement`; when an integer is out of a number's range, read again with bigints
 * and each row {@linkcode narrowed} (only then: a statement without such a value pays nothing).
 */
function exactly(statement: StatementSync, read: () => Row[]): Row[] {
  try {
    const rows = read();
    // Deno's `node:sqlite` reads -2^63 (a `bigint` column's minimum) as the number -2^63
    // without the out-of-range error it raises for every other integer beyond ±2^53 − 1: a row
    // holding that number is read again with bigints (a REAL column's -2^63 stays a number).
    if (!rows.some(holdsInt64Min)) return rows;
  } catch (error) {
    if (!outOfRange(error)) throw error;
  }
  statement.setReadBigInts(true);
  try {
    return read().map(narrowed);
  } finally {
    statement.setReadBigInts(false);
  }
}

/**
 * A Kysely SQLite dialect over `node:sqlite` on the database file `path` (`":memory:"` for an
 * in-memory database), reading integers beyond ±2^53 − 1 exactly (see the module
 * documentation).
 */
export function exactSqliteDialect(path: string): SqliteDialect {
  return new SqliteDialect({
    database: () => {
      const db = new DatabaseSync(path);
      return {
        prepare(sql: string) {
          const statement = db.prepare(sql);
          const returning = /\breturning\b/i.test(sql);
          // A write is not run again to read what it returns: bigints from the start.
          const read = (rows: () => Row[]) =>
            returning ? rows().map(narrowed) : exactly(statement, rows);
          if (returning) statement.setReadBigInts(true);
          return {
            reader: /^\s*(select|pragma|explain|with)/i.test(sql) || returning,
            all: (params: never[]) => read(() => statement.all(...params) as Row[]),
            run: (params: never[]) => statement.run(...params),
            get: (params: never[]) =>
              read(() => {
                const row = statement.get(...params) as Row | undefined;
                return row ? [row] : [];
              })[0],
          };
        },
        close() {
          db.close();
        },
      } as never;
    },
  });
}
