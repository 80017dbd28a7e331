/**
 * The generated change feeds, `Subscription.<type>Changed(where)`: each subscription reads its
 * type's topic of the change feed (`ctx.changes`, `events/change_feed.ts`) and delivers a
 * committed change only when its viewer may see it, as a query after the commit would:
 *
 * - `CREATED`/`UPDATED`: the row is re-read under the subscription's read rules and `where`
 *   (one statement per message for every subscription with the same viewer, database session
 *   and `where`: the first asks, the others share its answer); a row it may not read is no
 *   event at all (an invisible row's change is indistinguishable from no change). `node` is then
 *   resolved as `node(id)` is, with the selection's field collection and field rules.
 * - `DELETED`: only to a subscription that could read the row before: one that saw it (rows it
 *   could read when it started, up to `MAX_TRACKED_NODES`, and every row it was sent since). A
 *   row that leaves what the subscription may read or `where` selects (an update) is `DELETED`
 *   for it too, as it leaves a query's answer.
 *
 * Each event is a new request for the budgets: the node budget restarts, the identity map is
 * cleared, and the visibility re-read has a deadline (`reReadTimeoutMs`): past it the
 * subscription ends with `QUERY_TIMEOUT`.
 *
 * @module
 */
import type { EntityManager, FilterQuery } from "@mikro-orm/core";
import { type GraphQLResolveInfo, print } from "graphql";
import { ErrorCode, gqlError } from "../error_codes.ts";
import { changeEventName } from "../names.ts";
import { entityClassName, type Graph, type NodeType } from "../graph.ts";
import { keyParts, keyText, keyValues } from "../keys.ts";
import { nodeBudget, startNodeBudget } from "../node_budget.ts";
import { policiesOfContext } from "../policy_binding.ts";
import type { ChangeOperationName, ChangeRecord } from "../events/change_record.ts";
import { allOf } from "../jsutils/all_of.ts";
import { databaseFault, unavailable } from "../database/database_faults.ts";
import { globalIdOf } from "../plan/global_id.ts";
import { prepareSubqueryReadFilters } from "../plan/subquery_read_filters.ts";
import { whereFilter } from "../plan/where_filter.ts";
import type { MikroContext } from "../request/context.ts";
import type { RequestState } from "../request/request_state.ts";
import { findRows } from "../read/find_rows.ts";
import { resolveNode } from "./root_fields.ts";

/** The rows a subscription remembers as readable (for `DELETED`), at most. */
export const MAX_TRACKED_NODES = 10_000;

/** The deadline of an event's visibility re-read, in milliseconds, by default. */
export const DEFAULT_REREAD_TIMEOUT_MS = 5_000;

/** What a change feed's `subscribe` yields and its `resolve` reads: one event for one subscriber. */
export interface ChangeEventSource {
  operation: ChangeOperationName;
  /** The row's key as global ids hold it (`keyText`). */
  pk: string;
  /**
   * The error that ends the subscription (`SUBSCRIPTIONS_UNAVAILABLE`, `SLOW_CONSUMER`,
   * `QUERY_TIMEOUT`, a database fault): its last event carries it as a GraphQL error, then the
   * stream completes, so every transport ends it the same clean way.
   */
  error?: Error;
  /** The message (commit) the event comes from, and the subscription's sharing key. */
  batch?: ChangeRecord[];
  share?: string;
}

/** What a `<T>ChangeEvent` resolves from. */
export interface ChangeEventValue {
  operation: ChangeOperationName;
  id: string;
  /** The row's global id, for `node`; `undefined` when `DELETED`. */
  nodeId?: string;
  /** See {@linkcode ChangeEventSource}. */
  batch?: ChangeRecord[];
  share?: string;
}

/** Options of {@linkcode subscriptionResolvers}. */
export interface SubscriptionFieldOptions {
  /** The deadline of an event's visibility re-read, in milliseconds; default 5,000. */
  reReadTimeoutMs?: number;
}

/** Share key -> the rows being read for subscriptions starting now (in flight only). */
const SEEDING = new Map<string, Promise<string[]>>();

/**
 * A database fault as its code (`DATABASE_UNAVAILABLE`, `QUERY_TIMEOUT`), as a query's would be;
 * any other error as it is.
 */
function faultOf(error: unknown): Error {
  const fault = databaseFault(error);
  if (fault === "unavailable") return unavailable();
  if (fault === "timeout") {
    return gqlError(ErrorCode.QUERY_TIMEOUT, "a statement of this subscription timed out");
  }
  return error as Error;
}

/** Message -> (share key, selection, node -> its read), for subscriptions asking alike. */
const NODES = new WeakMap<ChangeRecord[], Map<string, Promise<object>>>();

