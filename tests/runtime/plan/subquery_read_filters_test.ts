/**
 * `prepareSubqueryReadFilters` on a real MikroORM (SQLite in memory, the todo example): the read
 * filters of exactly the entities a where input's subqueries (`hasCategoryWith`) and an order's
 * edge terms (`CATEGORY_TEXT`, `CHILDREN_COUNT`) read are computed on the EntityManager, with its
 * filters; arguments without subqueries compute none (reading one then throws, never an
 * unfiltered subquery).
 */
import { assertEquals, assertThrows } from "@std/assert";
import { MikroORM } from "@mikro-orm/core";
import { SqliteDriver } from "@mikro-orm/sql";
import { entities } from "../../../examples/todo/entities.ts";
import { Category } from "../../../examples/todo/entities/category.ts";
import { Todo } from "../../../examples/todo/entities/todo.ts";
import { graph } from "../../../examples/todo/generated/mod.ts";
import { readFilterOf } from "../../../runtime/plan/read_filters.ts";
import { prepareSubqueryReadFilters } from "../../../runtime/plan/subquery_read_filters.ts";
import { exactSqliteDialect } from "../../../server/sqlite_dialect.ts";

const orm = await MikroORM.init({
  driver: SqliteDriver,
  dbName: ":memory:",
  driverOptions: exactSqliteDialect(":memory:"),
  entities,
  colors: false,
});

/** A request's EntityManager that reads only categories with text "mine". */
function requestEm() {
  const em = orm.em.fork();
  em.addFilter({ name: "mine", cond: { text: "mine" }, entity: [Category], default: true });
  return em;
}

Deno.test("subquery read filters: none prepared for arguments without subqueries", async () => {
  const em = requestEm();
  await prepareSubqueryReadFilters(em, graph, graph.types.Todo, {
    where: { textContains: "a" },
    orderBy: { field: "TEXT", direction: "ASC" },
  });
  assertThrows(() => readFilterOf(em, Category), Error, "before prepareReadFilters");
  assertThrows(() => readFilterOf(em, Todo), Error, "before prepareReadFilters");
});

Deno.test("subquery read filters: a where input's has<Edge>With target, with the request's filter", async () => {
  const em = requestEm();
  await prepareSubqueryReadFilters(em, graph, graph.types.Todo, {
    where: { or: [{ hasCategoryWith: [{ textContains: "x" }] }] },
  });
  assertEquals(readFilterOf(em, Category), { text: "mine" });
  assertThrows(() => readFilterOf(em, Todo), Error, "before prepareReadFilters");
});

Deno.test("subquery read filters: an order's edge terms' targets", async () => {
  const em = requestEm();
  await prepareSubqueryReadFilters(em, graph, graph.types.Todo, {
    orderBy: [{ field: "CATEGORY_TEXT" }, { field: "CHILDREN_COUNT" }] as never,
  });
  assertEquals(readFilterOf(em, Category), { text: "mine" });
  assertEquals(readFilterOf(em, Todo), {});
});

globalThis.addEventListener("unload", () => orm.close());
