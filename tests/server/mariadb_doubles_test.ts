/**
 * `openOrm` on MariaDB reads a `DOUBLE` back as the column holds it (`server/mariadb_type_cast.ts`):
 * the value the fidelity test's seed 20261129 found (mysql2's own parse read `93.35953786969185`
 * as `…183`), and seeded random doubles of 17 significant digits, through `em.getConnection()`
 * (MikroORM, Kysely, mysql2's text protocol), compared with the column's own text.
 */
import { assertEquals } from "@std/assert";
import { openOrm } from "../../server/open_orm.ts";
import { entities } from "../../examples/blog/entities.ts";
import { createTestDatabase, dialects } from "../support/databases.ts";
import { random } from "../support/random_data.ts";
import { testSeed } from "../support/test_seed.ts";

const seed = testSeed("DOUBLES_SEED", 20261129);

if (dialects(["mariadb"]).length > 0) {
  Deno.test(`MariaDB: a DOUBLE reads back as the column holds it (DOUBLES_SEED=${seed})`, async () => {
    const db = await createTestDatabase("mariadb");
    const orm = await openOrm({ entities, url: db.url });
    try {
      const connection = orm.em.getConnection();
      await connection.execute("create table doubles (id int primary key, d double, f float)");
      const rng = random(seed);
      const values = [93.35953786969185, 0.1, -1.7976931348623157e308, 5e-324];
      for (let i = 0; i < 200; i++) values.push((rng() - 0.5) * 10 ** Math.floor(rng() * 40 - 20));
      for (const [id, d] of values.entries()) {
        await connection.execute("insert into doubles values (?, ?, ?)", [id, d, 1.5]);
      }
      await connection.execute("insert into doubles values (?, null, null)", [values.length]);
      const rows = await connection.execute<{ id: number; d: number | null; f: number | null }[]>(
        "select id, d, f from doubles order by id",
      );
      const texts = await connection.execute<{ id: number; d: string | null }[]>(
        "select id, cast(d as char) as d from doubles order by id",
      );
      for (const [i, row] of rows.entries()) {
        if (i === values.length) {
          assertEquals([row.d, row.f], [null, null], "NULL stays null");
          continue;
        }
        assertEquals(row.d, values[i], `seed ${seed}, value ${i}`);
        assertEquals(row.d, Number(texts[i].d), `the column's text, value ${i}`);
        assertEquals(row.f, 1.5);
      }
    } finally {
      await orm.close(true);
      await db.drop();
    }
  });
}
