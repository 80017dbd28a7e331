/**
 * Order terms that are SQL expressions over the row, and the cursor values read for them from
 * the database:
 *
 * - `<EDGE>_COUNT` (entgql, non-unique edge): `(SELECT count(*) FROM <target or pivot> WHERE
 *   <foreign key> = <row key>)`;
 * - `<EDGE>_<FIELD>` (entgql, unique edge): `(SELECT <field> FROM <target> WHERE <target key> =
 *   <row foreign key>)`, nullable (a row without the edge sorts as null);
 * - date fields: the column itself, but its cursor value is the database's own representation
 *   (`dialect.exactValue`), so a PostgreSQL microsecond timestamp survives the round trip through
 *   a cursor and a page boundary inside one millisecond neither skips nor repeats rows;
 * - enum fields on MariaDB/MySQL: the column's text (an `ENUM` column sorts by declaration index
 *   there, but compares to a cursor's string as a string).
 *
 * Expressions are MikroORM `raw()` fragments with the row alias left open, usable in `orderBy`
 * and filter keys of `em.find`, `Collection.matching` and the QueryBuilder alike.
 *
 * @module
 */
import {
  type EntityManager,
  type EntityMetadata,
  raw,
  type RawQueryFragment,
} from "@mikro-orm/core";
import { dialectOf, exactValue } from "./dialect.ts";
import type { NodeType } from "./graph.ts";

/** An order term's SQL: the expression ordered and compared, and the one read for its cursor. */
export interface TermSql {
  /** The expression `ORDER BY` and the keyset compare, on the row alias of the query it is in. */
  expression: RawQueryFragment;
  /** The expression on the row alias `alias`, as SQL text. */
  text(alias: string): string;
  /** The expression selected for the cursor value (the database's own representation). */
  value(alias: string): RawQueryFragment;
}

/** What an order term orders by, as the SQL builder needs it. */
export interface TermSource {
  /** The entity property: a scalar, or the edge of a count or edge-field term. */
  path: string;
  kind: string;
  count?: boolean;
  field?: string;
}

/**
 * The SQL of `term` on the rows of `type`, or `undefined` for a plain property term (ordered by
 * its property path, its cursor value read from the entity).
 *
 * @throws Error when MikroORM's metadata lacks the properties the generated tables name
 */
export function termSql(em: EntityManager, type: NodeType, term: TermSource): TermSql | undefined {
  const dialect = dialectOf(em);
  const enumColumn = term.kind === "enum" && dialect === "mysql";
  if (!term.count && !term.field && term.kind !== "time" && !enumColumn) return undefined;
  const q = (name: string) => em.getPlatform().quoteIdentifier(name);
  const meta = metaOf(em, type.entity);
  const prop = meta.properties[term.path];
  const own = (alias: string, column: string) => `${alias}.${q(column)}`;
  let sql: (alias: string) => string;
  if (term.count) {
    sql = (alias) => {
      if (prop.kind === "m:n") {
        const owner = prop.owner ? prop : metaOf(em, prop.type).properties[prop.mappedBy];
        const columns = prop.owner ? owner.joinColumns : owner.inverseJoinColumns;
        return `(select count(*) from ${q(owner.pivotTable)} as ${q("__o")} where ${
          equal(columns, meta.primaryKeys.map((pk) => own(alias, field(meta, pk))), "__o", q)
        })`;
      }
      const target = metaOf(em, prop.type);
      const back = target.properties[prop.mappedBy];
      return `(select count(*) from ${q(target.tableName)} as ${q("__o")} where ${
        equal(back.fieldNames, back.referencedColumnNames.map((c) => own(alias, c)), "__o", q)
      })`;
    };
  } else if (term.field) {
    const target = metaOf(em, prop.type);
    const column = q(field(target, term.field));
    sql = (alias) => {
      const condition = prop.owner
        ? equal(prop.referencedColumnNames, prop.fieldNames.map((c) => own(alias, c)), "__o", q)
        : equal(
          target.properties[prop.mappedBy].fieldNames,
          meta.primaryKeys.map((pk) => own(alias, field(meta, pk))),
          "__o",
          q,
        );
      return `(select ${q("__o")}.${column} from ${q(target.tableName)} as ${
        q("__o")
      } where ${condition})`;
    };
  } else if (enumColumn) {
    // MariaDB/MySQL sort an ENUM column by declaration index but compare it to a string as a
    // string: order and compare its text instead, as the other dialects do.
    sql = (alias) => `cast(${own(alias, field(meta, term.path))} as char)`;
  } else {
    sql = (alias) => own(alias, field(meta, term.path));
  }
  const time = term.kind === "time";
  return {
    expression: raw(sql),
    text: sql,
    value: (alias) => raw(time ? exactValue(dialect, sql(alias)) : sql(alias)),
  };
}

function metaOf(em: EntityManager, entity: unknown): EntityMetadata {
  return em.getMetadata().find(entity as never)!;
}

function field(meta: EntityMetadata, prop: string): string {
  return meta.properties[prop].fieldNames[0];
}

function equal(
  columns: string[],
  values: string[],
  alias: string,
  q: (name: string) => string,
): string {
  return columns.map((c, i) => `${q(alias)}.${q(c)} = ${values[i]}`).join(" and ");
}
