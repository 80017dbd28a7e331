/**
 * The request context: what every runtime step of a request needs, built once per request (the
 * first resolver call on the request's EntityManager, in `resolve/resolvers.ts` or
 * `resolve/mutation_resolvers.ts`) and passed down to root and edge resolution, the SQL reads and
 * field collection instead of
 * `(em, graph, limits)` by position.
 *
 * @module
 */
import type { ConnectionType, EntityManager } from "@mikro-orm/core";
import type { CollectLimits, CollectOptions } from "../plan/field_collection.ts";
import type { Graph } from "../graph.ts";
import type { NodeBudget } from "../node_budget.ts";
import { readConnectionType } from "../database/read_from.ts";
import { LoadedEdges } from "../plan/loaded_edges.ts";

/** The context of one request. */
export interface RequestState extends CollectOptions {
  /** The request's EntityManager (`fromContext`: the transaction's inside a mutation). */
  readonly em: EntityManager;
  /** The graph with the schema's runtime hooks attached (`withHooks`). */
  readonly graph: Graph;
  /** Page-size and depth limits (the schema's options object: plans are cached per object). */
  readonly limits: CollectLimits;
  /**
   * The MikroORM option sending a read to the request's read connection (`database/read_from.ts`), as
   * `fromContext` last marked the EntityManager.
   */
  readonly read: { readonly connectionType: ConnectionType };
  /** The response paths (without list indices) of edges resolved without field collection. */
  readonly fallbacks: Set<string>;
  /** The pending batches of edge resolvers, by batch key (`resolve/edge_fields.ts`). */
  readonly batches: Map<string, { parents: object[]; done: Promise<void> }>;
  /** The request's node budget, which every statement reading nodes draws from (`read/row_limit.ts`). */
  readonly budget: NodeBudget;
  /** What field collection loaded for the edge resolvers (`plan/loaded_edges.ts`). */
  readonly loaded: LoadedEdges;
}

/**
 * Where an EntityManager keeps its request's context: a property, cheaper than an entry per
 * request in a WeakMap (about 7 µs of CPU per request with its garbage collection).
 */
const CONTEXT = Symbol("mikrogql.requestState");

/** The MikroORM read options, one object per connection type (MikroORM copies options it gets). */
const READ_OPTIONS: Readonly<Record<ConnectionType, { readonly connectionType: ConnectionType }>> =
  Object.freeze({
    read: Object.freeze({ connectionType: "read" }),
    write: Object.freeze({ connectionType: "write" }),
  });

class Context implements RequestState {
  readonly fallbacks: Set<string>;
  readonly batches: Map<string, { parents: object[]; done: Promise<void> }>;
  readonly loaded: LoadedEdges;

  constructor(
    readonly em: EntityManager,
    readonly graph: Graph,
    readonly limits: CollectLimits,
    readonly budget: NodeBudget,
    known: RequestState | undefined,
  ) {
    // Resolvers of another schema or limits on the same EntityManager share the request's state.
    this.fallbacks = known?.fallbacks ?? new Set();
    this.batches = known?.batches ?? new Map();
    // What one request loaded is never another's (an EntityManager a user shares between
    // requests gets a state per request: its budget is the request's).
    this.loaded = known?.budget === budget ? known.loaded : new LoadedEdges();
  }

  get read(): { readonly connectionType: ConnectionType } {
    return READ_OPTIONS[readConnectionType(this.em)];
  }
}

/**
 * The context of the request whose EntityManager is `em` (already marked by `fromContext`):
 * the one built by an earlier resolver call of the request, or a new one.
 *
 * @param budget the request's node budget (`nodeBudget` of its GraphQL context)
 */
export function requestState(
  em: EntityManager,
  graph: Graph,
  limits: CollectLimits,
  budget: NodeBudget,
): RequestState {
  const holder = em as EntityManager & { [CONTEXT]?: RequestState };
  const known = holder[CONTEXT];
  if (known?.graph === graph && known.limits === limits && known.budget === budget) return known;
  return holder[CONTEXT] = new Context(em, graph, limits, budget, known);
}
