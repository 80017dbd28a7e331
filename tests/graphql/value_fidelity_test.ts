/**
 * What a client writes is what it reads back, or it is refused naming the field: a property test
 * over every scalar kind of the shop example (string, text, string arrays, enum and enum arrays,
 * boolean, a custom type, bigint, decimal (the `Decimal` scalar), double, date (the `Date` scalar),
 * time, JSON, date-time, UUID-keyed rows, binary columns), on SQLite, PostgreSQL and MariaDB. For each kind, random values of a seeded
 * generator and its edge values (empty, whitespace, "NULL", the column's limits and one beyond,
 * emoji, unpaired surrogates, precision limits) are written through `create<T>` and `update<T>`;
 * each write is either refused with `BAD_USER_INPUT` whose message names the input field, or
 * its payload equals what a later read through the API returns, which equals what `em.findOne`
 * reads in a fresh EntityManager (the stored value); for kinds a database keeps exactly (every
 * kind but decimals, the custom type and UUID case), the stored value is the value written.
 *
 * `FIDELITY_SEED=<n>` replays a run (the seed is printed); `FIDELITY_VALUES=<n>` sets the random
 * values per kind besides the edge values (default 6), `FIDELITY_SEEDS=<n>` n seeds from the fixed one; CI runs the fixed seed, and
 * `deno task test:fidelity` more.
 */
import { assert, assertEquals } from "@std/assert";
import { encodeBase64 } from "@std/encoding/base64";
import { Buffer } from "node:buffer";
import { wrap } from "@mikro-orm/core";
import { globalIdOf } from "../../mod.ts";
import * as shop from "../../examples/shop/generated/mod.ts";
import { entities } from "../../examples/shop/entities.ts";
import { Customer } from "../../examples/shop/entities/customer.ts";
import { Order } from "../../examples/shop/entities/order.ts";
import { Interest, Tier } from "../../examples/shop/entities/enums.ts";
import { ParcelSize } from "../../examples/shop/entities/parcel.ts";
import { dialects, openTestOrm } from "../support/databases.ts";
import { random } from "../support/random_data.ts";
import { startServer } from "../support/server.ts";

/** Fixed seeds CI runs; `FIDELITY_SEED` runs one of its own. */
const SEEDS = Deno.env.get("FIDELITY_SEED") ? [Number(Deno.env.get("FIDELITY_SEED"))] : Array.from(
  { length: Number(Deno.env.get("FIDELITY_SEEDS") ?? 1) },
  (_, i) => 20261129 + i,
);
const VALUES = Number(Deno.env.get("FIDELITY_VALUES") ?? 6);

type Rand = () => number;

/** One scalar kind: a field of a type's inputs, its edge values and a random value. */
interface Kind {
  type: "Customer" | "Order";
  field: string;
  /** The database may keep the value in another form (payload = read = stored, not = input). */
  normalised?: boolean;
  edges: unknown[];
  random(rand: Rand): unknown;
  /** The selection of the field's subfields (an embeddable's). */
  select?: string;
  /** The stored value as the API gives it (an embeddable's enum member names). */
  storedAs?: (value: unknown) => unknown;
  /** The stored value as the API names it (an enum's member name for its value). */
  named?: Record<string, string>;
}

/** A TypeScript enum's values -> its member names (the GraphQL enum values). */
const names = (e: Record<string, string>) =>
  Object.fromEntries(Object.entries(e).map(([name, value]) => [value, name]));

const pick = <T>(rand: Rand, list: readonly T[]): T => list[Math.floor(rand() * list.length)];
const int = (rand: Rand, n: number) => Math.floor(rand() * n);

/** Characters to build strings of: ASCII, accents, CJK, emoji (astral), quotes, separators. */
const CHARS = [..."aZ09 ,;'\"\\{}[]()\t\n%_*éßüø中文😀🎉👍🏽\u00a0\u200b"];

function text(rand: Rand, max: number): string {
  let s = "";
  for (let i = int(rand, max + 1); i > 0; i--) s += pick(rand, CHARS);
  return s;
}

const EMOJI = "😀";
const STRINGS = [
  "",
  " ",
  " x ",
  "NULL",
  "null",
  "a\nb",
  '"quoted"',
  "back\\slash",
  "{a,b}",
  EMOJI.repeat(128),
  EMOJI.repeat(255),
  EMOJI.repeat(256),
  "x".repeat(256),
  "a\0b",
  "ab\ud800",
];

