/**
 * Flushing a write, its database faults turned into the client's errors (`write_faults.ts`).
 *
 * @module
 */
import type { EntityManager } from "@mikro-orm/core";
import type { NodeType } from "../graph.ts";
import { writeFault } from "./write_faults.ts";

/**
 * Flushes `em`'s unit of work for a `mode` write of a `type` node.
 *
 * @throws GraphQLError `BAD_USER_INPUT` for a unique, foreign-key or other constraint violation,
 *   or a value the database refuses; `FORBIDDEN` for a row PostgreSQL's row-level security
 *   refuses; any other error as it is
 */
export async function flushWrite(
  em: EntityManager,
  type: NodeType,
  mode: "create" | "update" | "delete",
): Promise<void> {
  try {
    await em.flush();
  } catch (error) {
    throw writeFault(error, type.name, mode) ?? error;
  }
}
