/**
 * `checkParameterCount`: a statement of more bound parameters than its database takes is
 * refused with `QUERY_TOO_COMPLEX` naming the count and the limit, at the limit it passes, on
 * each platform (PostgreSQL and MariaDB 65,535, SQLite 32,766).
 */
import { assertEquals, assertThrows } from "@std/assert";
import type { Platform } from "@mikro-orm/core";
import { SqlitePlatform } from "@mikro-orm/sql";
import { PostgreSqlPlatform } from "@mikro-orm/postgresql";
import { MariaDbPlatform } from "@mikro-orm/mariadb";
import { GraphQLError } from "graphql";
import {
  checkParameterCount,
  PARAMETER_LIMITS,
} from "../../../runtime/database/parameter_limit.ts";

Deno.test("checkParameterCount: at the limit passes, one over is QUERY_TOO_COMPLEX naming it", () => {
  const platforms: [string, Platform, number][] = [
    ["postgresql", new PostgreSqlPlatform(), PARAMETER_LIMITS.postgresql],
    ["mysql", new MariaDbPlatform(), PARAMETER_LIMITS.mysql],
    ["sqlite", new SqlitePlatform(), PARAMETER_LIMITS.sqlite],
  ];
  assertEquals(platforms.map(([, , limit]) => limit), [65_535, 65_535, 32_766]);
  for (const [dialect, platform, limit] of platforms) {
    checkParameterCount(platform, 0);
    checkParameterCount(platform, limit);
    const error = assertThrows(() => checkParameterCount(platform, limit + 1), GraphQLError);
    assertEquals(error.extensions.code, "QUERY_TOO_COMPLEX");
    assertEquals(
      error.message.startsWith(
        `a statement of ${
          limit + 1
        } parameters; the database (${dialect}) binds at most ${limit} per statement`,
      ),
      true,
      error.message,
    );
  }
});