const KINDS: Kind[] = [
  { type: "Customer", field: "name", edges: STRINGS, random: (r) => text(r, 40) },
  {
    type: "Customer",
    field: "bio",
    edges: ["", "  ", "NULL", EMOJI.repeat(300), "a\0b"],
    random: (r) => text(r, 200),
  },
  {
    type: "Customer",
    field: "nicknames",
    edges: [
      [],
      [""],
      ["", ""],
      ["NULL"],
      ["null", "Null"],
      [" x "],
      ["a,b"],
      ['"q"', "\\"],
      [
        "a\nb",
        "{}",
      ],
      ["x", ""],
      ["a,b", ""],
      [EMOJI],
    ],
    random: (r) => Array.from({ length: int(r, 4) }, () => text(r, 8)),
  },
  {
    type: "Customer",
    field: "tier",
    named: names(Tier),
    edges: ["Bronze", "Gold"],
    random: (r) => pick(r, ["Bronze", "Silver", "Gold"]),
  },
  {
    type: "Customer",
    field: "interests",
    named: names(Interest),
    edges: [[]],
    random: (r) => ["Books", "Gadgets", "Music"].filter(() => r() < 0.5),
  },
  { type: "Customer", field: "active", edges: [true, false], random: (r) => r() < 0.5 },
  {
    type: "Customer",
    field: "couponCode",
    normalised: true,
    edges: ["abc", " abc ", "", "x".repeat(16), "x".repeat(17), "NULL"],
    random: (r) => text(r, 10),
  },
  {
    type: "Customer",
    field: "points",
    edges: [
      "0",
      "-1",
      "9007199254740993",
      "9223372036854775807",
      "-9223372036854775808",
      "9223372036854775808",
      "-9223372036854775809",
    ],
    random: (r) =>
      String(BigInt(int(r, 2 ** 30)) * BigInt(int(r, 2 ** 30)) * (r() < 0.5 ? -1n : 1n)),
  },
  {
    type: "Customer",
    field: "balance",
    normalised: true,
    edges: [
      "007.50",
      "-0.00",
      "12.50",
      "0",
      "99999999.99",
      "-99999999.99",
      "100000000.00",
      "1.234",
      "1e5",
      " 1",
      "NaN",
      "+1.00",
      ".5",
      "1.",
      5,
      1.5,
    ],
    random: (r) =>
      `${r() < 0.3 ? "-" : ""}${int(r, 10 ** int(r, 9))}.${String(int(r, 100)).padStart(2, "0")}`,
  },
  {
    type: "Customer",
    field: "rating",
    edges: [0, 1.5, 0.1 + 0.2, 1e308, -1e-300, 5e-324, Number.MAX_SAFE_INTEGER],
    random: (r) => (r() - 0.5) * 10 ** int(r, 20),
  },
  {
    type: "Customer",
    field: "birthday",
    edges: [
      "2026-01-02",
      "0001-01-01",
      "0999-12-31",
      "1000-01-01",
      "9999-12-31",
      "2026-02-30",
      "2026-1-2",
      "2024-02-29",
      "2026-02-29",
      "2026-01-02T00:00:00Z",
      " 2026-01-02",
      "10000-01-01",
      20260102,
    ],
    random: (r) =>
      new Date(Date.UTC(1000 + int(r, 9000), int(r, 12), 1 + int(r, 28))).toISOString().slice(
        0,
        10,
      ),
  },
  {
    type: "Customer",
    field: "wakeUpAt",
    edges: ["00:00:00", "23:59:59", "12:00:00.5", "24:00:00", "7:00"],
    random: (r) =>
      `${String(int(r, 24)).padStart(2, "0")}:${String(int(r, 60)).padStart(2, "0")}:${
        String(int(r, 60)).padStart(2, "0")
      }`,
  },
  {
    type: "Customer",
    field: "preferences",
    edges: [{}, { a: null }, { k: "NULL", e: "" }, { n: [1, 2.5, -3], o: { p: true } }, {
      [EMOJI]: EMOJI,
    }],
    random: (r) => ({ [text(r, 5)]: text(r, 10), n: int(r, 1000) }),
  },
  {
    type: "Order",
    field: "placedAt",
    edges: [
      "2026-01-02T03:04:05.000Z",
      "2026-01-02T03:04:05.123Z",
      "1000-01-01T00:00:00.000Z",
      "0999-12-31T00:00:00.000Z",
    ],
    random: (r) =>
      new Date(
        Date.UTC(
          1970 + int(r, 100),
          int(r, 12),
          1 + int(r, 28),
          int(r, 24),
          int(r, 60),
          int(r, 60),
          r() < 0.5 ? 0 : int(r, 1000),
        ),
      ).toISOString(),
  },
  {
    type: "Order",
    field: "notes",
    edges: [[], [""], ["NULL"], [" spaced "], ['a"b', "c\\d"]],
    random: (r) => Array.from({ length: int(r, 3) }, () => text(r, 6)),
  },
  {
    type: "Order",
    field: "invoice",
    edges: ["", "AA", "AA==", "/w==", encodeBase64(new Uint8Array(300).map((_, i) => i % 256))],
    random: (r) => encodeBase64(new Uint8Array(int(r, 40)).map(() => int(r, 256))),
  },
  // Embeddables: inline (flattened columns), an object in a JSON column, a list in a JSON column.
  {
    type: "Customer",
    field: "address",
    select: "{ street city zip geo { lat lng } }",
    edges: [
      { street: "NULL", city: " x " },
      { street: "", city: EMOJI.repeat(10), zip: "", geo: { lat: 0, lng: -0.5 } },
      { street: "x".repeat(256), city: "c" },
      { street: "a\0b", city: "c" },
    ],
    random: (r) => ({
      street: text(r, 20),
      city: text(r, 10),
      geo: { lat: r() * 90, lng: r() * 180 },
    }),
  },
  {
    type: "Order",
    field: "shippingAddress",
    select: "{ street city zip geo { lat lng } }",
    edges: [{ street: "NULL", city: "" }, { street: " s ", city: "c", zip: "NULL" }],
    random: (r) => ({ street: text(r, 20), city: text(r, 10) }),
  },
  {
    type: "Order",
    field: "parcels",
    select: "{ weightGrams label size }",
    // `size` defaults to Medium: stored = read = payload, not the input.
    normalised: true,
    storedAs: (v) =>
      (v as Record<string, unknown>[]).map((p) => ({
        ...p,
        size: names(ParcelSize)[p.size as string],
      })),
    edges: [[], [{ weightGrams: 0 }], [{ weightGrams: -1, label: "" }, {
      weightGrams: 2147483647,
      label: "NULL",
    }]],
    random: (r) =>
      Array.from({ length: int(r, 3) }, () => ({ weightGrams: int(r, 10000), label: text(r, 8) })),
  },
];

