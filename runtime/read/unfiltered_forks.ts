/**
 * Whether any MikroORM filter may apply to a read of an EntityManager, known per request in O(1)
 * instead of by applying every entity's filters (O(entities) per request EntityManager).
 *
 * Filters come from three places: the ORM's configuration and the entities' metadata (fixed per
 * ORM: checked once per metadata), and `em.addFilter` (kept privately by each EntityManager;
 * `fork()` copies its parent's). Only applying them shows the last: the first EntityManager of an
 * ORM (typically `orm.em`) is checked by `em.applyFilters` for every entity, once. Its forks
 * inherit that answer: `fork` and `addFilter` are wrapped (once per EntityManager class, from the
 * first check on) so that a fork remembers the EntityManager whose filters it copied, and
 * `addFilter` marks its EntityManager as filtered. An EntityManager made before the wrapping, or
 * forked from one that had filters added, gets the full check: an answer is never inherited from
 * an EntityManager the wrapping did not see.
 *
 * @module
 */
import type { EntityManager } from "@mikro-orm/core";

/** Answers per EntityManager (a request's fork lives for the request). */
const answers = new WeakMap<EntityManager, Promise<boolean>>();
/** The EntityManager whose filters a fork copied (forks made since the wrapping only). */
const parents = new WeakMap<EntityManager, EntityManager>();
/** EntityManagers `addFilter` was called on (since the wrapping). */
const added = new WeakSet<EntityManager>();
/** Whether the configuration or an entity declares a filter, per metadata (per ORM). */
const declared = new WeakMap<object, boolean>();
/** Prototypes whose `fork` and `addFilter` are wrapped. */
const wrapped = new WeakSet<object>();

/**
 * Whether no MikroORM filter is active on `em` for any entity (reads with `{}` options, as the
 * statement cache's reads apply them): the ORM's filters, the entities' and `em.addFilter`'s.
 *
 * @returns `false` when a filter may apply (or checking one threw)
 */
export function noFilters(em: EntityManager): Promise<boolean> {
  let known = answers.get(em);
  if (!known) {
    wrapForks(em);
    const parent = parents.get(em);
    known = declaresFilters(em)
      ? Promise.resolve(false)
      : parent && !added.has(em)
      ? noFilters(parent)
      : appliesNone(em);
    answers.set(em, known);
  }
  return known;
}

/** The configuration's or an entity's (or a relation's) filters, checked once per metadata. */
function declaresFilters(em: EntityManager): boolean {
  const metadata = em.getMetadata();
  let known = declared.get(metadata);
  if (known === undefined) {
    known = Object.keys(em.config.get("filters") ?? {}).length > 0 ||
      [...metadata.getAll().values()].some((meta) =>
        Object.keys(meta.filters ?? {}).length > 0 ||
        meta.relations.some((prop) => prop.filters !== undefined)
      );
    declared.set(metadata, known);
  }
  return known;
}

/** Applies every entity's filters on `em` (only this shows `em.addFilter`'s). */
async function appliesNone(em: EntityManager): Promise<boolean> {
  const metas = [...em.getMetadata().getAll().values()]
    .filter((meta) => !meta.embeddable && !meta.virtual);
  try {
    for (const meta of metas) {
      const where = await em.applyFilters(meta.class as never, {}, {}, "read");
      if (where && Reflect.ownKeys(where as object).length > 0) return false;
    }
  } catch {
    return false;
  }
  return true;
}

/** Wraps `fork` and `addFilter` of `em`'s class (once per prototype). */
function wrapForks(em: EntityManager): void {
  const prototype = Object.getPrototypeOf(em) as {
    fork: EntityManager["fork"];
    addFilter: EntityManager["addFilter"];
  };
  if (wrapped.has(prototype)) return;
  wrapped.add(prototype);
  const { fork, addFilter } = prototype;
  prototype.fork = function (this: EntityManager, options) {
    const child = fork.call(this, options);
    // `fork` copies the filters of the context EntityManager, or of `this` without resolution.
    parents.set(child, options?.disableContextResolution ? this : this.getContext(false));
    return child;
  };
  prototype.addFilter = function (this: EntityManager, options) {
    const target = this.getContext(false);
    added.add(target);
    answers.delete(target);
    return addFilter.call(this, options as never);
  } as EntityManager["addFilter"];
}
