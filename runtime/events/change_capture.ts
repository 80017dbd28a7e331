/**
 * Commit-time change capture: a MikroORM event subscriber that turns the change sets of every
 * flush through an ORM (the Transactioner's, `createNode`'s, or any `em.flush` of the
 * application) into {@linkcode ChangeRecord}s, and hands them on only once their transaction has
 * committed:
 *
 * - a flush outside a transaction commits its own (MikroORM's implicit transaction, whose commit
 *   precedes `afterFlush`): its records go out at `afterFlush`;
 * - a flush inside a transaction (the Transactioner's, `em.transactional`, `em.begin`) keeps its
 *   records on that transaction until `afterTransactionCommit`; a savepoint's wait for the
 *   commit of the outermost transaction; `afterTransactionRollback` drops a transaction's or a
 *   savepoint's (with the savepoints opened in it), so a rolled-back write publishes nothing.
 *
 * The records of one commit are folded to one per row (`foldChanges`) and grouped by the root
 * entity of their class (its topic). A many-to-many collection changed on its own is an `UPDATED`
 * of its owner.
 *
 * @module
 */
import {
  type ChangeSet,
  ChangeSetType,
  type EntityManager,
  type EventSubscriber,
  type FlushEventArgs,
  type MikroORM,
  Reference,
  type TransactionEventArgs,
  type UnitOfWork,
  wrap,
} from "@mikro-orm/core";
import { type ChangeOperationName, type ChangeRecord, foldChanges } from "./change_record.ts";

/** Receives the folded records of one commit, by root entity class name. */
export type PublishChanges = (changes: Map<string, ChangeRecord[]>) => void;

/** One record with the root entity class of its row (the topic it goes to). */
interface Captured {
  root: string;
  record: ChangeRecord;
  /** Its place in flush order. */
  seq: number;
}

const OPERATIONS: Record<ChangeSetType, ChangeOperationName> = {
  [ChangeSetType.CREATE]: "CREATED",
  [ChangeSetType.UPDATE]: "UPDATED",
  [ChangeSetType.UPDATE_EARLY]: "UPDATED",
  [ChangeSetType.DELETE]: "DELETED",
  [ChangeSetType.DELETE_EARLY]: "DELETED",
};

/** The MikroORM event subscriber of {@linkcode captureChanges}. */
class ChangeCapture implements EventSubscriber {
  /** Transaction or savepoint -> the records its flushes wrote, not yet committed. */
  readonly #pending = new WeakMap<object, Captured[]>();
  /** Transaction or savepoint -> the savepoints opened in it. */
  readonly #savepoints = new WeakMap<object, object[]>();
  /** Savepoints (their records are published with their outermost transaction's commit). */
  readonly #nested = new WeakSet<object>();
  /** EntityManager -> the transaction a savepoint is being opened in. */
  readonly #opening = new WeakMap<EntityManager, object>();
  /** Flush order across transactions and their savepoints. */
  #sequence = 0;
  /** Where the records of a commit go; replaced by a later `captureChanges` on the same ORM. */
  publish: PublishChanges;

  constructor(publish: PublishChanges) {
    this.publish = publish;
  }

