/**
 * Universal ids (entgql's universal-IDs migration option): every
 * node type's table allocates its integer keys from its own range of 2^32 ids, so a key alone
 * names its type. The type table `mikrogql_types` records which type owns which range; types
 * keep their range when others are added, because new types are appended.
 *
 * @module
 */
import type { EntityManager } from "@mikro-orm/core";
import { type Dialect, dialectOf, quoteIdentifiers } from "../dialect.ts";
import type { Graph } from "../graph.ts";

/** The table recording the type of each id range: `id` (range index), `type` (GraphQL type). */
export const TYPE_TABLE = "mikrogql_types";

/** The size of each type's id range. */
export const RANGE = 2 ** 32;

/**
 * Records the type table and moves each type's key sequence into its range (SQLite
 * `sqlite_sequence`, PostgreSQL `setval`, MariaDB/MySQL `AUTO_INCREMENT`), unless its keys
 * already reached it. Run it once the schema exists, before rows are inserted; running it again
 * is harmless. Pass the result to the schema: `createSchema({ universalIds })`.
 *
 * @example A server of a schema generated with `globalIds: "universal"`
 * ```ts
 * import { MikroORM } from "@mikro-orm/core";
 * import { createYoga } from "graphql-yoga";
 * import { mikrogqlPreset, setupUniversalIds } from "@mikrogql/ext";
 * import config from "./mikro-orm.config.ts";
 * import { createSchema, graph } from "./generated/mod.ts";
 *
 * const orm = await MikroORM.init(config);
 * await orm.schema.update(); // the tables first
 * const universalIds = await setupUniversalIds(orm.em.fork(), graph); // ["Comment", "Photo", ...]
 * const yoga = createYoga({
 *   schema: createSchema({ universalIds }), // node(id: "4294967296"): Photo (keys 2^32 to 2^33 - 1)
 *   context: () => ({ em: orm.em.fork() }),
 *   ...mikrogqlPreset({ txOpener: orm }),
 * });
 * ```
 *
 * @param em an EntityManager of the database (its schema created)
 * @param graph the generated graph
 *
 * @returns the type table: index `i` is the GraphQL type owning the keys
 *   `[i * 2^32, (i + 1) * 2^32)` (range 0 starts at 1)
 * @throws Error when a table's key cannot hold its range (a 32-bit key column on PostgreSQL or
 *   MariaDB; use a `bigint` primary key), or on SQLite when a table is not `AUTOINCREMENT`
 */
export async function setupUniversalIds(em: EntityManager, graph: Graph): Promise<string[]> {
  const connection = em.getConnection();
  const q = (name: string) => quoteIdentifiers(em, name);
  await connection.execute(
    `create table if not exists ${q(TYPE_TABLE)} (${q("id")} integer not null primary key, ${
      q("type")
    } varchar(255) not null unique)`,
  );
  const rows: { id: number | string; type: string }[] = await connection.execute(
    `select ${q("id")}, ${q("type")} from ${q(TYPE_TABLE)} order by ${q("id")}`,
  );
  const table: string[] = [];
  for (const row of rows) table[Number(row.id)] = row.type;
  for (const name of Object.keys(graph.types).sort()) {
    if (table.includes(name)) continue;
    table.push(name);
    await connection.execute(
      `insert into ${q(TYPE_TABLE)} (${q("id")}, ${q("type")}) values (?, ?)`,
      [table.length - 1, name],
    );
  }
  const dialect = dialectOf(em);
  for (const [index, name] of table.entries()) {
    const type = graph.types[name];
    if (!type) continue;
    const meta = em.getMetadata().find(type.entity)!;
    const column = meta.properties[type.id.prop].fieldNames[0];
    const start = Math.max(1, index * RANGE);
    const [{ max }] = await connection.execute(
      `select max(${q(column)}) as ${q("max")} from ${q(meta.tableName)}`,
    );
    if (max != null && Number(max) >= start) continue;
    try {
      await moveSequence(em, dialect, meta.tableName, column, start);
    } catch (error) {
      throw new Error(
        `cannot start the keys of ${name} (${meta.tableName}.${column}) at ${start}: ${
          (error as Error).message
        }`,
      );
    }
  }
  return table;
}

async function moveSequence(
  em: EntityManager,
  dialect: Dialect,
  table: string,
  column: string,
  start: number,
): Promise<void> {
  const connection = em.getConnection();
  const q = (name: string) => quoteIdentifiers(em, name);
  switch (dialect) {
    case "sqlite": {
      const updated = await connection.execute(
        `update sqlite_sequence set seq = ? where name = ?`,
        [start - 1, table],
        "run",
      );
      if (updated.affectedRows === 0) {
        await connection.execute(
          `insert into sqlite_sequence (name, seq) values (?, ?)`,
          [table, start - 1],
        );
      }
      return;
    }
    case "postgresql":
      await connection.execute(`select setval(pg_get_serial_sequence(?, ?), ?, false)`, [
        table,
        column,
        start,
      ]);
      return;
    case "mysql":
      await connection.execute(`alter table ${q(table)} auto_increment = ${start}`);
  }
}
