/**
 * Named prepared statements of `openOrm`'s PostgreSQL pool, read from the server's own
 * `pg_prepared_statements` on the pool's one connection: a statement with values is prepared once
 * and reused; none without values, with `preparedStatements: 0`, or behind a proxy on another
 * port (as PgBouncer in transaction mode would be); at most `preparedStatements` per connection
 * (the least recently used deallocated); and a statement whose result type a schema change
 * altered fails once, then is prepared again.
 */
import { assertEquals, assertRejects } from "@std/assert";
import type { MikroORM } from "@mikro-orm/core";
import { openOrm } from "../../server/open_orm.ts";
import { entities } from "../../examples/blog/entities.ts";
import { createTestDatabase, dialects } from "../support/databases.ts";
import { startTcpProxy } from "../support/tcp_proxy.ts";

/** The named statements of the connection `orm`'s one-connection pool holds. */
async function prepared(orm: MikroORM): Promise<string[]> {
  const rows = await orm.em.getConnection().execute<{ statement: string }[]>(
    "select statement from pg_prepared_statements where name like 'mikrogql_%' order by statement",
  );
  return (rows as { statement: string }[]).map((row) => row.statement);
}

if (dialects(["postgresql"]).length > 0) {
  Deno.test("openOrm's PostgreSQL statements with values are named prepared statements", async (t) => {
    const db = await createTestDatabase("postgresql");
    const open = (url: string, preparedStatements?: number) =>
      openOrm({ entities, url, preparedStatements, extra: { pool: { min: 1, max: 1 } } });
    try {
      await t.step("prepared once per connection, reused, the oldest deallocated", async () => {
        const orm = await open(db.url, 2);
        try {
          const run = (sql: string, v: number) => orm.em.getConnection().execute(sql, [v]);
          // the pool's connection open, its port checked (a statement without values: unnamed)
          await orm.em.getConnection().execute("select 1 as warm");
          for (let i = 0; i < 3; i++) {
            assertEquals(await run("select ? + 1 as v", i), [{ v: i + 1 }]);
          }
          assertEquals(await prepared(orm), ["select $1 + 1 as v"]);
          await run("select ? + 2 as v", 0);
          await run("select ? + 3 as v", 0);
          // two at most: the least recently used (`+ 1`) was deallocated
          assertEquals(await prepared(orm), ["select $1 + 2 as v", "select $1 + 3 as v"]);
        } finally {
          await orm.close(true);
        }
      });

      await t.step("none with preparedStatements: 0, none behind a proxy", async () => {
        const proxy = startTcpProxy({ hostname: "127.0.0.1", port: 5432 });
        const off = await open(db.url, 0);
        const proxied = await open(db.url.replace(":5432/", `:${proxy.port}/`));
        try {
          for (const orm of [off, proxied]) {
            for (let i = 0; i < 3; i++) await orm.em.getConnection().execute("select ? as v", [i]);
            assertEquals(await prepared(orm), []);
          }
        } finally {
          await off.close(true);
          await proxied.close(true);
          proxy.close();
        }
      });

      await t.step(
        "a result type changed by a schema change: one failure, then prepared again",
        async () => {
          const orm = await open(db.url);
          try {
            const connection = orm.em.getConnection();
            await connection.execute("create table probe (id int primary key, a text)");
            await connection.execute("insert into probe values (1, 'x')");
            const read = () => connection.execute("select * from probe where id = ?", [1]);
            await read();
            await read();
            await connection.execute("alter table probe add column b int");
            await assertRejects(read, Error, "cached plan must not change result type");
            assertEquals(await read(), [{ id: 1, a: "x", b: null }]);
          } finally {
            await orm.close(true);
          }
        },
      );
    } finally {
      await db.drop();
    }
  });
}
