/**
 * Random data sets for the differential test, written through MikroORM from the entities'
 * metadata: few distinct values per column (ties), nulls in nullable columns and edges, parents
 * without children, and self-references without cycles.
 *
 * Text is lower-case ASCII so that every database orders it as JavaScript does (MariaDB's
 * default collation ignores case); dates are whole milliseconds.
 *
 * @module
 */
import type { EntityManager, EntityMetadata, EntityProperty } from "@mikro-orm/core";

/** A small deterministic PRNG (Mulberry32). */
export function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = ["a", "ab", "b", "ba", "c", "abc"];
const BASE = Date.UTC(2026, 0, 1);

function value(prop: EntityProperty, rand: () => number, i: number): unknown {
  const pick = <T>(list: readonly T[]) => list[Math.floor(rand() * list.length)];
  if (prop.nullable && rand() < 0.25) return null;
  if (prop.enum && prop.items?.length) return pick(prop.items);
  const type = String(prop.runtimeType ?? prop.type).toLowerCase();
  const unique = !!prop.unique;
  if (type === "date" || type.includes("date") || type.includes("time")) {
    return new Date(BASE + (unique ? i : Math.floor(rand() * 4)) * 1000 + pick([0, 0, 250]));
  }
  if (type === "boolean") return rand() < 0.5;
  if (type === "bigint") return BigInt(pick([1, 2, 4294967296 * 3]));
  if (type === "number" || type.includes("int") || type.includes("double")) {
    return unique
      ? i
      : prop.type === "double" || type.includes("double")
      ? pick([0.5, 1.5, 2])
      : Math.floor(rand() * 3);
  }
  if (type === "object" || type.includes("json")) return pick([{ k: 1 }, { k: "x", a: [1] }]);
  return unique ? `${pick(WORDS)}${i}` : pick(WORDS);
}

/** A value shaped like what `prop.onCreate` makes (a UUID, a prefixed ULID), from `rand`. */
function generatedKey(prop: EntityProperty, rand: () => number): string {
  const sample = String(prop.onCreate!(undefined as never, undefined as never));
  const chars = (alphabet: string, n: number) =>
    Array.from({ length: n }, () => alphabet[Math.floor(rand() * alphabet.length)]).join("");
  if (/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(sample)) {
    const hex = "0123456789abcdef";
    return `${chars(hex, 8)}-${chars(hex, 4)}-4${chars(hex, 3)}-8${chars(hex, 3)}-${
      chars(hex, 12)
    }`;
  }
  const prefix = /^[a-z]+_/.exec(sample)?.[0] ?? "";
  return prefix + chars("0123456789ABCDEFGHJKMNPQRSTVWXYZ", sample.length - prefix.length);
}

/** How many rows of each entity (by class name); default 6. */
export type Sizes = Record<string, number>;

/**
 * Writes a random data set: rows of every entity with random scalars, random (often null or
 * shared) unique edges and random owned `m:n` edges.
 *
 * @returns rows per entity class name
 */
export async function seedRandom(
  em: EntityManager,
  seed: number,
  sizes: Sizes = {},
): Promise<Map<string, object[]>> {
  const rand = random(seed);
  const metas = [...em.getMetadata().getAll().values()].filter((m) =>
    !m.pivotTable && !m.embeddable && !m.virtual && m.class
  ) as EntityMetadata[];
  const rows = new Map<string, object[]>();
  // Scalars first, for every entity.
  for (const meta of metas) {
    const list: object[] = [];
    const n = sizes[meta.className] ?? 6;
    for (let i = 0; i < n; i++) {
      const data: Record<string, unknown> = {};
      for (const prop of Object.values(meta.properties)) {
        if (prop.kind !== "scalar" || prop.persist === false) continue;
        if (prop.onCreate && prop.runtimeType !== "Date") {
          // Generated keys and UUIDs (raw ids): the same shape, drawn from the seed.
          data[prop.name] = generatedKey(prop, rand);
        } else if (!prop.primary) {
          data[prop.name] = value(prop, rand, i);
        }
      }
      list.push(em.create(meta.class, data as never));
    }
    rows.set(meta.className, list);
  }
  // Then the edges the entities own.
  for (const meta of metas) {
    const list = rows.get(meta.className)!;
    list.forEach((row, i) => {
      for (const prop of Object.values(meta.properties)) {
        const targets = rows.get(prop.targetMeta?.className ?? prop.type) ?? [];
        const r = row as Record<string, unknown>;
        if (prop.kind === "m:1" || (prop.kind === "1:1" && prop.owner)) {
          const self = targets === list;
          // No cycles: a row points at an earlier row of its own type.
          const pool = self ? list.slice(0, i) : targets;
          const pickable = prop.kind === "1:1"
            ? pool.filter((t) => !list.some((o) => (o as Record<string, unknown>)[prop.name] === t))
            : pool;
          if (pickable.length === 0 || (prop.nullable && rand() < 0.3)) {
            if (!prop.nullable && pickable.length === 0) {
              throw new Error(`no row for the required edge ${meta.className}.${prop.name}`);
            }
            r[prop.name] = null;
          } else {
            r[prop.name] = pickable[Math.floor(rand() * pickable.length)];
          }
        } else if (prop.kind === "m:n" && prop.owner) {
          const collection = r[prop.name] as { add(...items: object[]): void };
          const chosen = targets.filter(() => rand() < 0.35);
          if (chosen.length) collection.add(...chosen);
        }
      }
    });
  }
  await em.flush();
  return rows;
}
