/**
 * The lean read path: rows read as records (`runtime/read/lean_records.ts`) hold the
 * same values as the entities MikroORM hydrates from the same rows (dates, booleans, JSON,
 * bigints, enums, arrays, UUIDs, foreign keys), on every example, on SQLite, PostgreSQL and
 * MariaDB; records are not managed by the EntityManager and keep the entity's getters.
 */
import { assert, assertEquals } from "@std/assert";
import { type EntityManager, type EntityMetadata, wrap } from "@mikro-orm/core";
import type { SqlEntityManager } from "@mikro-orm/sql";
import { entities as blogEntities } from "../../examples/blog/entities.ts";
import { seed as seedBlog } from "../../examples/blog/seed.ts";
import { entities as realworldEntities } from "../../examples/realworld/entities.ts";
import { seed as seedRealworld } from "../../examples/realworld/seed.ts";
import { entities as shopEntities } from "../../examples/shop/entities.ts";
import { seed as seedShop } from "../../examples/shop/seed.ts";
import { entities as todoEntities } from "../../examples/todo/entities.ts";
import { seed as seedTodo } from "../../examples/todo/seed.ts";
import { isRecord, leanable, toRecords } from "../../runtime/read/lean_records.ts";
import { dialects, openTestOrm } from "../support/databases.ts";

const EXAMPLES = [
  ["blog", blogEntities, (em: EntityManager) => seedBlog(em)],
  ["realworld", realworldEntities, (em: EntityManager) => seedRealworld(em)],
  ["todo", todoEntities, (em: EntityManager) => seedTodo(em)],
  ["shop", shopEntities, (em: EntityManager) => seedShop(em)],
] as const;

/** The value of `prop` as a comparable: a reference becomes its primary key. */
function comparable(meta: EntityMetadata, prop: string, value: unknown): unknown {
  const kind = meta.properties[prop].kind;
  if (kind !== "scalar" && value != null && typeof value === "object") {
    return wrap(value as object, true).getPrimaryKey();
  }
  return value instanceof Date ? value.toISOString() : value;
}

for (const dialect of dialects()) {
  Deno.test({
    name: `records hold the values of hydrated entities on every example (${dialect})`,
    sanitizeOps: false,
    sanitizeResources: false,
    fn: async () => {
      let checkedValues = 0;
      for (const [name, entities, seed] of EXAMPLES) {
        const db = await openTestOrm(dialect, [...entities]);
        try {
          await seed(db.orm.em.fork());
          for (const meta of db.orm.getMetadata().getAll().values()) {
            if (meta.pivotTable || meta.embeddable || meta.virtual || meta.abstract) continue;
            // Inheritance hierarchies are read as entities (their rows' classes vary).
            if (!leanable(meta, [meta.primaryKeys[0]])) {
              assert(meta.root !== meta || meta.discriminatorColumn || meta.inheritanceType);
              continue;
            }
            const props = meta.props
              .filter((p) => leanable(meta, [p.name]) && !p.lazy)
              .map((p) => p.name);
            assert(props.length > 0, `${name}.${meta.className}: no property to read lean`);
            const em = db.orm.em.fork() as SqlEntityManager;
            const order = { [meta.primaryKeys[0]]: "asc" } as never;
            const entitiesRead = await em.find(meta.class, {}, { orderBy: order });
            const raw = await em.createQueryBuilder(meta.class, "e0").select(props as never)
              .orderBy(order).execute("all", false);
            const records = toRecords(em, meta, raw as Record<string, unknown>[], props);
            assertEquals(records.length, entitiesRead.length);
            const managed = new Set<unknown>(em.getUnitOfWork().getIdentityMap().values());
            assert(managed.has(entitiesRead[0]));
            assert(records.length > 0, `${name}.${meta.className}: the seed has rows`);
            records.forEach((record, i) => {
              assert(isRecord(record) && !isRecord(entitiesRead[i]));
              assert(!managed.has(record), "a record is not in the identity map");
              for (const prop of props) {
                const mine = (record as Record<string, unknown>)[prop];
                const theirs = (entitiesRead[i] as Record<string, unknown>)[prop];
                assertEquals(
                  comparable(meta, prop, mine),
                  comparable(meta, prop, theirs),
                  `${name}.${meta.className}#${i}.${prop} (${dialect})`,
                );
                if (theirs instanceof Date) assert(mine instanceof Date);
                checkedValues++;
              }
              for (const getter of meta.props.filter((p) => p.getter && p.persist === false)) {
                const names = getter.name as string;
                assertEquals(
                  (record as Record<string, unknown>)[names],
                  (entitiesRead[i] as Record<string, unknown>)[names],
                  `${name}.${meta.className}.${names}: the entity's getter works on a record`,
                );
              }
            });
          }
        } finally {
          await db.close();
        }
      }
      assert(checkedValues > 100, `only ${checkedValues} values compared`);
    },
  });
}
