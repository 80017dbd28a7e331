/**
 * `lightenForks` on a real MikroORM (SQLite in memory): a fork no longer re-syncs the logging
 * state (MikroORM's own sync writes `process.env.MIKRO_ORM_COLORS` on every fork, the observable
 * sign of it), while a `set` of an option the sync derives from (`debug`, `colors`) still takes
 * effect as without it; and the ORM reads and forks as before.
 */
import { assertEquals } from "@std/assert";
import { MikroORM } from "@mikro-orm/core";
import { SqliteDriver } from "@mikro-orm/sql";
import { entities } from "../../examples/blog/entities.ts";
import { User } from "../../examples/blog/entities/user.ts";
import { lightenForks } from "../../runtime/light_forks.ts";
import { exactSqliteDialect } from "../../server/sqlite_dialect.ts";

const COLORS = "MIKRO_ORM_COLORS";

async function open(): Promise<MikroORM> {
  const orm = await MikroORM.init({
    driver: SqliteDriver,
    dbName: ":memory:",
    driverOptions: exactSqliteDialect(":memory:"),
    entities,
    colors: false,
  });
  await orm.schema.create();
  return orm;
}

Deno.test("lightenForks: forks skip the sync, a changed logging option still applies", async () => {
  const orm = await open();
  try {
    // MikroORM's own fork: the sync writes the variable back each time.
    Deno.env.set(COLORS, "sentinel");
    orm.em.fork();
    assertEquals(Deno.env.get(COLORS), "false", "without lightenForks a fork syncs");

    lightenForks(orm);
    lightenForks(orm.em); // the same configuration: nothing more
    Deno.env.set(COLORS, "sentinel");
    const em = orm.em.fork();
    em.fork();
    assertEquals(Deno.env.get(COLORS), "sentinel", "a fork synced nothing");

    // An option the sync derives from still applies.
    const logger = orm.config.getLogger();
    assertEquals(logger.isEnabled("query"), false);
    orm.config.set("debug", true);
    assertEquals(logger.isEnabled("query"), true, "debug on reached the logger");
    orm.config.set("debug", false);
    assertEquals(logger.isEnabled("query"), false, "debug off reached the logger");
    orm.config.set("colors", true);
    assertEquals(Deno.env.get(COLORS), "true", "colors reached the environment");

    // The ORM works as before.
    em.create(User, { name: "Ada", email: "ada@example.com" });
    await em.flush();
    assertEquals(await orm.em.fork().count(User), 1);
  } finally {
    Deno.env.delete(COLORS);
    await orm.close(true);
  }
});
