/**
 * A seeded generator of hostile GraphQL documents over any schema, for the fuzz test: random
 * selections walked from `Query` through the schema's types (deep chains past `maxDepth`,
 * aliases past `maxAliases`, repeated fields, fragment fan-out through named fragments spread
 * many times), with arguments of odd values for every input type (integers at and past 32-bit
 * range, floats such as `1e400`, empty, long, NUL and quote-laden strings, junk ids and cursors,
 * out-of-range `BigInt`s and `Time`s, impossible dates, long lists, deep `where` trees), some
 * written as literals and some sent as variables (which carry what a document cannot: unpaired
 * surrogates, non-finite JSON numbers as strings).
 *
 * @module
 */
import {
  getNamedType,
  getNullableType,
  type GraphQLArgument,
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLNamedType,
  type GraphQLSchema,
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isLeafType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  isUnionType,
} from "graphql";

/** One generated request. */
export interface HostileDocument {
  query: string;
  variables: Record<string, unknown>;
}

/** A seeded pseudo-random source (a linear congruential sequence, the same for one seed). */
export class Random {
  #state: number;
  constructor(seed: number) {
    this.#state = seed % 2 ** 31;
  }
  /** A number in [0, 1). */
  next(): number {
    this.#state = (this.#state * 1103515245 + 12345) % 2 ** 31;
    return this.#state / 2 ** 31;
  }
  /** An integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)];
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
}

const INTS = [0, 1, -1, 2, 1000, 1001, 2 ** 31 - 1, -(2 ** 31), 10_000_000];
const FLOATS = ["0", "-0.0", "1.5", "1e308", "1e400", "-1e400", "123456789.123456789"];
const STRINGS = [
  "",
  "a",
  "%",
  "_",
  "'",
  '\\"',
  "\\\\",
  "\\u0000",
  "x".repeat(300),
  "2026-02-30",
  "25:00:00",
  "NaN",
  "-1",
  "9223372036854775808",
  "0000-01-01T00:00:00Z",
  "\u00e9\u{1F600}",
];
const VARIABLE_STRINGS = ["ab\ud800cd", "\udc00", "x".repeat(70_000), "a\u0000b"];
const TIMES = [
  "2026-01-02T03:04:05Z",
  "0000-01-01T00:00:00Z",
  "9999-12-31T23:59:59.999999Z",
  "2026-02-30T00:00:00Z",
  "yesterday",
  "2026-01-02T03:04:05+25:00",
];
const BIGINTS = ["0", "-1", "9223372036854775807", "9223372036854775808", "-9223372036854775809"];

/** Generates hostile documents over `schema` from `seed`. */
export class HostileDocuments {
  readonly random: Random;
  #variables: Record<string, unknown> = {};
  #definitions: string[] = [];
  #fragments: string[] = [];
  #count = 0;
  #aliases = 0;

  constructor(readonly schema: GraphQLSchema, seed: number) {
    this.random = new Random(seed);
  }

