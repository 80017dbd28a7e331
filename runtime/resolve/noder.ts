/**
 * Node resolution: the rows behind the `node(id)` and `nodes(ids)` root fields of the Relay Global
 * Object Identification specification, entgql's `Noder`/`Noders`.
 *
 * @module
 */
import type { EntityManager } from "@mikro-orm/core";
import { notFound } from "../error_codes.ts";
import type { Graph, NodeType } from "../graph.ts";
import { decodeGlobalId, type GlobalId } from "../plan/global_id.ts";
import { keyFilter, keysFilter, primaryKeyOf } from "../keys.ts";
import { findRows } from "../read/find_rows.ts";
import { keyFits } from "../column_values.ts";
import { allSettled } from "../jsutils/all_settled.ts";

/**
 * The properties to read for rows of a node type (the collected ones), `undefined` for every
 * column as a managed entity.
 */
export type NodeFields = (type: NodeType) => string[] | undefined;

/**
 * Resolves one global id to its row (entgql `Noder`). The generated `noder(em, id)` is this
 * function on the generated graph.
 *
 * @example A global id from outside GraphQL (a webhook's payload) back to its row
 * ```ts
 * import { MikroORM } from "@mikro-orm/core";
 * import { noder } from "@mikrogql/ext";
 * import config from "./mikro-orm.config.ts";
 * import { graph } from "./generated/mod.ts";
 *
 * const orm = await MikroORM.init(config);
 * const payload = { postId: "UG9zdDox" }; // the opaque id of Post 1, as clients see it
 * const post = await noder(orm.em.fork(), graph, payload.postId); // NOT_FOUND if there is none
 * ```
 *
 * @param em the EntityManager to read with
 * @param graph the generated graph (its global id format decodes `id`)
 * @param id a global id, as `Node.id` gives it
 * @param fields the properties to read: given, the row is read with only them, as a record of
 *   the lean read path when they allow it (`findRows`); else as a managed entity
 * @throws GraphQLError `NOT_FOUND` naming the id when it is malformed or names no row
 */
export async function noder(
  em: EntityManager,
  graph: Graph,
  id: string,
  fields: NodeFields = () => undefined,
): Promise<object> {
  return await findNode(em, id, decodeGlobalId(graph, id), fields);
}

/**
 * The row of the global id `id` already decoded as `decoded` ({@linkcode noder} without the
 * decoding, for a caller that decoded the id itself).
 *
 * @throws GraphQLError `NOT_FOUND` naming the id when `decoded` is `undefined`, holds a key its
 *   column cannot hold (`keyFits` of `column_values.ts`: an integer beyond the column's type, a
 *   malformed UUID) or names no row
 */
export async function findNode(
  em: EntityManager,
  id: string,
  decoded: GlobalId | undefined,
  fields: NodeFields = () => undefined,
): Promise<object> {
  if (!decoded || !keyFits(em, decoded.type, decoded.pk)) throw notFound(id);
  const [row] = await findRows(em, decoded.type, keyFilter(decoded.type, decoded.pk), {
    fields: fields(decoded.type),
  });
  if (!row) throw notFound(id);
  return row;
}

/**
 * Resolves many global ids (entgql `Noders`): one query per node type, results in input order,
 * duplicates kept (`fields` as for {@linkcode noder}). A missing id yields an `Error` in its
 * slot, which GraphQL turns into `null` plus a `NOT_FOUND` error at that index.
 *
 * @example Many global ids in one round trip per type
 * ```ts
 * import { MikroORM } from "@mikro-orm/core";
 * import { noders } from "@mikrogql/ext";
 * import config from "./mikro-orm.config.ts";
 * import { graph } from "./generated/mod.ts";
 *
 * const orm = await MikroORM.init(config);
 * const ids = ["UG9zdDox", "VXNlcjox", "UG9zdDo5OTk"]; // Post 1, User 1, Post 999
 * const rows = await noders(orm.em.fork(), graph, ids); // one query for posts, one for users
 * const missing = ids.filter((_, i) => rows[i] instanceof Error); // ["UG9zdDo5OTk"] if absent
 * ```
 *
 * @param ids global ids, as `Node.id` gives them
 * @returns one row or `NOT_FOUND` error per id, in the order of `ids`
 */
export async function noders(
  em: EntityManager,
  graph: Graph,
  ids: readonly string[],
  fields: NodeFields = () => undefined,
): Promise<(object | Error)[]> {
  return await findNodes(em, ids, ids.map((id) => decodeGlobalId(graph, id)), fields);
}

/**
 * The rows of the global ids `ids` already decoded as `decoded` ({@linkcode noders} without the
 * decoding): one query per node type, `missing(id)` in the slot of an id naming no row (or a key
 * its column cannot hold, which no row has): by default its `NOT_FOUND` error.
 */
export async function findNodes<Missing extends Error | null = Error>(
  em: EntityManager,
  ids: readonly string[],
  decoded: readonly (GlobalId | undefined)[],
  fields: NodeFields = () => undefined,
  missing: (id: string) => Missing = notFound as (id: string) => Missing,
): Promise<(object | Missing)[]> {
  const byType = new Map<NodeType, Set<string | number>>();
  for (const d of decoded) {
    if (d && keyFits(em, d.type, d.pk)) {
      byType.set(d.type, (byType.get(d.type) ?? new Set()).add(d.pk));
    }
  }
  const found = new Map<string, object>();
  await allSettled([...byType].map(async ([type, pks]) => {
    const rows = await findRows(em, type, keysFilter(type, [...pks]), {
      fields: fields(type),
    });
    for (const row of rows) {
      found.set(
        `${type.name}:${String(primaryKeyOf(type, row))}`,
        row,
      );
    }
  }));
  return ids.map((id, i) => {
    const d = decoded[i];
    return (d && found.get(`${d.type.name}:${String(d.pk)}`)) ?? missing(id);
  });
}
