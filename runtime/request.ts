/**
 * The request context: what every runtime step of one resolver call needs, built once at the
 * resolver's entry (`resolvers.ts`, `mutation.ts`) and passed down to `roots.ts`, `edges.ts`,
 * `load.ts` and `collect.ts` instead of `(em, graph, limits)` by position.
 *
 * @module
 */
import type { ConnectionType, EntityManager } from "@mikro-orm/core";
import type { CollectLimits, CollectOptions } from "./collect.ts";
import type { Graph } from "./graph.ts";
import { readConnection } from "./read_from.ts";

/** The context of one resolver call. */
export interface RequestContext extends CollectOptions {
  /** The request's EntityManager (`fromContext`: the transaction's inside a mutation). */
  readonly em: EntityManager;
  /** The graph with the schema's runtime hooks attached (`withHooks`). */
  readonly graph: Graph;
  /** Page-size and depth limits (the schema's options object: plans are cached per object). */
  readonly limits: CollectLimits;
  /** The MikroORM option sending a read to the request's read connection (`read_from.ts`). */
  readonly read: { readonly connectionType: ConnectionType };
}

/** The context of a resolver call on `em` (already marked by `fromContext`). */
export function requestContext(
  em: EntityManager,
  graph: Graph,
  limits: CollectLimits = {},
): RequestContext {
  return { em, graph, limits, read: { connectionType: readConnection(em) } };
}
