/**
 * The hand-off between field collection and the edge resolvers: `loadCollected` (`load_collected.ts`) stores
 * what it loaded for each parent under the root field's response key ({@linkcode rootScope}) and
 * the edge's load key ({@linkcode edgeKey}, also the key field collection (`plan/field_collection.ts`) merges edge plans by);
 * `resolveEdge` (`resolve/edge_fields.ts`) looks the value up with the same two keys. A managed
 * entity (one object per row) can be a parent at two levels of one root field with the same edge
 * key and two selections (a customer's `referrals`, and the same customer's under `friends`):
 * each load is kept with its selection (the edge plan, with its nodes' plans to every depth),
 * and the resolver takes one whose selection covers its own, below it too. One reached
 * both at a level field collection planned and at one it did not (an interface's rows: a payment,
 * and the same payment under `order { payments }`) has nothing looked up. Records are new objects
 * per level and never collide.
 *
 * The store is the request's own ({@linkcode LoadedEdges}, on its `RequestState`), not a
 * process-wide `WeakMap` keyed by parent: V8's scavenger treats a `WeakMap`'s values as strong
 * while it runs, so every value stored since the last scavenge (connections, and through them
 * every node below) survived it, whatever request it belonged to (a micro benchmark of 100 keys
 * with 10 objects each per round: 123 ms of scavenges against 5 with a map per round). On Q1 the
 * request's own map cost 4% less server CPU (`bench:ab`, 10 simultaneous pairs).
 *
 * @module
 */
import type { GraphQLResolveInfo } from "graphql";

/**
 * One load of an edge for a parent, under a root field's scope: the value and the edge plan it
 * was read for. A parent's loads form a chain (most parents have one: no map, array or key text
 * is made per parent, which a 1,110-node answer would otherwise pay 110 times). A load whose
 * `key` is {@linkcode UNPLANNED} marks the parent as reached at a level field collection did not
 * plan.
 */
interface Load {
  readonly scope: string;
  readonly key: string;
  value: unknown;
  readonly plan: object | undefined;
  readonly next: Load | undefined;
}

/** The key of the load that marks a parent as reached unplanned under a scope. */
const UNPLANNED = "";

/**
 * The load key of an edge with arguments: the edge name and its arguments as canonical JSON
 * (object keys sorted, `undefined` members left out), so `a: posts(first: 1)` and
 * `b: posts(last: 2)` side by side are two loads and equal arguments are one.
 */
export function edgeKey(edgeName: string, args: Record<string, unknown>): string {
  return `${edgeName}:${canonical(args)}`;
}

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value !== null && typeof value === "object" && !(value instanceof Date)) {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(",")}}`;
  }
  return JSON.stringify(value ?? null);
}

/** The response key of the root field a resolver runs under: the scope of its loads. */
export function rootScope(path: GraphQLResolveInfo["path"]): string {
  let root = path;
  while (root.prev) root = root.prev;
  return String(root.key);
}

/**
 * What field collection loaded during one request, per parent: its edges' values and the pages
 * read ahead with it (see the module documentation).
 */
export class LoadedEdges {
  /** Parent node -> its loads, the latest first. */
  readonly #loads = new Map<object, Load>();
  /** Parent node -> edge plan -> a page read with the parent's own statement. */
  readonly #pages = new Map<object, Map<object, unknown>>();

  /**
   * Keeps `value` as what was loaded for `parent`'s edge `key` under `scope`, for the selection
   * `plan` (the edge plan): a managed entity reached at two levels with two selections keeps
   * both.
   */
  store(parent: object, scope: string, key: string, value: unknown, plan: object): void {
    const first = this.#loads.get(parent);
    for (let load = first; load; load = load.next) {
      if (load.plan === plan && load.key === key && load.scope === scope) {
        load.value = value;
        return;
      }
    }
    this.#loads.set(parent, { scope, key, value, plan, next: first });
  }

  /**
   * Marks `parent` as reached under `scope` at a level whose edges field collection did not plan
   * (rows of an interface, whose classes' edges resolve on their own): a value stored for it at
   * another level was loaded for another selection, so none is looked up for it.
   */
  markUnplanned(parent: object, scope: string): void {
    const first = this.#loads.get(parent);
    this.#loads.set(parent, { scope, key: UNPLANNED, value: true, plan: undefined, next: first });
  }

  /**
   * The value stored for `parent`'s edge `key` under `scope`, if any: the one load, or, when the
   * parent was loaded at several levels with several selections, the load whose plan `mine`
   * picks (the resolver's own selection).
   *
   * @param mine picks, among the plans of the loads, the index of the resolver's own (or -1)
   * @returns `{ value }` when loaded (the value may be `null`), `undefined` when not, when no
   *   load matches, or when `parent` was also reached at a level field collection did not plan
   */
  find(
    parent: object,
    scope: string,
    key: string,
    mine: (plans: object[]) => number,
  ): { readonly value: unknown } | undefined {
    const first = this.#loads.get(parent);
    let found: Load | undefined;
    let several = false;
    for (let load = first; load; load = load.next) {
      if (load.scope !== scope) continue;
      if (load.key === UNPLANNED) return undefined;
      if (load.key !== key) continue;
      if (found) several = true;
      found = load;
    }
    if (!several) return found;
    // In the order they were stored (the chain holds the latest first).
    const loads: Load[] = [];
    for (let load = first; load; load = load.next) {
      if (load.scope === scope && load.key === key) loads.unshift(load);
    }
    const index = mine(loads.map((l) => l.plan!));
    return index >= 0 ? loads[index] : undefined;
  }

  /** Keeps `page`, read ahead for `parent`'s edge plan `plan`, for {@linkcode prefetched}. */
  prefetch(parent: object, plan: object, page: unknown): void {
    let pages = this.#pages.get(parent);
    if (!pages) this.#pages.set(parent, pages = new Map());
    pages.set(plan, page);
  }

  /** The page {@linkcode prefetch} kept for `parent`'s edge plan `plan`, if any. */
  prefetched(parent: object, plan: object): unknown {
    return this.#pages.get(parent)?.get(plan);
  }
}