/** A value as the API serialises it, from what `em.findOne` holds. */
function asApi(value: unknown): unknown {
  if (value === undefined) return null;
  if (value instanceof Date) return value.toISOString();
  if (typeof value === "bigint") return value.toString();
  if (value instanceof Uint8Array || Buffer.isBuffer(value)) {
    return Buffer.from(value as Uint8Array).toString("base64");
  }
  if (Array.isArray(value)) return value.map(asApi);
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, asApi(v)]));
  }
  return value;
}

/** Deep equality of JSON values, object keys in any order (PostgreSQL's `jsonb` sorts them). */
function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(sorted(a)) === JSON.stringify(sorted(b));
}

function sorted(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sorted);
  if (value && typeof value === "object") {
    // An embeddable's unset property: missing in one, null in another.
    const record = value as Record<string, unknown>;
    return Object.fromEntries(
      Object.keys(value).sort().filter((k) => record[k] != null).map((k) => [k, sorted(record[k])]),
    );
  }
  return value;
}

for (const dialect of dialects()) {
  Deno.test({
    name:
      `value fidelity: payload = read = stored, or BAD_USER_INPUT naming the field (${dialect})`,
    sanitizeOps: false,
    sanitizeResources: false,
    fn: async () => {
      const db = await openTestOrm(dialect, entities as never);
      const server = startServer(db.orm, shop.createSchema());
      const counts = { kinds: KINDS.length, values: 0, writes: 0, stored: 0, refused: 0 };
      let email = 0;
      try {
        const em = db.orm.em.fork();
        const owner = em.create(Customer, { name: "owner", email: "owner@x" } as never);
        await em.flush();
        const customerID = globalIdOf(
          shop.graph,
          shop.graph.types.Customer,
          (owner as { id: number }).id,
        );
        for (const seed of SEEDS) {
          const rand = random(seed);
          for (const kind of KINDS) {
            const values = [
              ...kind.edges,
              ...Array.from({ length: VALUES }, () => kind.random(rand)),
            ];
            let id: string | undefined;
            for (const value of values) {
              counts.values++;
              // Created with the value, then (another row's value) updated to it.
              for (const mode of ["create", "update"] as const) {
                if (mode === "update" && !id) continue;
                const base = kind.type === "Customer"
                  ? { name: "n", email: `e${email++}@x` }
                  : { customerID };
                const selection = `id ${kind.field} ${kind.select ?? ""}`;
                const query = mode === "create"
                  ? `mutation ($input: Create${kind.type}Input!) { r: create${kind.type}(input: $input) { ${selection} } }`
                  : `mutation ($id: ID!, $input: Update${kind.type}Input!) { r: update${kind.type}(id: $id, input: $input) { ${selection} } }`;
                const input = mode === "create"
                  ? { ...base, [kind.field]: value }
                  : { [kind.field]: value };
                const answer = await server.query<{ r: Record<string, unknown> }>(query, {
                  id,
                  input,
                });
                const where = `${kind.type}.${kind.field} = ${
                  JSON.stringify(value)?.slice(0, 80)
                } (${mode}, seed ${seed}, ${dialect})`;
                counts.writes++;
                if (answer.errors) {
                  const error = answer.errors[0];
                  assertEquals(
                    error.extensions?.code,
                    "BAD_USER_INPUT",
                    `${where}: ${JSON.stringify(answer.errors)}`,
                  );
                  assert(
                    new RegExp(`(\\(input\\)|\\binput)\\.${kind.field}\\b`).test(error.message),
                    `${where}: ${error.message}`,
                  );
                  counts.refused++;
                  continue;
                }
                counts.stored++;
                const payload = answer.data!.r;
                if (mode === "create") id = payload.id as string;
                const read = await server.query<{ node: Record<string, unknown> }>(
                  `query ($id: ID!) { node(id: $id) { ... on ${kind.type} { ${selection} } } }`,
                  { id: payload.id },
                );
                assertEquals(read.errors, undefined, where);
                const entity = kind.type === "Customer" ? Customer : Order;
                const fresh = db.orm.em.fork();
                const row = await fresh.findOneOrFail(
                  entity as never,
                  shop.graph.types[kind.type].id.kind === "int"
                    ? Number(
                      atob(String(payload.id).replaceAll("-", "+").replaceAll("_", "/")).split(
                        ":",
                      )[1],
                    )
                    : atob(String(payload.id).replaceAll("-", "+").replaceAll("_", "/")).split(
                      ":",
                    )[1] as never,
                  { populate: [kind.field] as never },
                );
                let stored = asApi((row as Record<string, unknown>)[kind.field]);
                if (kind.storedAs) stored = kind.storedAs(stored);
                const named = kind.named;
                if (named) {
                  stored = Array.isArray(stored)
                    ? stored.map((v) => named[v as string])
                    : named[stored as string];
                }
                const got = {
                  payload: payload[kind.field],
                  read: read.data!.node[kind.field],
                  stored,
                };
                assert(
                  same(got.payload, got.read) && same(got.read, got.stored),
                  `${where}: ${JSON.stringify(got)}`,
                );
                if (!kind.normalised) {
                  assert(same(stored, value), `${where}: stored ${JSON.stringify(stored)}`);
                }
              }
            }
          }
        }
        console.log(
          `value fidelity (${dialect}), seeds ${
            SEEDS.join(", ")
          }: ${counts.kinds} kinds, ${counts.values} values, ${counts.writes} writes (${counts.stored} stored = read = payload, ${counts.refused} refused naming the field)`,
        );
      } finally {
        await server.close();
        await db.close();
      }
    },
  });
}

for (const dialect of dialects()) {
  Deno.test(`create: the entity's onInit hooks see the input, as em.create(Entity, data) (${dialect})`, async () => {
    const db = await openTestOrm(dialect, entities as never);
    const server = startServer(db.orm, shop.createSchema());
    // What onInit saw of each new (not yet stored) customer: its name and email.
    const seen: unknown[] = [];
    db.orm.em.getEventManager().registerSubscriber({
      getSubscribedEntities: () => [Customer],
      onInit: ({ entity }) => {
        if (wrap(entity, true).getPrimaryKey() == null) {
          const { name, email } = entity as { name?: string; email?: string };
          seen.push({ name, email });
        }
      },
    });
    try {
      const answer = await server.query(
        `mutation { createCustomer(input: { name: "Ada", email: "ada@x" }) { name } }`,
      );
      assertEquals(answer.errors, undefined);
      assertEquals(seen, [{ name: "Ada", email: "ada@x" }]);
    } finally {
      await server.close();
      await db.close();
    }
  });
}
