/**
 * A request's EntityManager forked when something first reads `ctx.em`, not for every request:
 * `serve()` gives each GraphQL context an `em` property whose getter forks the ORM's
 * EntityManager on first read. A request that reads nothing (`{ __typename }`, a refused or
 * invalid document, an operation answered from the schema alone) never pays for MikroORM's
 * `fork()` (a new `EntityManager`, `UnitOfWork`, `EntityFactory`, the filter parameters copied:
 * some 8–11% of the CPU of such a request). Writing `ctx.em` (a user's context function returning
 * its own `em`, the `Deadline` plugin replacing it) replaces the fork as a plain property would.
 *
 * The `Deadline` plugin binds the request's EntityManager to its time budget while the operation
 * executes: when the fork has not happened yet, it asks to be called when it does
 * ({@linkcode whenForked}) instead of forking for nothing.
 *
 * @module
 */
import type { EntityManager } from "@mikro-orm/core";

/** Where a context keeps its lazy fork. */
const LAZY = Symbol.for("mikrogql.lazyEntityManager");

/** One context's fork, made on first read. */
interface LazyFork {
  readonly fork: () => EntityManager;
  em: EntityManager | undefined;
  /** Called with the fork when it is made (the `Deadline` plugin's binding), once. */
  onFork: ((em: EntityManager) => void) | undefined;
}

/**
 * The `em` property of every lazy context: one getter and one setter for all of them, which find
 * the context's fork through `this` (see {@linkcode defineLazyEntityManager}).
 */
const LAZY_EM: PropertyDescriptor = Object.freeze({
  get(this: { [LAZY]: LazyFork }): EntityManager {
    const lazy = this[LAZY];
    if (lazy.em === undefined) {
      lazy.em = lazy.fork();
      const onFork = lazy.onFork;
      lazy.onFork = undefined;
      onFork?.(lazy.em);
    }
    return lazy.em;
  },
  set(this: { [LAZY]: LazyFork }, em: EntityManager) {
    this[LAZY].em = em;
  },
  enumerable: true,
  configurable: true,
});

/**
 * Gives `ctx` an enumerable `em` property whose first read calls `fork()` (then returns the same
 * EntityManager); assigning it replaces the fork.
 *
 * The accessor is the same pair of functions for every context, the fork found through `this`. A
 * getter made per request (a closure over its fork) gave every context a hidden class of its own:
 * a new map and accessor pair per request, made on V8's slow path, with the request's fork (and
 * what it read) reachable from it. With the
 * shared pair, `serve()` spends 8% less server CPU on Q1 and 7% less on Q5 (`deno task bench:ab`,
 * 10 simultaneous pairs), and Yoga with this context alone scavenges in 3.1 ms instead of 5.5–7.2
 * (`--v8-flags=--trace-gc`, Q1 at one connection).
 *
 * @param shared a context whose lazy fork `ctx` shares (a copy of it handed to a user's context
 *   function): reading `em` on either forks once
 */
export function defineLazyEntityManager(
  ctx: object,
  fork: () => EntityManager,
  shared?: object,
): void {
  (ctx as { [LAZY]?: LazyFork })[LAZY] = (shared as { [LAZY]?: LazyFork } | undefined)?.[LAZY] ??
    { fork, em: undefined, onFork: undefined };
  Object.defineProperty(ctx, "em", LAZY_EM);
}

/**
 * When `ctx.em` is a lazy fork not made yet: registers `onFork` to be called with it when it is
 * made (replacing any registered before) and returns a function that unregisters it. Otherwise
 * returns `undefined` (read `ctx.em` as usual).
 */
export function whenForked(
  ctx: object,
  onFork: (em: EntityManager) => void,
): (() => void) | undefined {
  const lazy = (ctx as { [LAZY]?: LazyFork })[LAZY];
  if (lazy === undefined || lazy.em !== undefined) return undefined;
  lazy.onFork = onFork;
  return () => {
    if (lazy.onFork === onFork) lazy.onFork = undefined;
  };
}
