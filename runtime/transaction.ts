/**
 * The request's EntityManager in the GraphQL context (`fromContext`), and the Transactioner.
 *
 * @module
 */
import type { EntityManager } from "@mikro-orm/core";

/** Where the Transactioner keeps the EntityManager bound to the open transaction. */
const TX = Symbol.for("mikrogql.tx");

/** The part of a GraphQL context that mikrogql reads. */
export interface MikroContext {
  /** The request's EntityManager (a fork per request: `context: () => ({ em: orm.em.fork() })`). */
  em?: EntityManager;
  [TX]?: EntityManager;
}

/**
 * Returns the EntityManager resolvers must use: the one bound to the operation's transaction when
 * the Transactioner opened one (spec rule 7, entgql `FromContext`), else the request's `em`.
 *
 * @throws Error when the context holds no EntityManager
 */
export function fromContext(ctx: MikroContext): EntityManager {
  const em = ctx[TX] ?? ctx.em;
  if (!em) {
    throw new Error(
      "no EntityManager in the GraphQL context: pass `context: () => ({ em: orm.em.fork() })` to createYoga",
    );
  }
  return em;
}