/** A `node` field's selection and the operation's variables, as text (kept per field node). */
const SELECTIONS = new WeakMap<object, string>();

function selectionKey(info: GraphQLResolveInfo): string {
  const node = info.fieldNodes[0];
  let text = SELECTIONS.get(node);
  if (text === undefined) SELECTIONS.set(node, text = info.fieldNodes.map(print).join(" "));
  return `${text}\u0000${JSON.stringify(info.variableValues)}`;
}

/** Message -> (share key -> the readable keys of its records), for subscriptions asking alike. */
const SHARED = new WeakMap<ChangeRecord[], Map<string, Promise<Set<string>>>>();

/**
 * The `Subscription` resolvers of `graph`'s change feeds and the `<T>ChangeEvent.node` resolvers.
 *
 * @param request the request state of a resolver call (`resolvers.ts`)
 */
export function subscriptionResolvers(
  graph: Graph,
  request: (ctx: MikroContext) => RequestState,
  options: SubscriptionFieldOptions = {},
): { subscription: Record<string, unknown>; events: Record<string, Record<string, unknown>> } {
  const subscription: Record<string, unknown> = {};
  const events: Record<string, Record<string, unknown>> = {};
  for (const [typeName, field] of Object.entries(graph.subscriptionFields)) {
    const type = graph.types[typeName];
    subscription[field] = {
      subscribe: (_root: unknown, args: { where?: unknown }, ctx: MikroContext) =>
        subscribe(graph, type, args.where, ctx, request, options),
      resolve: (event: ChangeEventSource): ChangeEventValue => {
        if (event.error) throw event.error;
        const id = globalIdOf(graph, type, typedKey(type, event.pk));
        return {
          operation: event.operation,
          id,
          nodeId: event.operation === "DELETED" ? undefined : id,
          batch: event.batch,
          share: event.share,
        };
      },
    };
    events[changeEventName(typeName)] = {
      node: async (
        event: ChangeEventValue,
        _args: unknown,
        ctx: MikroContext,
        info: GraphQLResolveInfo,
      ) => {
        if (!event.nodeId) return null;
        try {
          // Subscriptions with the same viewer, session, where and selection share one read.
          if (!event.share || !event.batch) {
            return await resolveNode(request(ctx), event.nodeId, info);
          }
          let reads = NODES.get(event.batch);
          if (!reads) NODES.set(event.batch, reads = new Map());
          const key = `${event.share}\u0000${selectionKey(info)}\u0000${event.nodeId}`;
          let read = reads.get(key);
          if (!read) reads.set(key, read = resolveNode(request(ctx), event.nodeId, info));
          return await read;
        } catch (error) {
          // Deleted or hidden between the re-read and now: as a query would, no node.
          if ((error as { extensions?: { code?: string } }).extensions?.code === "NOT_FOUND") {
            return null;
          }
          throw error;
        }
      },
    };
  }
  return { subscription, events };
}

/** The value of a key as `keyText` wrote it, typed as `primaryKeyOf` returns it. */
function typedKey(type: NodeType, pk: string): string | number {
  return !type.id.parts && type.id.kind === "int" ? Number(pk) : pk;
}

/** The filter of a row by its captured key values (MikroORM `primaryKeys` order). */
function recordFilter(type: NodeType, key: readonly unknown[]): Record<string, unknown> {
  return Object.fromEntries(keyParts(type).map((part, i) => [part.prop, key[i]]));
}

/** The classes whose rows a type's feed reports: its entity's and its subclasses'. */
function classesOf(em: EntityManager, type: NodeType): Set<string> {
  const own = entityClassName(type.entity);
  const names = new Set([own]);
  for (const meta of em.getMetadata().getAll().values()) {
    let parent = meta.extends ? em.getMetadata().find(meta.extends as never) : undefined;
    while (parent) {
      if (parent.className === own) names.add(meta.className);
      parent = parent.extends ? em.getMetadata().find(parent.extends as never) : undefined;
    }
  }
  return names;
}

