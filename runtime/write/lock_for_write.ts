/**
 * Loading the node an update or delete names, locked for the write.
 *
 * @module
 */
import { type EntityManager, LockMode } from "@mikro-orm/core";
import type { Graph, NodeType } from "../graph.ts";
import { decodeGlobalId } from "../plan/global_id.ts";
import { keyFilter } from "../keys.ts";
import { dialectOf } from "../dialect.ts";
import { notFound } from "../error_codes.ts";
import { keyFits } from "../column_values.ts";

/**
 * Loads the node of `type` with global id `id` for a write, locked `FOR UPDATE` when `em` is in a
 * transaction (SQLite serializes writers by itself), always from the database and through the
 * read rules (an entity the identity map already holds would be returned as it is, without the
 * filters): a row the request may not read is not found, as a missing one.
 *
 * @returns the managed entity
 * @throws GraphQLError `NOT_FOUND` when the id is malformed, of another type, holds a key its
 *   column cannot hold or names no row
 */
export async function lockForWrite(
  em: EntityManager,
  graph: Graph,
  type: NodeType,
  id: string,
): Promise<Record<string, unknown>> {
  const decoded = decodeGlobalId(graph, id);
  // A key its column cannot hold (beyond an integer type, a malformed UUID) names no row.
  if (decoded?.type !== type || !keyFits(em, type, decoded.pk)) throw notFound(id);
  const lock = em.isInTransaction() && dialectOf(em) !== "sqlite";
  const row = await em.findOne(
    type.entity,
    keyFilter(type, decoded.pk),
    lock ? { lockMode: LockMode.PESSIMISTIC_WRITE } : { refresh: true },
  );
  if (!row) throw notFound(id);
  return row as Record<string, unknown>;
}
