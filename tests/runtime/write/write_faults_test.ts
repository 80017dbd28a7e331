/**
 * Write faults: raw errors shaped as each driver reports them (node-postgres: `code` = SQLSTATE,
 * `detail`; mysql2/MariaDB: `errno`, `sqlState`; node:sqlite: the message) go through MikroORM's
 * own exception converter of that database's platform (the oracle: what a flush throws), and the client's
 * error must have the right code and our own text only: never the database's, which quotes the
 * row's values and names the constraint. Anything else (a deadlock, a plain Error) is left as it
 * is.
 */
import { assert, assertEquals, assertStringIncludes } from "@std/assert";
import { PostgreSqlPlatform } from "@mikro-orm/postgresql";
import { MariaDbPlatform } from "@mikro-orm/mariadb";
import { SqlitePlatform } from "@mikro-orm/sql";
import { writeFault } from "../../../runtime/write/write_faults.ts";

type Raw = Error & Record<string, unknown>;

function raw(message: string, fields: Record<string, unknown>): Raw {
  return Object.assign(new Error(message), fields);
}

const postgres = (code: string, message: string, detail?: string) =>
  new PostgreSqlPlatform().getExceptionConverter().convertException(raw(message, { code, detail }));
const mariadb = (errno: number, sqlState: string, message: string) =>
  new MariaDbPlatform().getExceptionConverter().convertException(raw(message, { errno, sqlState }));
const sqlite = (message: string, code = "ERR_SQLITE_ERROR") =>
  new SqlitePlatform().getExceptionConverter().convertException(raw(message, { code }));

const SECRET = "ann-secret@example.com";

const CASES: {
  name: string;
  error: () => Error;
  mode: "create" | "update" | "delete";
  code: string;
  message: string;
}[] = [
  {
    name: "PostgreSQL unique violation (23505)",
    error: () =>
      postgres(
        "23505",
        'duplicate key value violates unique constraint "user_email_unique"',
        `Key (email)=(${SECRET}) already exists.`,
      ),
    mode: "create",
    code: "BAD_USER_INPUT",
    message: "cannot create User: another User already has the same value of a unique field",
  },
  {
    name: "PostgreSQL foreign key violation on delete (23503)",
    error: () =>
      postgres(
        "23503",
        'update or delete on table "user" violates foreign key constraint "post_author_id_foreign"',
        `Key (id)=(7) is still referenced from table "post".`,
      ),
    mode: "delete",
    code: "BAD_USER_INPUT",
    message: "cannot delete User: other rows still reference this User",
  },
  {
    name: "PostgreSQL foreign key violation on update (23503)",
    error: () =>
      postgres(
        "23503",
        'insert or update on table "post" violates foreign key constraint "post_author_id_foreign"',
      ),
    mode: "update",
    code: "BAD_USER_INPUT",
    message: "cannot update User: a referenced row does not exist",
  },
  {
    name: "PostgreSQL not-null violation (23502)",
    error: () => postgres("23502", 'null value in column "email" violates not-null constraint'),
    mode: "update",
    code: "BAD_USER_INPUT",
    message: "cannot update User: a value violates a constraint of User",
  },
  {
    name: "PostgreSQL value too long (22001)",
    error: () => postgres("22001", "value too long for type character varying(255)"),
    mode: "create",
    code: "BAD_USER_INPUT",
    message: "cannot create User: a value does not fit its column",
  },
  {
    name: "PostgreSQL row-level security (42501)",
    error: () => postgres("42501", 'new row violates row-level security policy for table "user"'),
    mode: "create",
    code: "FORBIDDEN",
    message: "cannot create User: the database's row-level security refuses this request's row",
  },
  {
    name: "MariaDB duplicate entry (1062)",
    error: () => mariadb(1062, "23000", `Duplicate entry '${SECRET}' for key 'user_email_unique'`),
    mode: "update",
    code: "BAD_USER_INPUT",
    message: "cannot update User: another User already has the same value of a unique field",
  },
  {
    name: "MariaDB row is referenced (1451)",
    error: () =>
      mariadb(
        1451,
        "23000",
        "Cannot delete or update a parent row: a foreign key constraint fails",
      ),
    mode: "delete",
    code: "BAD_USER_INPUT",
    message: "cannot delete User: other rows still reference this User",
  },
  {
    name: "MariaDB data too long (1406, SQLSTATE 22001)",
    error: () => mariadb(1406, "22001", "Data too long for column 'email' at row 1"),
    mode: "create",
    code: "BAD_USER_INPUT",
    message: "cannot create User: a value does not fit its column",
  },
  {
    name: "MariaDB incorrect value (1366, SQLSTATE HY000)",
    error: () => mariadb(1366, "HY000", "Incorrect integer value: 'x' for column 'age' at row 1"),
    mode: "update",
    code: "BAD_USER_INPUT",
    message: "cannot update User: a value does not fit its column",
  },
  {
    name: "SQLite unique constraint",
    error: () => sqlite("UNIQUE constraint failed: user.email"),
    mode: "create",
    code: "BAD_USER_INPUT",
    message: "cannot create User: another User already has the same value of a unique field",
  },
  {
    name: "SQLite foreign key constraint on delete",
    error: () => sqlite("FOREIGN KEY constraint failed"),
    mode: "delete",
    code: "BAD_USER_INPUT",
    message: "cannot delete User: other rows still reference this User",
  },
];

for (const { name, error, mode, code, message } of CASES) {
  Deno.test(`writeFault: ${name}`, () => {
    const fault = writeFault(error(), "User", mode);
    assert(fault, "a write fault");
    assertEquals(fault.extensions.code, code);
    assertEquals(fault.message, message);
    assert(!fault.message.includes(SECRET));
  });
}

Deno.test("writeFault: a deadlock, a lost connection and a plain Error are not write faults", () => {
  assertEquals(writeFault(postgres("40P01", "deadlock detected"), "User", "update"), undefined);
  assertEquals(
    writeFault(mariadb(2013, "HY000", "Lost connection to server"), "User", "create"),
    undefined,
  );
  assertEquals(writeFault(new Error("boom"), "User", "delete"), undefined);
  assertEquals(
    writeFault(sqlite("database is locked", "ERR_SQLITE_BUSY"), "User", "create"),
    undefined,
  );
});

Deno.test("writeFault: PostgreSQL's 42501 without row-level security is not FORBIDDEN", () => {
  const fault = writeFault(postgres("42501", "permission denied for table user"), "User", "create");
  assertEquals(fault, undefined);
});

Deno.test("writeFault: the type name is quoted into the message as given", () => {
  const fault = writeFault(
    sqlite("UNIQUE constraint failed: order_line.sku"),
    "OrderLine",
    "update",
  );
  assertStringIncludes(fault!.message, "another OrderLine already");
});