  /** The next document: a query, or a mutation when `mutation` (and the schema has some). */
  next(mutation = false): HostileDocument {
    this.#variables = {};
    this.#definitions = [];
    this.#fragments = [];
    this.#count = 0;
    const r = this.random;
    const root = (mutation && this.schema.getMutationType()) || this.schema.getQueryType()!;
    const fields = Object.values(root.getFields());
    const roots = Array.from({ length: 1 + r.int(3) }, () => r.pick(fields));
    const depth = r.chance(0.15) ? 8 + r.int(10) : 1 + r.int(5);
    const selections = roots.map((field, i) => this.field(field, `r${i}`, depth));
    const variables = this.#definitions.length ? `(${this.#definitions.join(", ")})` : "";
    const operation = root === this.schema.getMutationType() ? "mutation" : "query";
    const text = `${operation} Fuzz${variables} { ${selections.join(" ")} }\n${
      this.#fragments.join("\n")
    }`;
    return { query: text, variables: this.#variables };
  }

  field(field: GraphQLField<unknown, unknown>, alias: string, depth: number): string {
    const args = field.args.filter((a) => isNonNullType(a.type) || this.random.chance(0.5))
      .map((a) => `${a.name}: ${this.argument(a)}`);
    const head = `${alias}: ${field.name}${args.length ? `(${args.join(", ")})` : ""}`;
    const type = getNamedType(field.type);
    if (isLeafType(type)) return head;
    return `${head} { ${this.selection(type, depth - 1)} }`;
  }

  /** A selection on `type`: fields, repeats, aliases, inline and named fragments. */
  selection(type: GraphQLNamedType, depth: number): string {
    const r = this.random;
    if (++this.#count > 400) return "__typename";
    const concrete = isObjectType(type) || isInterfaceType(type)
      ? type
      : isUnionType(type)
      ? r.pick(type.getTypes())
      : undefined;
    if (!concrete) return "__typename";
    const fields = Object.values(concrete.getFields());
    const parts: string[] = ["__typename"];
    const width = r.chance(0.05) ? 31 + r.int(10) : 1 + r.int(4);
    for (let i = 0; i < width; i++) {
      const field = r.pick(fields);
      const leaf = isLeafType(getNamedType(field.type));
      if (!leaf && depth <= 0) continue;
      parts.push(this.field(field as GraphQLField<unknown, unknown>, `f${++this.#aliases}`, depth));
    }
    if (r.chance(0.1)) {
      // a named fragment spread many times, itself spreading the selection below
      const name = `F${this.#fragments.length}`;
      this.#fragments.push(
        `fragment ${name} on ${concrete.name} { ${this.selection(concrete, depth - 1)} }`,
      );
      const times = r.chance(0.3) ? 6 + r.int(5) : 1;
      for (let i = 0; i < times; i++) parts.push(`...${name}`);
    }
    if (r.chance(0.1)) parts.push(`... on ${concrete.name} { __typename }`);
    return parts.join(" ");
  }

  /** An argument value: a literal, or a variable holding what a literal cannot. */
  argument(arg: GraphQLArgument): string {
    if (this.random.chance(0.3)) {
      const name = `v${this.#definitions.length}`;
      this.#definitions.push(`$${name}: ${String(arg.type)}`);
      this.#variables[name] = this.jsonValue(arg.type, 0);
      return `$${name}`;
    }
    return this.literal(arg.type, 0);
  }

  literal(type: GraphQLInputType, depth: number): string {
    const r = this.random;
    if (!isNonNullType(type) && r.chance(0.05)) return "null";
    const inner = getNullableType(type) as GraphQLInputType;
    if (isListType(inner)) {
      // a long list only at the top: long lists inside long lists grow without bound
      const length = depth === 0 && r.chance(0.05) ? 1001 : r.int(depth < 3 ? 4 : 2);
      return `[${Array.from({ length }, () => this.literal(inner.ofType, depth + 1)).join(", ")}]`;
    }
    if (isEnumType(inner)) return r.pick(inner.getValues()).name;
    if (isInputObjectType(inner)) {
      const fields = Object.values(inner.getFields());
      const chosen = fields.filter((f) =>
        isNonNullType(f.type) || (depth < 6 && r.chance(2 / fields.length))
      );
      return `{ ${chosen.map((f) => `${f.name}: ${this.literal(f.type, depth + 1)}`).join(", ")} }`;
    }
    if (isScalarType(inner)) {
      switch (inner.name) {
        case "Int":
          return String(r.pick(INTS));
        case "Float":
          return r.pick(FLOATS);
        case "Boolean":
          return r.pick(["true", "false"]);
        case "BigInt":
          return `"${r.pick(BIGINTS)}"`;
        case "Time":
          return `"${r.pick(TIMES)}"`;
        case "JSON":
          return r.pick(["{}", "[1, 2]", '"x"', "null"]);
        default:
          return `"${r.pick(STRINGS)}"`;
      }
    }
    return "null";
  }

  jsonValue(type: GraphQLInputType, depth: number): unknown {
    const r = this.random;
    if (!isNonNullType(type) && r.chance(0.05)) return null;
    const inner = getNullableType(type) as GraphQLInputType;
    if (isListType(inner)) {
      // a long list only at the top: long lists inside long lists grow without bound
      const length = depth === 0 && r.chance(0.05) ? 1001 : r.int(depth < 3 ? 4 : 2);
      return Array.from({ length }, () => this.jsonValue(inner.ofType, depth + 1));
    }
    if (isEnumType(inner)) return r.pick(inner.getValues()).name;
    if (isInputObjectType(inner)) {
      const fields = Object.values(inner.getFields());
      return Object.fromEntries(
        fields.filter((f) => isNonNullType(f.type) || (depth < 6 && r.chance(2 / fields.length)))
          .map((f) => [f.name, this.jsonValue(f.type, depth + 1)]),
      );
    }
    if (isScalarType(inner)) {
      switch (inner.name) {
        case "Int":
          return r.pick([...INTS, 2 ** 31, 1.5, "1"]);
        case "Float":
          return r.pick([0, 1.5, 1e308, "1e400", "NaN"]);
        case "Boolean":
          return r.pick([true, false, "true"]);
        case "BigInt":
          return r.pick([...BIGINTS, 1.5]);
        case "Time":
          return r.pick(TIMES);
        default:
          return r.pick([...STRINGS.map((s) => JSON.parse(`"${s}"`)), ...VARIABLE_STRINGS]);
      }
    }
    return null;
  }
}
