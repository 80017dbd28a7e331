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
 * Gives `ctx` an enumerable `em` property whose first read calls `fork()` (then returns the same
 * EntityManager); assigning it replaces the fork.
 */
export function defineLazyEntityManager(ctx: object, fork: () => EntityManager): void {
  const lazy: LazyFork = { fork, em: undefined, onFork: undefined };
  Object.defineProperty(ctx, "em", {
    get(): EntityManager {
      if (lazy.em === undefined) {
        lazy.em = lazy.fork();
        const onFork = lazy.onFork;
        lazy.onFork = undefined;
        onFork?.(lazy.em);
      }
      return lazy.em;
    },
    set(em: EntityManager) {
      lazy.em = em;
    },
    enumerable: true,
    configurable: true,
  });
  (ctx as { [LAZY]?: LazyFork })[LAZY] = lazy;
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
