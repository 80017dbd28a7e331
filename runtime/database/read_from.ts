/**
 * Where the runtime's reads go when MikroORM has read replicas (`replicas` in its config): the
 * replica (MikroORM's `read` connection) or the primary (its `write` connection). Every read the
 * runtime sends — root pages and counts, field collection loads and grouped counts, `node`/`nodes`,
 * the raw window-function SQL — passes {@linkcode readConnectionType} of its EntityManager.
 *
 * Inside a transaction MikroORM pins every statement to the primary whatever this says, so a
 * mutation and the reads of its payload never see replica lag.
 *
 * @module
 */
import type { ConnectionType, EntityManager } from "@mikro-orm/core";

/**
 * Where reads outside a transaction go: `"replica"` (MikroORM's `read` connection, a random
 * replica; the primary when none is configured) or `"primary"` (the `write` connection).
 */
export type ReadFrom = "replica" | "primary";

const marked = new WeakMap<EntityManager, ConnectionType>();

/**
 * Makes the runtime's reads on `em` go to `readFrom` (set once per request by `fromContext`).
 *
 * @returns `em`
 */
export function readFrom(em: EntityManager, readFrom: ReadFrom): EntityManager {
  marked.set(em, readFrom === "primary" ? "write" : "read");
  return em;
}

/**
 * The MikroORM connection type for a runtime read on `em`: `"read"` unless marked primary (by
 * `ctx.readFrom`, the schema's `readFrom`, a mutation operation or read-your-writes, through
 * `fromContext`). Pass it to your own reads to route them as the generated resolvers' are.
 *
 * @example A resolver of your own reading where the generated ones read
 * ```ts
 * import { type FieldResolver, fromContext, readConnectionType } from "@mikrogql/ext";
 * import { Post } from "./entities/post.ts";
 * import { createSchema } from "./generated/mod.ts";
 *
 * // The field the SDL adds, declared so its resolver type-checks.
 * type Extra = { Query: { draftCount: FieldResolver<number, unknown> } };
 *
 * const schema = createSchema<Extra>({
 *   typeDefs: "extend type Query { draftCount: Int! }",
 *   resolvers: {
 *     Query: {
 *       draftCount: (_root, _args, ctx) => {
 *         const em = fromContext(ctx); // the replica, or the primary after the client's write
 *         return em.count(Post, { status: "draft" }, { connectionType: readConnectionType(em) });
 *       },
 *     },
 *   },
 * });
 * ```
 *
 * @returns `"read"` (a replica; the primary when none is configured) or `"write"` (the primary)
 */
export function readConnectionType(em: EntityManager): ConnectionType {
  return marked.get(em) ?? "read";
}
