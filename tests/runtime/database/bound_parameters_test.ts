/**
 * runtime/database/bound_parameters.ts: MikroORM's placeholders as the database's, and the text
 * of a statement of scalar values bound once per text: the same text again gets the same bound
 * text with its own values, while lists, `??` identifiers and other values are spliced every
 * time (their text depends on them).
 */
import { assertEquals } from "@std/assert";
import { PostgreSqlPlatform } from "@mikro-orm/postgresql";
import { MariaDbPlatform } from "@mikro-orm/mariadb";
import { bindParameters } from "../../../runtime/database/bound_parameters.ts";

const postgres = new PostgreSqlPlatform();
const mariadb = new MariaDbPlatform();

Deno.test("bindParameters: scalar values rebound on the same text", () => {
  const sql = `select "id" from "user" where "id" > ? and "name" = ? and "x" is ? limit ?`;
  for (const values of [[1, "a", null, 10], [2, "b", undefined, 11], [3, "c", null, 12]]) {
    assertEquals(bindParameters(postgres, sql, values), {
      sql: `select "id" from "user" where "id" > $1 and "name" = $2 and "x" is $3 limit $4`,
      params: values.map((v) => v ?? null),
    });
    assertEquals(bindParameters(mariadb, sql, values), {
      sql,
      params: values.map((v) => v ?? null),
    });
  }
});

Deno.test("bindParameters: lists, identifiers and other values are spliced each time", () => {
  const list = `select 1 from t where a in (?) and b = ?`;
  assertEquals(
    bindParameters(postgres, list, [1, 2]).sql,
    `select 1 from t where a in ($1) and b = $2`,
  );
  assertEquals(bindParameters(postgres, list, [[1, 2, 3], 4]), {
    sql: `select 1 from t where a in ($1, $2, $3) and b = $4`,
    params: [1, 2, 3, 4],
  });
  assertEquals(
    bindParameters(postgres, list, [[1], 4]).sql,
    `select 1 from t where a in ($1) and b = $2`,
  );
  const identifier = `select ?? from t where a = ?`;
  assertEquals(
    bindParameters(postgres, identifier, ["x", 1]).sql,
    `select "x" from t where a = $1`,
  );
  assertEquals(
    bindParameters(postgres, identifier, ["y", 1]).sql,
    `select "y" from t where a = $1`,
  );
  const flag = `select 1 from t where a = ?`;
  assertEquals(bindParameters(postgres, flag, [true]), {
    sql: `select 1 from t where a = $1`,
    params: [true],
  });
  assertEquals(bindParameters(postgres, flag, ["t"]).params, ["t"]);
  assertEquals(bindParameters(postgres, flag, [10n]).params, ["10"]);
});
