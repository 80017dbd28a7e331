/**
 * What a committed change publishes: one {@linkcode ChangeRecord} per changed row, with the ids
 * needed to re-read it, and the rule that folds a transaction's flushes into one record per row.
 *
 * @module
 */

/** What a change did to a row, as `ChangeOperation` names it in the schema. */
export type ChangeOperationName = "CREATED" | "UPDATED" | "DELETED";

/** One committed change of one row. */
export interface ChangeRecord {
  /** The MikroORM class name of the row's entity (its own class, not an ancestor's). */
  entity: string;
  /** What the change did. */
  op: ChangeOperationName;
  /**
   * The row's primary key values, in MikroORM's `primaryKeys` order (a relation part as the key
   * of the row it points to; a `bigint` as its decimal text): JSON, so it crosses Redis as is.
   */
  key: unknown[];
}

/** The topic of an entity's changes: `<prefix>changed:<root class name>`. */
export function changeTopic(prefix: string, rootEntity: string): string {
  return `${prefix}changed:${rootEntity}`;
}

/** A record's row, as one key for folding: entity and key values. */
function rowKey(record: ChangeRecord): string {
  return `${record.entity}\u0000${JSON.stringify(record.key)}`;
}

/**
 * Folds the records of one transaction (in flush order) into one per row, as the commit left
 * it: created then updated is `CREATED`, created then deleted is nothing, updated then deleted
 * is `DELETED`, deleted then created again (the same key) is `UPDATED`.
 */
export function foldChanges(records: readonly ChangeRecord[]): ChangeRecord[] {
  const rows = new Map<string, ChangeRecord | null>();
  for (const record of records) {
    const key = rowKey(record);
    const before = rows.get(key);
    // `null`: created and deleted in this transaction; what follows starts anew.
    rows.set(key, before ? fold(before, record) : record);
  }
  return [...rows.values()].filter((r): r is ChangeRecord => r !== null);
}

function fold(before: ChangeRecord, after: ChangeRecord): ChangeRecord | null {
  if (before.op === "CREATED") return after.op === "DELETED" ? null : before;
  if (before.op === "DELETED") return after.op === "CREATED" ? { ...after, op: "UPDATED" } : before;
  return after.op === "CREATED" ? { ...after, op: "UPDATED" } : after;
}
