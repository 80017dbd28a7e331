/**
 * The generator's index check: every exposed one-to-many edge is loaded with
 * `where <foreign key> in (...)` on the target's table, so a foreign key without an index makes
 * every page of that edge a scan of the whole table (PostgreSQL creates no index for a foreign
 * key; MikroORM adds one only on SQLite and MySQL/MariaDB). The generator warns, naming the
 * entity and property to annotate.
 *
 * @module
 */
import type { EntityMetadata } from "@mikro-orm/core";
import { relative } from "@std/path";
import type { Diagnostics } from "./diagnostics.ts";
import type { Model } from "./model.ts";

/**
 * Records a warning for each exposed non-unique (`1:m`) edge whose foreign key on the target
 * entity has no index: no `index`/`unique` on the property and no `@Index`/`@Unique` of the
 * entity whose first property it is, on it or on a scalar property of the same column. The warning names the target's file, entity and foreign-key
 * property. Many-to-many edges are left out: they read the pivot table, whose primary key starts
 * with the owner's foreign key.
 *
 * @param cwd base directory for the file names in the warnings
 */
export function checkForeignKeyIndexes(
  model: Model,
  diagnostics: Diagnostics,
  cwd = Deno.cwd(),
): void {
  const byName = new Map(model.types.map((type) => [type.name, type]));
  const seen = new Set<string>();
  for (const type of model.types) {
    for (const edge of type.edges) {
      if (edge.kind !== "1:m" || !edge.inverse) continue;
      const target = byName.get(edge.target)!;
      const entity = target.meta.className;
      const key = `${entity}.${edge.inverse}`;
      if (seen.has(key) || indexed(target.meta, edge.inverse)) continue;
      seen.add(key);
      diagnostics.warn({
        file: relative(cwd, target.entity.file),
        entity,
        prop: edge.inverse,
        message:
          `foreign key of the edge ${type.name}.${edge.name} has no index; add .index() (or @Index()) to ${key}, else every page of ${type.name}.${edge.name} scans the whole ${target.meta.tableName} table on PostgreSQL`,
      });
    }
  }
}

/**
 * Whether the foreign key `prop` of `meta` is the first column of an index: its own `index`,
 * `unique` or key, an entity `@Index`/`@Unique` starting with it, or the same on a scalar property
 * mapped to the same column (`@Index() @Property() authorId` beside `@ManyToOne() author`).
 */
function indexed(meta: EntityMetadata, prop: string): boolean {
  const column = meta.properties[prop].fieldNames?.[0];
  const sameColumn = Object.values(meta.properties).filter((p) =>
    p.name === prop || (column !== undefined && p.fieldNames?.[0] === column)
  );
  return sameColumn.some((p) => indexedProperty(meta, p.name));
}

function indexedProperty(meta: EntityMetadata, prop: string): boolean {
  const property = meta.properties[prop];
  if (property.index || property.unique || property.primary) return true;
  const first = (properties: unknown) =>
    (Array.isArray(properties) ? properties[0] : properties) === prop;
  return meta.indexes.some((index) => first(index.properties)) ||
    meta.uniques.some((unique) => first(unique.properties));
}
