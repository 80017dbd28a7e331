/**
 * A collection's declared order (MikroORM `orderBy` on a `1:m` or `m:n` property,
 * `@OneToMany({ orderBy: { quantity: "desc" } })`) as the edge's `order` table entry: the order of
 * the list edge, and of the connection when no `orderBy` argument is given, the key ascending
 * after it (as entgql's default order is the key). What cannot be a keyset order (a nested
 * relation path, a JSON or list column, a raw expression) leaves the edge in key order, with a
 * warning.
 *
 * @module
 */
import type { EntityProperty } from "@mikro-orm/core";
import type { EdgeOrderTerm } from "../runtime/graph.ts";
import type { DiagnosticInput, Diagnostics } from "./diagnostics.ts";
import { COMPARABLE_KINDS, scalarShape } from "./fields.ts";

/**
 * The declared order of the collection property `prop`, or `undefined` when it declares none or
 * one that cannot be used (warned at `site`).
 */
export function declaredOrder(
  prop: EntityProperty,
  diagnostics: Diagnostics,
  site: Omit<DiagnosticInput, "message">,
): EdgeOrderTerm[] | undefined {
  const declared = [prop.orderBy ?? []].flat() as Record<string, unknown>[];
  const entries = declared.flatMap((o) => Object.entries(o ?? {}));
  if (entries.length === 0) return undefined;
  const target = prop.targetMeta;
  const terms: EdgeOrderTerm[] = [];
  for (const [name, value] of entries) {
    const column = target?.properties[name];
    const shape = column?.kind === "scalar" && column.persist !== false
      ? scalarShape(column)
      : undefined;
    const direction = directionOf(value);
    if (!column || !shape || shape.list || !COMPARABLE_KINDS.has(shape.kind) || !direction) {
      diagnostics.warn({
        ...site,
        message: `declared orderBy ignored (edge ordered by key): "${name}: ${
          JSON.stringify(value)
        }" is not a comparable stored column of ${prop.type} with a direction`,
      });
      return undefined;
    }
    if (terms.some((t) => t.prop === name)) continue;
    terms.push({
      prop: name,
      kind: shape.kind,
      direction,
      ...(column.nullable ? { nullable: true } : {}),
    });
  }
  return terms;
}

/** `ASC`/`DESC` of a MikroORM order value (`"asc"`, `"DESC NULLS LAST"`, `1`, `-1`). */
function directionOf(value: unknown): "ASC" | "DESC" | undefined {
  if (value === 1) return "ASC";
  if (value === -1) return "DESC";
  if (typeof value !== "string") return undefined;
  const word = value.trim().split(/\s+/)[0].toUpperCase();
  return word === "ASC" || word === "DESC" ? word : undefined;
}
