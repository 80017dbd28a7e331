/**
 * `exactSqliteDialect` (server/sqlite_dialect.ts) against SQLite itself: integers beyond
 * ±2^53 − 1 read back exactly, and a write that returns such a value runs once (its row count
 * is the oracle).
 */
import { assertEquals } from "@std/assert";
import { Kysely, sql } from "kysely";
import { exactSqliteDialect } from "../../server/sqlite_dialect.ts";

Deno.test("exactSqliteDialect: a bigint beyond 2^53 reads back exactly; a returning write runs once", async () => {
  const db = new Kysely<Record<string, never>>({ dialect: exactSqliteDialect(":memory:") });
  try {
    await sql`create table t (id integer primary key, v integer not null)`.execute(db);
    const big = 2n ** 63n - 1n;
    const inserted = await sql<{ id: number; v: bigint }>`
      insert into t (v) values (${big}) returning id, v`.execute(db);
    assertEquals(inserted.rows, [{ id: 1, v: big }]);
    const count = await sql<{ n: number }>`select count(*) as n from t`.execute(db);
    assertEquals(count.rows, [{ n: 1 }]);
    const read = await sql<{ id: number; v: bigint }>`select id, v from t`.execute(db);
    assertEquals(read.rows, [{ id: 1, v: big }]);
    const small = await sql<{ v: number }>`select 7 as v`.execute(db);
    assertEquals(small.rows, [{ v: 7 }]);
  } finally {
    await db.destroy();
  }
});
