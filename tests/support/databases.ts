/**
 * The databases tests run against: embedded SQLite always, the local PostgreSQL and MariaDB
 * servers (started when down, with the commands of shared/DESIGN.md). Each test gets a fresh
 * database of its own, so test files can run in parallel.
 *
 * A server that cannot be reached fails the test with the reason; set
 * `MIKROGQL_SKIP_DATABASES=postgresql,mariadb` to skip them deliberately (the skip is printed).
 * Test databases are named `<prefix><16 hex digits>`, the prefix `mikrogql_` or
 * `MIKROGQL_TEST_DB_PREFIX` (letters, digits and `_`), for a database server shared with others.
 *
 * @module
 */
import type { MikroORM, Options } from "@mikro-orm/core";
import { delay } from "@std/async/delay";
import { type DatabaseKind, openOrm, type OpenOrmOptions } from "../../server/open_orm.ts";

/** A database the tests run against (the URL schemes `openOrm` knows). */
export type Dialect = DatabaseKind;

/** A database for one test. */
export interface TestDatabase {
  dialect: Dialect;
  /** URL for `openOrm`. */
  url: string;
  /** Drops the database (no-op for SQLite). */
  drop(): Promise<void>;
}

const SERVERS: Record<
  Exclude<Dialect, "sqlite">,
  { admin: string; start: string[]; base: string }
> = {
  postgresql: {
    admin: "postgres://postgres@127.0.0.1:5432/test",
    base: "postgres://postgres@127.0.0.1:5432/",
    start: [
      "sh",
      "-c",
      "pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start",
    ],
  },
  mariadb: {
    admin: "mariadb://root@127.0.0.1:3306/test",
    base: "mariadb://root@127.0.0.1:3306/",
    start: [
      "start-stop-daemon",
      "--start",
      "--oknodo",
      "--background",
      "--exec",
      "/usr/sbin/mariadbd",
    ],
  },
};

/** The name prefix of test databases (`MIKROGQL_TEST_DB_PREFIX`, default `mikrogql_`). */
export function databasePrefix(): string {
  const prefix = Deno.env.get("MIKROGQL_TEST_DB_PREFIX") ?? "mikrogql_";
  if (!/^[a-z_][a-z0-9_]{0,40}$/.test(prefix)) {
    throw new Error(
      `MIKROGQL_TEST_DB_PREFIX must be lower-case letters, digits and _ (at most 41, not starting with a digit), got ${
        JSON.stringify(prefix)
      }`,
    );
  }
  return prefix;
}

const skipped = new Set(
  (Deno.env.get("MIKROGQL_SKIP_DATABASES") ?? "").split(",").filter(Boolean),
);

/**
 * The dialects to test, in order. A deliberately skipped one is printed, never dropped silently.
 */
export function dialects(
  wanted: Dialect[] = ["sqlite", "postgresql", "mariadb"],
): Dialect[] {
  return wanted.filter((d) => {
    if (!skipped.has(d)) return true;
    console.warn(`skipping ${d}: listed in MIKROGQL_SKIP_DATABASES`);
    return false;
  });
}

async function admin(dialect: Exclude<Dialect, "sqlite">): Promise<MikroORM> {
  const server = SERVERS[dialect];
  let lastError: unknown;
  for (let attempt = 0; attempt < 30; attempt++) {
    try {
      return await openOrm({
        entities: [],
        url: server.admin,
        extra: { discovery: { warnWhenNoEntities: false } } as Partial<Options>,
      });
    } catch (error) {
      lastError = error;
      if (attempt === 0) {
        await new Deno.Command(server.start[0], {
          args: server.start.slice(1),
          stdout: "null",
          stderr: "null",
        })
          .output().catch(() => {});
      }
      await delay(1000);
    }
  }
  throw new Error(
    `${dialect} is not reachable at ${server.admin} and could not be started: ${String(lastError)}`,
  );
}

/**
 * Creates a fresh, empty database.
 *
 * @throws Error when the server is down and cannot be started
 */
export async function createTestDatabase(
  dialect: Dialect,
): Promise<TestDatabase> {
  if (dialect === "sqlite") {
    return {
      dialect,
      url: "sqlite::memory:",
      drop: () => Promise.resolve(),
    };
  }
  const name = `${databasePrefix()}${crypto.randomUUID().replaceAll("-", "").slice(0, 16)}`;
  const orm = await admin(dialect);
  try {
    await orm.schema.createDatabase(name);
  } finally {
    await orm.close();
  }
  return {
    dialect,
    url: SERVERS[dialect].base + name,
    drop: async () => {
      const orm = await admin(dialect);
      try {
        await orm.schema.dropDatabase(name);
      } finally {
        await orm.close();
      }
    },
  };
}

/** A fresh database with the schema of `entities` created, and a query log. */
export interface TestOrm {
  orm: MikroORM;
  db: TestDatabase;
  /** Every SQL statement run since the last `log.length = 0`. */
  log: string[];
  close(): Promise<void>;
}

/** Creates a fresh database for `dialect`, opens MikroORM on it and creates the schema. */
export async function openTestOrm(
  dialect: Dialect,
  entities: OpenOrmOptions["entities"],
  extra?: Partial<Options>,
): Promise<TestOrm> {
  const db = await createTestDatabase(dialect);
  const log: string[] = [];
  const orm = await openOrm({
    entities,
    url: db.url,
    onQuery: (sql) => log.push(sql),
    extra,
  });
  await orm.schema.create();
  log.length = 0;
  return {
    orm,
    db,
    log,
    close: async () => {
      await orm.close();
      await db.drop();
    },
  };
}
