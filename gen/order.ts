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
import type { Diagnostics } from "./diagnostics.ts";
import type { ModelOrderField, ModelType } from "./model.ts";

/** An `OrderField` annotation found on an edge, waiting for the target's order fields. */
export interface PendingEdgeOrder {
  /** The type the edge belongs to. */
  type: ModelType;
  /** The edge's entity property. */
  prop: string;
  /** GraphQL type of the target node. */
  target: string;
  /** `m:1`/`1:1`: order by a field of the target; otherwise by the number of related rows. */
  unique: boolean;
  /** The target can be missing. */
  nullable: boolean;
  /** The annotation's enum value name. */
  name: string;
}

/**
 * Adds the order field of `edge` to its type.
 *
 * @param diagnostics records the problem (naming the entity file and property) and abandons the
 *   order field when its name does not follow the convention, names an order field the target
 *   lacks, or repeats a name of the type
 */
export function addEdgeOrderField(
  types: ModelType[],
  edge: PendingEdgeOrder,
  diagnostics: Diagnostics,
): void {
  const fail = (message: string) =>
    diagnostics.fail({
      file: edge.type.file,
      entity: edge.type.meta.className,
      prop: edge.prop,
      message,
    });
  const prefix = edgeOrderFieldPrefix(edge.prop);
  const suffix = edge.name.startsWith(prefix) ? edge.name.slice(prefix.length) : undefined;
  let field: ModelOrderField;
  if (!edge.unique) {
    if (suffix !== "COUNT") {
      fail(`OrderField "${edge.name}" on a non-unique edge must be named "${prefix}COUNT"`);
    }
    field = { prop: edge.prop, kind: "int", count: true, name: edge.name };
  } else {
    const target = types.find((t) => t.name === edge.target)!;
    const of = target.orderFields.find((o) => o.name === suffix && !o.count && !o.field);
    if (!of) {
      return fail(
        `OrderField "${edge.name}" on a unique edge must be "${prefix}<FIELD>" with <FIELD> one of ${edge.target}'s field order fields (${
          target.orderFields.filter((o) => !o.count && !o.field).map((o) => o.name).join(", ") ||
          "none"
        })`,
      );
    }
    // The keys of `OrderFieldDescription` first, in the order the generated tables print them.
    field = {
      prop: edge.prop,
      kind: of.kind,
      nullable: edge.nullable || of.nullable || undefined,
      field: of.prop,
      name: edge.name,
    };
  }
  if (edge.type.orderFields.some((o) => o.name === edge.name)) {
    fail(`OrderField "${edge.name}" is used twice on ${edge.type.name}`);
  }
  edge.type.orderFields.push(field);
}
