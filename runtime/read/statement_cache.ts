/**
 * Statement texts planned once: a read whose inputs have the same shape (the same keys in the
 * same order, the same operators, `null`s, list lengths and value types, the same selected
 * columns and order) gets the same SQL text from MikroORM's QueryBuilder, with only the values
 * of its parameters differing. {@linkcode cachedRows} keeps that text and where each parameter
 * comes from, per ORM and shape, and runs later reads of the shape with their own values bound
 * (`bound_statement.ts`), without building a QueryBuilder.
 *
 * A shape is cached only when it is provably value-independent:
 *
 * - its inputs hold only plain objects and arrays with string keys and string or number values
 *   (`null` and `undefined` are part of the shape); a raw SQL fragment (a symbol key or a raw
 *   value), a boolean, a date or any other object keeps the read on the QueryBuilder every time;
 * - no MikroORM filter is active for the request (the ORM's and the entities' filters, and any
 *   added to the EntityManager: `unfiltered_forks.ts`, in O(1) per request fork), since a
 *   filter's condition is text and values of its own;
 * - when the shape is first read, the statement is built twice, with the request's values and
 *   with distinct stand-in values: both texts must be equal and every parameter of the second
 *   must be one stand-in, the first's parameter in that place the very value it stands for (no
 *   conversion by a custom type, nothing MikroORM added); else the shape is remembered as not
 *   cacheable.
 *
 * Planning is linear in the parameters (each stand-in found by a map lookup). The key also holds the call site's own parts (entity, columns, order, limit presence, the
 * EntityManager's schema); the cache is bounded (least recently used shapes dropped).
 *
 * @module
 */
import type { ConnectionType, EntityManager } from "@mikro-orm/core";
import { LRUCache } from "lru-cache";
import { runStatement, type Statement } from "../database/bound_statement.ts";
import { noFilters } from "./unfiltered_forks.ts";

type Row = Record<string, unknown>;

/** Where each parameter of a cached text comes from: the index of an input value. */
interface Template {
  readonly sql: string;
  readonly slots: readonly number[];
}

const NOT_CACHEABLE = Symbol("mikrogql.notCacheable");
const MAX_SHAPES = 2_000;

const caches = new WeakMap<object, LRUCache<string, Template | typeof NOT_CACHEABLE>>();

/** The values of an input in walk order, and the text of its shape. */
interface Walk {
  shape: string;
  values: (string | number)[];
}

/**
 * Rows of the read `build` makes from `inputs`, through the cached text of their shape when it
 * has one (see the module documentation), else through `build`'s QueryBuilder.
 *
 * @param site the call site and its own parts of the text (entity, columns, order, ...), as
 *   {@linkcode textKey} writes them; `undefined` when they are not plain data
 * @param inputs the values `build` takes (its where condition, its limit, ...)
 * @param build the QueryBuilder of the read for `inputs`, its condition and filters set
 */
export async function cachedRows<I>(
  em: EntityManager,
  connectionType: ConnectionType | undefined,
  site: string | undefined,
  inputs: I,
  build: (inputs: I) => Promise<{ toQuery(): Statement }>,
): Promise<Row[]> {
  return await runStatement(em, connectionType, await cachedStatement(em, site, inputs, build));
}

/**
 * The statement of the read `build` makes from `inputs` (SQL text with `?` placeholders and its
 * values), from the cached text of their shape when it has one, else from `build`'s
 * QueryBuilder: {@linkcode cachedRows} without running it, for a caller that sends it inside a
 * statement of its own (`joined_page.ts`).
 */
