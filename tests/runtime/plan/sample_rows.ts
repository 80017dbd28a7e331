/**
 * Sample rows for the keyset tests of `runtime/plan/`: the blog's posts and the todo example's
 * todos and categories, with few distinct values (ties) and nulls, and their order written out
 * from the rule the order terms implement.
 *
 * @module
 */
import type { NodeType } from "../../../runtime/graph.ts";
import type { OrderInput } from "../../../runtime/plan/order_terms.ts";
import type { Row } from "../../support/memory_rows.ts";

/** A fixed linear congruential sequence: the same rows on every run. */
function random(seed: number): () => number {
  return () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
}

/** 40 posts with few distinct values (ties) and null publication dates. */
export function posts(): Row[] {
  const rand = random(11);
  return Array.from({ length: 40 }, (_, i) => ({
    id: i + 1,
    title: ["a", "b", "c"][Math.floor(rand() * 3)],
    views: Math.floor(rand() * 4),
    publishedAt: rand() < 0.3 ? null : new Date(Date.UTC(2026, 0, 1 + Math.floor(rand() * 5))),
  }));
}

/** 40 todos, for MultiOrder() lists. */
export function todos(): Row[] {
  const rand = random(12);
  return Array.from({ length: 40 }, (_, i) => ({
    id: i + 1,
    text: ["x", "y"][Math.floor(rand() * 2)],
    status: ["IN_PROGRESS", "COMPLETED"][Math.floor(rand() * 2)],
    priority: Math.floor(rand() * 3),
    createdAt: new Date(Date.UTC(2026, 0, 1 + Math.floor(rand() * 3))),
  }));
}

/** 40 categories, with a nullable bigint `count`, for MultiOrder() lists. */
export function categories(): Row[] {
  const rand = random(13);
  return Array.from({ length: 40 }, (_, i) => ({
    id: i + 1,
    text: ["p", "q"][Math.floor(rand() * 2)],
    status: ["ENABLED", "DISABLED"][Math.floor(rand() * 2)],
    count: rand() < 0.4 ? null : BigInt(Math.floor(rand() * 3)) * 10n ** 18n,
  }));
}

/**
 * The rule, written out: compare the rows by each `orderBy` term in turn (a null before any
 * value, that order turned around for DESC), then by the id in `idDirection`.
 */
export function ruleOrder(
  type: NodeType,
  rows: readonly Row[],
  orderBy: OrderInput | OrderInput[] | null,
  idDirection: "ASC" | "DESC",
): Row[] {
  const inputs = orderBy == null ? [] : [orderBy].flat();
  const value = (row: Row, path: string) => {
    const v = row[path];
    // the sample bigints are multiples of 10^18: divided by 10^15 they stay exact and distinct
    return v instanceof Date ? v.getTime() : typeof v === "bigint" ? Number(v / 10n ** 15n) : v;
  };
  return [...rows].sort((a, b) => {
    for (const input of inputs) {
      const path = type.orderFields[input.field].prop;
      const x = value(a, path) as number | string | null, y = value(b, path) as typeof x;
      const c = x === y ? 0 : x === null ? -1 : y === null ? 1 : x < y ? -1 : 1;
      if (c !== 0) return input.direction === "DESC" ? -c : c;
    }
    const c = (a.id as number) - (b.id as number);
    return idDirection === "DESC" ? -c : c;
  });
}
