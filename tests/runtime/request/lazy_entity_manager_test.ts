/**
 * `defineLazyEntityManager` and `whenForked` without a database: the fork made once, on the first
 * read of `ctx.em`, never by defining it or by `whenForked`; an assignment replacing it; the
 * registered callback called once with the fork, not after it was unregistered, and not asked
 * for a context whose fork was made or that has no lazy fork; two contexts sharing one fork.
 */
import { assertEquals, assertStrictEquals } from "@std/assert";
import type { EntityManager } from "@mikro-orm/core";
import {
  defineLazyEntityManager,
  whenForked,
} from "../../../runtime/request/lazy_entity_manager.ts";

/** A stand-in fork maker counting its calls. */
function forks(): { fork: () => EntityManager; made: EntityManager[] } {
  const made: EntityManager[] = [];
  return {
    made,
    fork: () => {
      const em = { id: made.length } as unknown as EntityManager;
      made.push(em);
      return em;
    },
  };
}

Deno.test("the fork is made on the first read of ctx.em, once", () => {
  const { fork, made } = forks();
  const ctx: { em?: EntityManager } = {};
  defineLazyEntityManager(ctx, fork);
  assertEquals(made.length, 0);
  assertEquals(Object.keys(ctx), ["em"]);
  const em = ctx.em;
  assertEquals(made.length, 1);
  assertStrictEquals(ctx.em, em);
  assertEquals(made.length, 1);
});

Deno.test("assigning ctx.em replaces the fork, made or not", () => {
  const { fork, made } = forks();
  const ctx: { em?: EntityManager } = {};
  defineLazyEntityManager(ctx, fork);
  const own = { own: true } as unknown as EntityManager;
  Object.assign(ctx, { em: own });
  assertStrictEquals(ctx.em, own);
  assertEquals(made.length, 0);
});

Deno.test("whenForked: called once with the fork when it is made, not after unregistering", () => {
  const { fork, made } = forks();
  const ctx: { em?: EntityManager } = {};
  defineLazyEntityManager(ctx, fork);
  const seen: EntityManager[] = [];
  const unregister = whenForked(ctx, (em) => seen.push(em));
  assertEquals(typeof unregister, "function");
  assertEquals(made.length, 0);
  const em = ctx.em!;
  assertEquals(seen, [em]);
  ctx.em;
  assertEquals(seen.length, 1);
  // Made already: nothing to wait for.
  assertEquals(whenForked(ctx, () => seen.push(em)), undefined);

  const other: { em?: EntityManager } = {};
  defineLazyEntityManager(other, fork);
  const stop = whenForked(other, (em) => seen.push(em))!;
  stop();
  other.em;
  assertEquals(seen.length, 1);
  assertEquals(made.length, 2);
});

Deno.test("whenForked: undefined for a context without a lazy fork", () => {
  assertEquals(whenForked({ em: {} }, () => {}), undefined);
  assertEquals(whenForked({}, () => {}), undefined);
});

Deno.test("contexts sharing one lazy fork fork once, whichever is read first", () => {
  const { fork, made } = forks();
  const a: { em?: EntityManager } = {};
  const b: { em?: EntityManager } = {};
  const c: { em?: EntityManager } = {};
  defineLazyEntityManager(a, fork);
  defineLazyEntityManager(b, fork, a);
  defineLazyEntityManager(c, fork);
  const em = b.em;
  assertStrictEquals(a.em, em);
  assertEquals(made.length, 1);
  // Another context's fork is its own.
  const other = c.em;
  assertEquals(made.length, 2);
  assertEquals(other === em, false);
  // An assignment through either replaces the shared fork.
  const replaced = { id: "replaced" } as unknown as EntityManager;
  a.em = replaced;
  assertStrictEquals(b.em, replaced);
  assertStrictEquals(c.em, other);
});
