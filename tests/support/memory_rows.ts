/**
 * MikroORM filters and orders evaluated on plain rows in memory, with SQL's meaning: the part of
 * the query language a page's plan uses (`$and`, `$or`, `$gt`, `$gte`, `$lt`, `$lte`, `$ne`,
 * equality, `null` as `IS NULL`, nested property paths; `orderBy` maps with `asc`/`desc` and
 * `nulls first`/`nulls last`). A comparison with a null value is false, as in SQL. Dates compare
 * by time, bigints (or a bigint against its decimal string) as integers. For tests of the
 * keyset pages of `runtime/plan/` without a database.
 *
 * @module
 */

/** A row: property name -> value (a nested object for a to-one path). */
export type Row = Record<string, unknown>;

/** -1, 0 or 1: `a` against `b`, both non-null. */
export function compareValues(a: unknown, b: unknown): number {
  if (typeof a === "bigint" || typeof b === "bigint") {
    const x = BigInt(a as bigint), y = BigInt(b as bigint);
    return x < y ? -1 : x > y ? 1 : 0;
  }
  const x = a instanceof Date ? a.getTime() : a as number | string;
  const y = b instanceof Date ? b.getTime() : b as number | string;
  if (typeof x !== typeof y) throw new Error(`cannot compare ${String(a)} with ${String(b)}`);
  return x < y ? -1 : x > y ? 1 : 0;
}

function isOperatorMap(condition: object): boolean {
  const keys = Object.keys(condition);
  return keys.length > 0 && keys.every((k) => k.startsWith("$"));
}

function testValue(value: unknown, condition: unknown): boolean {
  if (condition === null) return value == null;
  if (typeof condition !== "object" || condition instanceof Date) {
    return value != null && compareValues(value, condition) === 0;
  }
  if (!isOperatorMap(condition)) return value != null && matches(value as Row, condition as Row);
  return Object.entries(condition).every(([op, operand]) => {
    if (op === "$ne" && operand === null) return value != null;
    if (op === "$eq") return testValue(value, operand);
    if (value == null || operand == null) return false;
    const c = compareValues(value, operand);
    switch (op) {
      case "$gt":
        return c > 0;
      case "$gte":
        return c >= 0;
      case "$lt":
        return c < 0;
      case "$lte":
        return c <= 0;
      case "$ne":
        return c !== 0;
    }
    throw new Error(`operator ${op} is not evaluated in memory`);
  });
}

/** Whether `row` matches the MikroORM filter `filter`. */
export function matches(row: Row, filter: unknown): boolean {
  return Object.entries(filter as Row).every(([key, condition]) => {
    if (key === "$and") return (condition as unknown[]).every((f) => matches(row, f));
    if (key === "$or") return (condition as unknown[]).some((f) => matches(row, f));
    if (key.startsWith("$")) throw new Error(`operator ${key} is not evaluated in memory`);
    return testValue(row[key], condition);
  });
}

/** One `orderBy` term flattened: the property path and its placement. */
function flatten(map: Row, prefix = ""): { path: string; placement: string }[] {
  return Object.entries(map).flatMap(([key, value]) =>
    typeof value === "string"
      ? [{ path: prefix + key, placement: value.toLowerCase() }]
      : flatten(value as Row, `${prefix}${key}.`)
  );
}

/** The value of `row` at the property path `path` (`"author.name"`). */
export function valueAtPath(row: Row, path: string): unknown {
  return path.split(".").reduce<unknown>((v, k) => (v as Row | null | undefined)?.[k], row);
}

/**
 * `rows` sorted by the MikroORM `orderBy` list `orderBy` (a stable sort; a null without a
 * `nulls` clause is an error, as the plans never leave one to the database's default).
 */
export function sortRows<T extends Row>(rows: readonly T[], orderBy: readonly object[]): T[] {
  const terms = orderBy.flatMap((map) => flatten(map as Row));
  return [...rows].sort((a, b) => {
    for (const { path, placement } of terms) {
      const x = valueAtPath(a, path), y = valueAtPath(b, path);
      const desc = placement.startsWith("desc");
      if (x == null || y == null) {
        if (x == null && y == null) continue;
        const nullsFirst = placement.endsWith("nulls first");
        if (!placement.includes("nulls")) {
          throw new Error(`a null in ${path} without a nulls clause`);
        }
        return (x == null) === nullsFirst ? -1 : 1;
      }
      const c = compareValues(x, y);
      if (c !== 0) return desc ? -c : c;
    }
    return 0;
  });
}
