/**
 * Edge order fields (entgql's `OrderField` on an edge), decided once every type's own order
 * fields are known:
 *
 * - on a non-unique edge, `UPPER(<edge>)_COUNT` orders by the number of related rows;
 * - on a unique edge, `UPPER(<edge>)_<FIELD>` orders by the target's order field `<FIELD>`.
 *
 * @module
 */
import { edgeOrderFieldPrefix } from "../runtime/names.ts";
import type { GraphOrderField, GraphType } from "./graph.ts";

/** An `OrderField` annotation found on an edge, waiting for the target's order fields. */
export interface PendingEdgeOrder {
  type: GraphType;
  /** The edge's entity property. */
  prop: string;
  /** GraphQL type of the target node. */
  target: string;
  unique: boolean;
  nullable: boolean;
  /** The annotation's enum value name. */
  name: string;
  /** Raises the GenerateError naming the entity file and property. */
  fail: (prop: string, message: string) => never;
}

/**
 * Adds the order fields of `pending` to their types.
 *
 * @throws GenerateError (through `fail`) when the name does not follow the convention, names an
 *   order field the target lacks, or repeats a name of the type
 */
export function addEdgeOrderFields(types: GraphType[], pending: PendingEdgeOrder[]): void {
  for (const edge of pending) {
    const prefix = edgeOrderFieldPrefix(edge.prop);
    const suffix = edge.name.startsWith(prefix) ? edge.name.slice(prefix.length) : undefined;
    let field: GraphOrderField;
    if (!edge.unique) {
      if (suffix !== "COUNT") {
        edge.fail(
          edge.prop,
          `OrderField "${edge.name}" on a non-unique edge must be named "${prefix}COUNT"`,
        );
      }
      field = { name: edge.name, prop: edge.prop, kind: "int", count: true };
    } else {
      const target = types.find((t) => t.name === edge.target)!;
      const of = target.orderFields.find((o) => o.name === suffix && !o.count && !o.field);
      if (!of) {
        edge.fail(
          edge.prop,
          `OrderField "${edge.name}" on a unique edge must be "${prefix}<FIELD>" with <FIELD> one of ${edge.target}'s field order fields (${
            target.orderFields.filter((o) => !o.count && !o.field).map((o) => o.name).join(", ") ||
            "none"
          })`,
        );
      }
      field = {
        name: edge.name,
        prop: edge.prop,
        kind: of.kind,
        field: of.prop,
        nullable: edge.nullable || of.nullable || undefined,
      };
    }
    if (edge.type.orderFields.some((o) => o.name === edge.name)) {
      edge.fail(edge.prop, `OrderField "${edge.name}" is used twice on ${edge.type.name}`);
    }
    edge.type.orderFields.push(field);
  }
}