export async function cachedStatement<I>(
  em: EntityManager,
  site: string | undefined,
  inputs: I,
  build: (inputs: I) => Promise<{ toQuery(): Statement }>,
): Promise<Statement> {
  const walk = site === undefined ? undefined : walkInput(inputs);
  if (!walk || !(await noFilters(em))) return (await build(inputs)).toQuery();
  const cache = cacheOf(em);
  const key = `${site}\u0000${em.schema ?? ""}\u0000${walk.shape}`;
  const template = cache.get(key);
  if (template === NOT_CACHEABLE) return (await build(inputs)).toQuery();
  if (template) {
    return { sql: template.sql, params: template.slots.map((slot) => walk.values[slot]) };
  }
  const statement = (await build(inputs)).toQuery();
  cache.set(key, await plan(walk, statement, inputs, build) ?? NOT_CACHEABLE);
  return statement;
}

/** The template of `statement` (built from the walked inputs), checked against stand-ins. */
async function plan<I>(
  walk: Walk,
  statement: Statement,
  inputs: I,
  build: (inputs: I) => Promise<{ toQuery(): Statement }>,
): Promise<Template | undefined> {
  const standIns = walk.values.map((value, i) =>
    typeof value === "number" ? -7_654_321_098.5 - i : `\u0000mikrogql.value.${i}`
  );
  const other = (await build(substitute(inputs, standIns) as I)).toQuery();
  if (other.sql !== statement.sql || other.params.length !== statement.params.length) return;
  // Each stand-in is distinct: one map lookup per parameter, so planning is linear in them.
  const slotOf = new Map<unknown, number>();
  standIns.forEach((standIn, slot) => slotOf.set(standIn, slot));
  const slots: number[] = [];
  for (let j = 0; j < other.params.length; j++) {
    const slot = slotOf.get(other.params[j]);
    if (slot === undefined || !Object.is(statement.params[j], walk.values[slot])) return;
    slots.push(slot);
  }
  return { sql: statement.sql, slots };
}

/**
 * `parts` (text of a statement: names, directions, flags) as a key, or `undefined` when they hold
 * anything but plain data (a raw SQL fragment as an order key is a symbol, which JSON leaves out).
 */
export function textKey(parts: unknown): string | undefined {
  const walk = walkInput(parts);
  return walk && `${walk.shape}\u0000${JSON.stringify(walk.values)}`;
}

/** The shape and values of `input`, or `undefined` when it holds anything but plain data. */
function walkInput(input: unknown): Walk | undefined {
  const walk: Walk = { shape: "", values: [] };
  return visit(input, walk) ? walk : undefined;
}

/**
 * Adds `value` to `walk`: its shape (a key written as its length, `:` and itself, so no key can
 * pass for another's end) and its values; `false` when it holds anything but plain data.
 */
function visit(value: unknown, walk: Walk): boolean {
  if (value === null) walk.shape += "n";
  else if (value === undefined) walk.shape += "u";
  else if (typeof value === "string") (walk.shape += "s", walk.values.push(value));
  else if (typeof value === "number") (walk.shape += "d", walk.values.push(value));
  else if (Array.isArray(value)) {
    walk.shape += `[${value.length}`;
    for (const item of value) if (!visit(item, walk)) return false;
    walk.shape += "]";
  } else if (typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype) {
    if (Object.getOwnPropertySymbols(value).length > 0) return false;
    walk.shape += "{";
    for (const key of Object.keys(value)) {
      walk.shape += `${key.length}:${key}`;
      if (!visit((value as Record<string, unknown>)[key], walk)) return false;
    }
    walk.shape += "}";
  } else return false;
  return true;
}

/** `input` with its values (in walk order) replaced by `values`. */
function substitute(input: unknown, values: readonly unknown[]): unknown {
  let next = 0;
  const copy = (value: unknown): unknown => {
    if (typeof value === "string" || typeof value === "number") return values[next++];
    if (Array.isArray(value)) return value.map(copy);
    if (value !== null && typeof value === "object") {
      return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, copy(item)]));
    }
    return value;
  };
  return copy(input);
}

/** The shape cache of `em`'s ORM (its metadata, one per ORM). */
function cacheOf(em: EntityManager) {
  const owner = em.getMetadata();
  let cache = caches.get(owner);
  if (!cache) caches.set(owner, cache = new LRUCache({ max: MAX_SHAPES }));
  return cache;
}
