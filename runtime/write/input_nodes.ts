/**
 * The nodes a mutation input's global ids name (`<edge>ID`, `<singular>IDs`,
 * `add<Singular>IDs`, `remove<Singular>IDs`): decoded, checked against the edge's target type and
 * loaded, one query per target type, through the EntityManager's MikroORM filters (what the
 * request may read).
 *
 * @module
 */
import type { EntityManager } from "@mikro-orm/core";
import { ErrorCode, gqlError, quoteInput } from "../error_codes.ts";
import type { Graph, NodeType } from "../graph.ts";
import { decodeGlobalId, isOfType } from "../plan/global_id.ts";
import { keysFilter, primaryKeyOf } from "../keys.ts";
import type { InputField } from "./input_fields.ts";
import { keyFits } from "../column_values.ts";

/**
 * Decodes and loads the global ids of the edge fields among `fields` (a `clear<Edge>` names
 * none), one query per target type, through the EntityManager's filters.
 *
 * @returns input field name -> the node, or the nodes in input order
 * @throws GraphQLError `BAD_USER_INPUT` naming the field (and index) of a malformed id or an id
 *   of another type than the edge's target; `NOT_FOUND` naming it for an id of no row the
 *   request may read (or a key its column cannot hold: beyond an integer type, a malformed UUID) (a row the request may not read is not found, as a missing one: same code
 *   and text)
 */
export async function inputNodes(
  em: EntityManager,
  graph: Graph,
  fields: InputField[],
): Promise<Map<string, object | object[]>> {
  const wanted = new Map<NodeType, Map<string, string | number>>();
  const edges = fields.filter((f) => f.field.kind !== "field" && f.field.op !== "clear");
  const refs = edges.map(({ name, field, value }) => {
    const target = graph.types[field.target!];
    const ids = Array.isArray(value) ? value as string[] : [value as string];
    const pks = ids.map((id, i) => {
      const where = Array.isArray(value) ? `input.${name}[${i}]` : `input.${name}`;
      const decoded = decodeGlobalId(graph, id);
      if (!decoded || !isOfType(decoded.type, target.name)) {
        throw gqlError(
          ErrorCode.BAD_USER_INPUT,
          `${where}: ${quoteInput(id)} is not the global id of a ${target.name}`,
        );
      }
      // A key its column cannot hold (beyond an integer type, a malformed UUID) names no row.
      if (!keyFits(em, decoded.type, decoded.pk)) return { where, id, key: undefined };
      const byPk = wanted.get(target) ?? new Map();
      wanted.set(target, byPk.set(String(decoded.pk), decoded.pk));
      return { where, id, key: String(decoded.pk) };
    });
    return { name, target, many: Array.isArray(value), pks };
  });
  const found = new Map<NodeType, Map<string, object>>();
  for (const [target, pks] of wanted) {
    const rows = await em.find(target.entity, keysFilter(target, [...pks.values()]));
    found.set(target, new Map(rows.map((r) => [String(primaryKeyOf(target, r)), r])));
  }
  const nodes = new Map<string, object | object[]>();
  for (const { name, target, many, pks } of refs) {
    const rows = pks.map(({ where, id, key }) => {
      const row = key === undefined ? undefined : found.get(target)?.get(key);
      if (!row) {
        throw gqlError(
          ErrorCode.NOT_FOUND,
          `${where}: no ${target.name} has the global id ${quoteInput(id)}`,
        );
      }
      return row;
    });
    nodes.set(name, many ? rows : rows[0]);
  }
  return nodes;
}
