/**
 * Every SQL statement a MikroORM instance runs, reported to listeners as it finishes: the
 * instance's logger (`orm.config.getLogger()`, which every connection of the instance logs
 * through, replicas included) gets its `logQuery` wrapped once, whatever the `debug` setting.
 * The listener runs in the async context of the code that ran the statement, so it can find that
 * request's {@linkcode requestScope}.
 *
 * @module
 */
import type { MikroORM } from "@mikro-orm/core";

/** One finished statement. */
export interface StatementEvent {
  /** The SQL text as MikroORM logs it (parameters inlined). */
  sql: string;
  /** How long it ran, in milliseconds (MikroORM's whole-millisecond measure). */
  tookMs: number;
  /** The statement failed. */
  failed: boolean;
  /** `read` or `write` connection, when MikroORM says (with replicas). */
  connectionType?: string;
}

/** The listeners of each instrumented ORM. */
const listeners = new WeakMap<MikroORM, Set<(event: StatementEvent) => void>>();

/** The fields of MikroORM's query log context this module reads. */
interface QueryLogContext {
  query: string;
  took?: number;
  level?: string;
  namespace?: string;
  connection?: { type?: string };
}

/**
 * Calls `listener` after each SQL statement `orm` runs, until the returned function is called.
 * Listener errors are swallowed: observing never fails a statement.
 */
export function observeStatements(
  orm: MikroORM,
  listener: (event: StatementEvent) => void,
): () => void {
  let set = listeners.get(orm);
  if (!set) {
    const own = new Set<(event: StatementEvent) => void>();
    set = own;
    listeners.set(orm, own);
    const logger = orm.config.getLogger() as unknown as {
      logQuery(context: QueryLogContext): void;
    };
    const logQuery = logger.logQuery.bind(logger);
    logger.logQuery = (context) => {
      if ((context.namespace ?? "query") === "query") {
        const event: StatementEvent = {
          sql: context.query,
          tookMs: context.took ?? 0,
          failed: context.level === "error",
          connectionType: context.connection?.type,
        };
        for (const l of own) {
          try {
            l(event);
          } catch {
            // an observer's fault is not the statement's
          }
        }
      }
      return logQuery(context);
    };
  }
  set.add(listener);
  return () => void set.delete(listener);
}