  afterFlush({ em, uow }: FlushEventArgs): void {
    const captured = capturedOf(uow, () => this.#sequence++);
    if (captured.length === 0) return;
    const trx = em.isInTransaction() ? em.getTransactionContext() : undefined;
    if (!trx) return this.#commit(captured);
    const pending = this.#pending.get(trx as object);
    if (pending) pending.push(...captured);
    else this.#pending.set(trx as object, captured);
  }

  beforeTransactionStart({ em, transaction }: TransactionEventArgs): void {
    // MikroORM passes the transaction around a savepoint it is about to open.
    if (transaction) this.#opening.set(em, transaction);
  }

  afterTransactionStart({ em, transaction }: TransactionEventArgs): void {
    const parent = this.#opening.get(em);
    this.#opening.delete(em);
    if (!parent || !transaction?.savepointName) return;
    this.#nested.add(transaction);
    const list = this.#savepoints.get(parent);
    if (list) list.push(transaction);
    else this.#savepoints.set(parent, [transaction]);
  }

  afterTransactionCommit({ transaction }: TransactionEventArgs): void {
    // A released savepoint's records wait for the outermost commit (MikroORM's MySQL driver
    // sends no commit event for a savepoint at all).
    if (!transaction || this.#nested.has(transaction)) return;
    const captured = this.#collect(transaction);
    if (captured.length > 0) this.#commit(captured.sort((a, b) => a.seq - b.seq));
  }

  afterTransactionRollback({ transaction }: TransactionEventArgs): void {
    if (transaction) this.#collect(transaction);
  }

  /** Takes the records of `trx` and of its savepoints not rolled back, at any depth. */
  #collect(trx: object): Captured[] {
    const captured = this.#pending.get(trx) ?? [];
    this.#pending.delete(trx);
    for (const savepoint of this.#savepoints.get(trx) ?? []) {
      captured.push(...this.#collect(savepoint));
    }
    this.#savepoints.delete(trx);
    return captured;
  }

  #commit(captured: Captured[]): void {
    const byRoot = new Map<string, ChangeRecord[]>();
    for (const { root, record } of captured) {
      const list = byRoot.get(root);
      if (list) list.push(record);
      else byRoot.set(root, [record]);
    }
    for (const [root, records] of byRoot) byRoot.set(root, foldChanges(records));
    this.publish(byRoot);
  }
}

/** The records of one flush: its change sets, then the owners of collections changed alone. */
function capturedOf(uow: UnitOfWork, seq: () => number): Captured[] {
  const captured: Captured[] = uow.getChangeSets().map((cs) => ({
    root: cs.rootMeta.className,
    record: { entity: cs.meta.className, op: OPERATIONS[cs.type], key: keyOf(cs) },
    seq: seq(),
  }));
  for (const collection of uow.getCollectionUpdates()) {
    const owner = collection.owner as object;
    const meta = wrap(owner, true).__meta;
    captured.push({
      root: meta.root.className,
      record: { entity: meta.className, op: "UPDATED", key: entityKey(owner, meta.primaryKeys) },
      seq: seq(),
    });
  }
  return captured;
}

function keyOf(cs: ChangeSet<object>): unknown[] {
  return entityKey(cs.entity, cs.meta.primaryKeys);
}

/** The primary key values of `entity`, as JSON (a relation part as its row's key). */
function entityKey(entity: object, primaryKeys: readonly string[]): unknown[] {
  return primaryKeys.map((prop) => {
    let value = (entity as Record<string, unknown>)[prop];
    if (value !== null && typeof value === "object" && !(value instanceof Date)) {
      value = wrap(Reference.unwrapReference(value as object), true).getPrimaryKey();
    }
    return typeof value === "bigint" ? String(value) : value;
  });
}

const CAPTURES = new WeakMap<MikroORM, ChangeCapture>();

/**
 * Sends the committed changes of every flush through `orm` to `publish` (one call per commit,
 * records by root entity class), registering the capture's MikroORM event subscriber once per
 * ORM; a later call on the same ORM replaces `publish`.
 *
 * @example Log what every commit of an ORM changed
 * ```ts
 * import type { MikroORM } from "@mikro-orm/core";
 * import { captureChanges } from "@mikrogql/ext";
 *
 * export function logCommits(orm: MikroORM): void {
 *   // e.g. [{ entity: "Task", op: "UPDATED", key: [4] }]
 *   captureChanges(orm, (changes) => console.log([...changes.values()].flat()));
 * }
 * ```
 */
export function captureChanges(orm: MikroORM, publish: PublishChanges): void {
  const known = CAPTURES.get(orm);
  if (known) {
    known.publish = publish;
    return;
  }
  const capture = new ChangeCapture(publish);
  CAPTURES.set(orm, capture);
  orm.em.getEventManager().registerSubscriber(capture);
}