async function subscribe(
  graph: Graph,
  type: NodeType,
  where: unknown,
  ctx: MikroContext,
  request: (ctx: MikroContext) => RequestState,
  options: SubscriptionFieldOptions,
): Promise<AsyncIterableIterator<ChangeEventSource>> {
  const feed = ctx.changes;
  if (!feed) {
    throw gqlError(
      ErrorCode.SUBSCRIPTIONS_UNAVAILABLE,
      "this server has no change feed: serve() sets one, or put `changes: createChangeFeed()` in the context",
    );
  }
  // The request's EntityManager, with the schema's policies bound for the viewer.
  const em = request(ctx).em;
  // A bad where input is refused before the stream starts.
  await prepareSubqueryReadFilters(em, graph, type, { where });
  const filter = whereFilter(em, graph, type.name, where);
  const meta = em.getMetadata().find(type.entity)!;
  const classes = classesOf(em, type);
  const budget = nodeBudget(ctx);
  const timeoutMs = options.reReadTimeoutMs ?? DEFAULT_REREAD_TIMEOUT_MS;
  const shareKey = sharingKey(type, ctx, where);
  // Listening before the rows it could read are remembered: a change in between is not missed.
  const source = feed.subscribe(meta.root.className);
  let known: Set<string>;
  try {
    // Subscriptions starting together with the same viewer, session and where share the read.
    let seeding = shareKey ? SEEDING.get(shareKey) : undefined;
    if (!seeding) {
      seeding = findRows(em, type, filter, { fields: [], limit: MAX_TRACKED_NODES })
        .then((rows) => rows.map((row) => keyText(type, keyValues(type, row))));
      if (shareKey) {
        SEEDING.set(shareKey, seeding);
        const done = () => SEEDING.delete(shareKey);
        seeding.then(done, done);
      }
    }
    known = new Set(await seeding);
  } catch (error) {
    await source.return?.();
    throw faultOf(error);
  }

  /** The keys among `message`'s records of this type the subscription may read now. */
  const readable = (message: ChangeRecord[], records: ChangeRecord[]): Promise<Set<string>> => {
    let byKey = SHARED.get(message);
    if (!byKey) SHARED.set(message, byKey = new Map());
    const key = shareKey ?? Symbol() as unknown as string;
    let answer = byKey.get(key);
    if (!answer) {
      answer = readKeys(em, type, filter, records);
      if (shareKey) byKey.set(key, answer);
    }
    return withDeadline(answer, timeoutMs);
  };

  const pending: ChangeEventSource[] = [];
  let ended = false;
  const iterator: AsyncIterableIterator<ChangeEventSource> = {
    next: async () => {
      if (ended && pending.length === 0) return { value: undefined, done: true };
      try {
        await fill();
      } catch (error) {
        ended = true;
        await source.return?.();
        return { value: { operation: "UPDATED", pk: "", error: faultOf(error) }, done: false };
      }
      if (pending.length === 0) return { value: undefined, done: true };
      return { value: pending.shift()!, done: false };
    },
    return: async () => {
      ended = true;
      await source.return?.();
      return { value: undefined, done: true };
    },
    [Symbol.asyncIterator]: () => iterator,
  };
  return iterator;

  /** Reads messages until one yields events for this subscription, or the source ends. */
  async function fill(): Promise<void> {
    while (pending.length === 0) {
      const next = await source.next();
      if (next.done) return;
      const message = next.value;
      const records = message.filter((r) => classes.has(r.entity));
      if (records.length === 0) continue;
      // Each event is a request of its own: a fresh identity map and node budget.
      em.clear();
      startNodeBudget(ctx, budget.max, budget.limit);
      const changed = records.filter((r) => r.op !== "DELETED");
      const visible = changed.length > 0 ? await readable(message, changed) : new Set<string>();
      for (const record of records) {
        const pk = keyText(type, record.key);
        if (record.op !== "DELETED" && visible.has(pk)) {
          if (known.size < MAX_TRACKED_NODES || known.has(pk)) known.add(pk);
          pending.push({ operation: record.op, pk, batch: message, share: shareKey });
        } else if (known.delete(pk)) {
          // Deleted, or no longer readable or selected: it leaves the subscriber's view.
          pending.push({ operation: "DELETED", pk });
        }
      }
    }
  }
}

/** One statement: the keys of `records` that the EntityManager's read rules and `filter` select. */
async function readKeys(
  em: EntityManager,
  type: NodeType,
  filter: FilterQuery<object>,
  records: ChangeRecord[],
): Promise<Set<string>> {
  const keys = allOf(filter, { $or: records.map((r) => recordFilter(type, r.key)) });
  const rows = await findRows(em, type, keys, { fields: [] });
  return new Set(rows.map((row) => keyText(type, keyValues(type, row))));
}

/**
 * What makes two subscriptions' re-reads the same statement: the type, the viewer, the database
 * session and the `where` value; `undefined` (never shared) when they are not JSON.
 */
function sharingKey(type: NodeType, ctx: MikroContext, where: unknown): string | undefined {
  try {
    return JSON.stringify([
      type.name,
      policiesOfContext(ctx)?.viewer ?? null,
      ctx.databaseSession ?? null,
      where ?? null,
    ]);
  } catch {
    return undefined;
  }
}

function withDeadline<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          gqlError(
            ErrorCode.QUERY_TIMEOUT,
            `an event's re-read took longer than ${ms} ms; the subscription ended: subscribe again`,
          ),
        ),
      ms,
    );
  });
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}
