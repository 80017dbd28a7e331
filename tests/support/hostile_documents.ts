/**
 * A grammar-based generator of hostile GraphQL requests over any schema, for the fuzz test
 * (tests/graphql/fuzz_test.ts): deep field chains, fragment fan-out, alias floods, huge lists and
 * strings, deep input and list nesting, directive and operation floods, deep introspection, and
 * odd values for every scalar in arguments, where inputs, mutation inputs and variables. Every
 * request is built from the schema's own types (the fields, arguments and input fields it has),
 * so a request is refused or answered for what it asks, not because it names a missing field.
 *
 * @module
 */
import {
  getNamedType,
  getNullableType,
  type GraphQLArgument,
  GraphQLEnumType,
  type GraphQLField,
  GraphQLInputObjectType,
  type GraphQLInputType,
  GraphQLInterfaceType,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  type GraphQLSchema,
} from "graphql";

/** One hostile request: its kind, and the exact JSON body sent. */
export interface HostileRequest {
  /** What the request tries (`deep-chain 600`, `fragment-fan-out 5x10`, `odd-value Int`, ...). */
  kind: string;
  /** The JSON body as sent (raw, so it can hold numbers JSON.stringify cannot write). */
  body: string;
}

/** Odd literals per scalar, as GraphQL source text. */
const ODD_LITERALS: Record<string, string[]> = {
  Int: ["2147483648", "-2147483649", "1e400", "9007199254740993", "-0", "1.5", '"1"'],
  Float: ["1e309", "-1e309", "1e-400", '"NaN"', '"Infinity"', "179769313486231570000000000e300"],
  String: [
    '"\\ud800"',
    '"a\\udc00b"',
    '"\\u0000"',
    '""',
    '"%_\\\\"',
    '"\' or 1=1 --"',
    '"\\"); drop table x; --"',
  ],
  ID: ['""', '"!!!"', '"bm90OmFuSWQ"', '"eyJ4Ijp7fX0"', '"W1tbXV1d"', '"Tm9kZTo="', "12"],
  Boolean: ["1", '"true"', "null"],
  Cursor: ['""', '"%%%"', '"eyJpZCI6e319"', '"W3sidiI6WzFdfV0"', '"bm90IGpzb24"'],
  Time: [
    '"2024-13-45T00:00:00Z"',
    '"0000-01-01T00:00:00Z"',
    '"275760-09-13T00:00:01Z"',
    '"2024-02-30T00:00:00Z"',
    '"2024-01-01"',
    '"1704067200"',
    '""',
    "1704067200",
  ],
  BigInt: ['"99999999999999999999999999"', '"1.5"', '"-0"', '"1e3"', '"0x10"', "12", '""'],
  JSON: ["{ a: { b: { c: [1, 2, { d: null }] } } }", '"\\ud800"'],
};

/** Odd JSON texts per scalar, for variables (raw JSON: numbers past float range included). */
const ODD_JSON: Record<string, string[]> = {
  Int: ["2147483648", "1e999", "-1e999", "1.0000000000000002", '"7"', "[1]", "{}"],
  Float: ["1e999", "-1e999", '"NaN"', "null", "[1e999]"],
  String: ['"\\ud800"', '"\\udfff\\ud800"', "123", "{}", '"\\u0000"'],
  ID: ['"\\ud800"', "1e999", '"bm90OmFuSWQ"', "{}", "[]"],
  Boolean: ['"false"', "0"],
  Cursor: ['"\\ud800"', "1", '"eyJ2IjpbMWU5OTldfQ"'],
  Time: ['"\\ud800"', '"9999999-01-01T00:00:00Z"', "1e999", '"2024-01-01T25:00:00Z"'],
  BigInt: ["1e999", '"123456789012345678901234567890"', "1.5", '"\\ud800"'],
  JSON: ["1e999", '{"a":{"b":{"c":{"d":{"e":1}}}}}'],
};

/** A scalar's odd literal, or an enum's unknown value. */
function oddLiteral(type: GraphQLInputType, pick: <T>(list: readonly T[]) => T): string {
  const named = getNamedType(type);
  if (named instanceof GraphQLEnumType) return pick(["NOPE", '"ASC"', "null", "__proto__"]);
  if (named instanceof GraphQLInputObjectType) return pick(["{}", "[]", "1", "{ __proto__: 1 }"]);
  return pick(ODD_LITERALS[named.name] ?? ODD_LITERALS.String);
}

/** Generates hostile requests over one schema from a random source in [0, 1). */
export class HostileGenerator {
  readonly #query: GraphQLObjectType;
  readonly #mutation?: GraphQLObjectType;

  constructor(
    readonly schema: GraphQLSchema,
    readonly rand: () => number,
    /** Global ids of existing rows, used where a request needs a valid one. */
    readonly ids: string[] = [],
  ) {
    this.#query = schema.getQueryType()!;
    this.#mutation = schema.getMutationType() ?? undefined;
  }

  pick<T>(list: readonly T[]): T {
    return list[Math.floor(this.rand() * list.length)];
  }

  /** One request of a random kind. */
  request(): HostileRequest {
    const kinds: (() => HostileRequest)[] = [
      () => this.deepChain(),
      () => this.fragmentFanOut(),
      () => this.aliasFlood(),
      () => this.hugeList(),
      () => this.hugeString(),
      () => this.oddArgument(),
      () => this.oddArgument(),
      () => this.oddVariable(),
      () => this.oddVariable(),
      () => this.oddMutation(),
      () => this.deepInput(),
      () => this.deepListLiteral(),
      () => this.directiveFlood(),
      () => this.deepIntrospection(),
      () => this.operationFlood(),
      () => this.oddPaging(),
      () => this.spreadFlood(),
      () => this.repeatedFields(),
      () => this.deepVariable(),
      () => this.wideWhereLists(),
      () => this.manyNotFound(),
      () => this.mergeFlood(),
    ];
    return this.pick(kinds)();
  }

  /** The object type a field leads to, through a connection's edges' node. */
  #target(field: GraphQLField<unknown, unknown>): GraphQLObjectType | GraphQLInterfaceType | null {
    const named = getNamedType(field.type);
    if (!(named instanceof GraphQLObjectType || named instanceof GraphQLInterfaceType)) return null;
    if (named.name.endsWith("Connection") && named.getFields().edges) {
      const node = getNamedType(
        (getNamedType(named.getFields().edges.type) as GraphQLObjectType).getFields().node.type,
      );
      return node as GraphQLObjectType;
    }
    return named;
  }

  /** The fields of `type` that lead to another node (edges, connections, `node`). */
  #edges(type: GraphQLObjectType | GraphQLInterfaceType) {
    return Object.values(type.getFields()).filter((f) =>
      this.#target(f) && !f.name.startsWith("__") &&
      f.args.every((a) => !(a.type instanceof GraphQLNonNull) || this.#canFill(a.type))
    );
  }

  #canFill(type: GraphQLInputType): boolean {
    const named = getNamedType(type);
    return !(named instanceof GraphQLInputObjectType) ||
      Object.values(named.getFields()).every((f) => !(f.type instanceof GraphQLNonNull));
  }

  /** A plain value for a required argument. */
  #plain(type: GraphQLInputType): string {
    const inner = getNullableType(type);
    if (inner instanceof GraphQLList) return `[${this.#plain(inner.ofType)}]`;
    const named = getNamedType(type);
    if (named instanceof GraphQLEnumType) return named.getValues()[0].name;
    if (named instanceof GraphQLInputObjectType) return "{}";
    if (named.name === "ID") return JSON.stringify(this.ids.length ? this.pick(this.ids) : "eA");
    if (named.name === "Int" || named.name === "Float") return "1";
    if (named.name === "Boolean") return "true";
    return '"a"';
  }

  /** `name(args)` with required arguments filled and `first: <first>` on a connection. */
  #call(field: GraphQLField<unknown, unknown>, first = "1", alias = ""): string {
    const args = field.args.filter((a) => a.type instanceof GraphQLNonNull).map((a) =>
      `${a.name}: ${this.#plain(a.type)}`
    );
    if (field.args.some((a) => a.name === "first")) args.push(`first: ${first}`);
    return `${alias}${field.name}${args.length ? `(${args.join(", ")})` : ""}`;
  }

  /** `{ edges { node { <inner> } } }` for a connection, `{ <inner> }` otherwise. */
  #around(field: GraphQLField<unknown, unknown>, inner: string, count = false): string {
    const named = getNamedType(field.type);
    if (named.name.endsWith("Connection") && (named as GraphQLObjectType).getFields().edges) {
      return `{ ${count ? "totalCount " : ""}edges { node { ${inner} } } }`;
    }
    return `{ ${inner} }`;
  }

  /** Follows edges from the query root, `depth` hops. */
  deepChain(depth = this.pick([3, 12, 40, 200, 600, 1500, 4000])): HostileRequest {
    const open: string[] = [];
    let type: GraphQLObjectType | GraphQLInterfaceType = this.#query;
    let hops = 0;
    for (; hops < depth; hops++) {
      const edges = this.#edges(type);
      if (!edges.length) break;
      const field = this.pick(edges);
      const around = this.#around(field, "\u0000");
      const [before] = around.split("\u0000");
      open.push(`${this.#call(field)} ${before} __typename `);
      type = this.#target(field)!;
    }
    const close = open.map((o) => "} ".repeat(o.split("{").length - 1)).reverse().join("");
    return this.#body(`deep-chain ${hops}`, `{ ${open.join("")}__typename ${close}}`);
  }

  /** `levels` fragments along a path of edges, each selecting `aliases` aliases of the next. */
  fragmentFanOut(
    levels = this.pick([2, 3, 4, 5, 6]),
    aliases = this.pick([2, 5, 10, 12, 30]),
  ): HostileRequest {
    const first = this.pick(["1", "0", "2"]);
    const path: { field: GraphQLField<unknown, unknown>; on: string }[] = [];
    let type: GraphQLObjectType | GraphQLInterfaceType = this.#query;
    for (let i = 0; i <= levels; i++) {
      const edges = this.#edges(type);
      if (!edges.length) break;
      const field = this.pick(edges);
      const target = this.#target(field)!;
      path.push({ field, on: target.name });
      type = target;
    }
    const fragments: string[] = [];
    for (let i = 1; i < path.length; i++) {
      const { field } = path[i];
      const next = i + 1 < path.length ? `...F${i + 1}` : "__typename";
      const selections = Array.from(
        { length: aliases },
        (_, a) =>
          `${this.#call(field, first, `a${a}: `)} ${
            this.#around(field, `__typename ${next}`, true)
          }`,
      );
      fragments.push(`fragment F${i} on ${path[i - 1].on} { __typename ${selections.join(" ")} }`);
    }
    const root = path[0];
    const text = `{ ${this.#call(root.field, first)} ${
      this.#around(root.field, path.length > 1 ? "...F1" : "__typename")
    } }\n${fragments.join("\n")}`;
    return this.#body(`fragment-fan-out ${fragments.length}x${aliases} first:${first}`, text);
  }

  /** `n` aliases of `__typename` or of a root field. */
  aliasFlood(n = this.pick([100, 1_000, 10_000, 50_000])): HostileRequest {
    const edges = this.#edges(this.#query);
    const field = edges.length && this.rand() < 0.5 ? this.pick(edges) : undefined;
    const one = (i: number) =>
      field
        ? `a${i}: ${this.#call(field).replace(/^a\d+: /, "")} { __typename }`
        : `a${i}: __typename`;
    return this.#body(
      `alias-flood ${n}${field ? ` ${field.name}` : ""}`,
      `{ ${Array.from({ length: n }, (_, i) => one(i)).join(" ")} }`,
    );
  }

  /** Root connections' and fields' list arguments (`nodes(ids:)`, `idIn`, ...) with `n` values. */
  hugeList(n = this.pick([1_000, 10_000, 100_000, 300_000])): HostileRequest {
    const lists = this.#inputsOf((type) => getNullableType(type) instanceof GraphQLList);
    if (!lists.length) return this.aliasFlood();
    const { field, path, type } = this.pick(lists);
    const item = this.#plain((getNullableType(type) as GraphQLList<GraphQLInputType>).ofType);
    const value = `[${Array(n).fill(item).join(", ")}]`;
    return this.#body(`huge-list ${n} ${field.name}.${path}`, this.#withInput(field, path, value));
  }

  /** A string argument or where predicate of `n` characters. */
  hugeString(n = this.pick([1_000, 100_000, 1_000_000, 5_000_000])): HostileRequest {
    const strings = this.#inputsOf((type) => getNamedType(type).name === "String");
    if (!strings.length) return this.aliasFlood();
    const { field, path } = this.pick(strings);
    const value = JSON.stringify(this.pick(["x", "é", "\u{1F600}", "%"]).repeat(n));
    return this.#body(
      `huge-string ${n} ${field.name}.${path}`,
      this.#withInput(field, path, value),
    );
  }

  /** An odd literal in a random argument or where predicate of a root field. */
  oddArgument(): HostileRequest {
    const inputs = this.#inputsOf(() => true);
    const { field, path, type } = this.pick(inputs);
    const literal = oddLiteral(type, (l) => this.pick(l));
    return this.#body(
      `odd-value ${getNamedType(type).name} ${field.name}.${path}=${literal.slice(0, 30)}`,
      this.#withInput(field, path, literal),
    );
  }

  /** An odd JSON value for a variable of a random argument or where predicate's type. */
  oddVariable(): HostileRequest {
    const inputs = this.#inputsOf((type) =>
      !(getNamedType(type) instanceof GraphQLInputObjectType)
    );
    const { field, path, type } = this.pick(inputs);
    const named = getNamedType(type);
    const json = this.pick(
      named instanceof GraphQLEnumType
        ? ['"NOPE"', "1", '"\\ud800"']
        : ODD_JSON[named.name] ?? ODD_JSON.String,
    );
    const text = this.#withInput(field, path, "$v").replace(/^\{/, `query($v: ${String(type)}) {`);
    return {
      kind: `odd-variable ${String(type)} ${field.name}.${path}=${json.slice(0, 30)}`,
      body: `{"query":${JSON.stringify(text)},"variables":{"v":${json}}}`,
    };
  }

  /** A mutation whose input holds one odd value (and plain values where it needs them). */
  oddMutation(): HostileRequest {
    const mutations = Object.values(this.#mutation?.getFields() ?? {});
    if (!mutations.length) return this.oddArgument();
    const field = this.pick(mutations);
    const args = field.args.map((arg) => {
      const named = getNamedType(arg.type);
      if (!(named instanceof GraphQLInputObjectType)) {
        return `${arg.name}: ${
          this.rand() < 0.5 ? oddLiteral(arg.type, (l) => this.pick(l)) : this.#plain(arg.type)
        }`;
      }
      const fields = Object.values(named.getFields());
      const odd = this.pick(fields);
      const parts = fields.filter((f) => f === odd || f.type instanceof GraphQLNonNull).map((f) =>
        `${f.name}: ${f === odd ? oddLiteral(f.type, (l) => this.pick(l)) : this.#plain(f.type)}`
      );
      return `${arg.name}: { ${parts.join(", ")} }`;
    });
    return this.#body(
      `odd-mutation ${field.name}`,
      `mutation { ${field.name}(${args.join(", ")}) { __typename } }`,
    );
  }

  /** `where: { not: { not: ... } }` or `and: [{ and: [...] }]`, `n` deep. */
  deepInput(n = this.pick([20, 100, 1_000, 3_000, 10_000])): HostileRequest {
    const roots = this.#rootFieldsWith("where");
    if (!roots.length) return this.deepListLiteral();
    const field = this.pick(roots);
    const key = this.pick(["not", "and", "or"]);
    const [open, close] = key === "not" ? [`{ not: `, ` }`] : [`{ ${key}: [`, `] }`];
    const where = open.repeat(n) + "{}" + close.repeat(n);
    return this.#body(
      `deep-input ${key} ${n}`,
      `{ ${field.name}(first: 1, where: ${where}) { __typename } }`,
    );
  }

  /**
   * A `where` variable nested `n` deep through `and`/`or`/`not` (JSON: no bracket limit before
   * parsing), around `maxInputDepth` and far past the call stack.
   */
  deepVariable(n = this.pick([40, 49, 51, 1_500, 10_000, 50_000])): HostileRequest {
    const roots = this.#rootFieldsWith("where");
    if (!roots.length) return this.deepListLiteral();
    const field = this.pick(roots);
    const type = field.args.find((a) => a.name === "where")!.type;
    const key = this.pick(["not", "and", "or"]);
    const [open, close] = key === "not" ? [`{"not":`, `}`] : [`{"${key}":[`, `]}`];
    const where = open.repeat(n) + "{}" + close.repeat(n);
    const query = `query ($w: ${
      String(type)
    }) { ${field.name}(first: 1, where: $w) { __typename } }`;
    return {
      kind: `deep-variable ${key} ${n}`,
      body: `{"query":${JSON.stringify(query)},"variables":{"w":${where}}}`,
    };
  }

  /**
   * `where: { or: [{ <list predicate>: [k strings] } x m] }` as a variable: list items around
   * `maxWhereSize` and far over it (41 x 997, 40,877 parameters).
   */
  wideWhereLists(): HostileRequest {
    const candidates = this.#rootFieldsWith("where").flatMap((field) => {
      const where = getNamedType(field.args.find((a) => a.name === "where")!.type);
      if (!(where instanceof GraphQLInputObjectType)) return [];
      return Object.values(where.getFields())
        .filter((f) => f.name.endsWith("In") && getNamedType(f.type).name === "String")
        .map((predicate) => ({ field, where, predicate: predicate.name }));
    });
    if (!candidates.length) return this.hugeList();
    const { field, where, predicate } = this.pick(candidates);
    const [m, k] = this.pick([[1, 1_000], [2, 597], [2, 600], [41, 997], [300, 3]]);
    const or = Array.from({ length: m }, (_, i) => ({
      [predicate]: Array.from({ length: k }, (_, j) => `v${i}.${j}`),
    }));
    const query = `query ($w: ${where.name}) { ${field.name}(first: 1, where: $w) { __typename } }`;
    return {
      kind: `wide-where-lists ${m}x${k} ${field.name}.${predicate}`,
      body: JSON.stringify({ query, variables: { w: { or } } }),
    };
  }

  /** `n` aliases of `nodes(ids: $ids)` with `k` ids of no row: many `NOT_FOUND` errors. */
  manyNotFound(): HostileRequest {
    if (!this.#query.getFields().nodes) return this.oddArgument();
    const [n, k] = this.pick([[1, 1_000], [5, 200], [30, 1_000]]);
    const ids = Array.from({ length: k }, (_, i) => btoa(`Nope:${i}`).replaceAll("=", ""));
    const aliases = Array.from({ length: n }, (_, i) => `n${i}: nodes(ids: $ids) { id }`);
    return {
      kind: `many-not-found ${n}x${k}`,
      body: JSON.stringify({
        query: `query ($ids: [ID!]!) { ${aliases.join(" ")} }`,
        variables: { ids },
      }),
    };
  }

  /**
   * `n` fragments, each selecting one response name 5 times with differing arguments (or the
   * same ones), all spread into one selection: graphql-js's overlap validation is quadratic in
   * them (`maxMerges`).
   */
  mergeFlood(n = this.pick([5, 20, 49])): HostileRequest {
    const connections = this.#rootFieldsWith("first");
    if (!connections.length) return this.spreadFlood();
    const field = this.pick(connections);
    const differing = this.rand() < 0.5;
    const five = (from: number) =>
      Array.from(
        { length: 5 },
        (_, i) =>
          `p: ${this.#call(field, differing ? String(1 + ((from + i) % 50)) : "1")} ${
            this.#around(field, "__typename")
          }`,
      ).join(" ");
    const fragments = Array.from(
      { length: n },
      (_, f) => `fragment M${f} on ${this.#query.name} { ${five(f * 5)} }`,
    );
    return this.#body(
      `merge-flood ${n} ${differing ? "differing" : "same"}`,
      `{ ${fragments.map((_, f) => `...M${f}`).join(" ")} }\n${fragments.join("\n")}`,
    );
  }

  /** A list literal nested `n` deep in an argument. */
  deepListLiteral(n = this.pick([100, 1_000, 5_000, 20_000])): HostileRequest {
    const field = this.pick(this.#edges(this.#query));
    const arg = field.args[0]?.name ?? "x";
    return this.#body(
      `deep-list-literal ${n}`,
      `{ ${field.name}(${arg}: ${"[".repeat(n)}1${"]".repeat(n)}) { __typename } }`,
    );
  }

  /** `n` directives on one field. */
  directiveFlood(n = this.pick([100, 1_000, 10_000])): HostileRequest {
    return this.#body(
      `directive-flood ${n}`,
      `{ __typename ${"@include(if: true) ".repeat(n)}}`,
    );
  }

  /** `__schema { types { fields { type { ofType { ... } } } } }`, `n` deep, or fanned out. */
  deepIntrospection(n = this.pick([5, 20, 100, 1_000])): HostileRequest {
    if (this.rand() < 0.5) {
      const inner = "ofType { ".repeat(n) + "name" + " }".repeat(n);
      return this.#body(
        `deep-introspection ${n}`,
        `{ __schema { types { fields { type { ${inner} } } } } }`,
      );
    }
    // fields { type { fields { type ... } } }: each level multiplies by the fields of every type.
    const inner = "fields { type { ".repeat(Math.min(n, 50)) + "name" +
      " } }".repeat(Math.min(n, 50));
    return this.#body(
      `fanned-introspection ${Math.min(n, 50)}`,
      `{ __schema { types { ${inner} } } }`,
    );
  }

  /** One fragment spread `n` times in one selection, or `n` fragments spread side by side. */
  spreadFlood(n = this.pick([100, 1_000, 5_000])): HostileRequest {
    if (this.rand() < 0.5) {
      return this.#body(
        `spread-flood ${n} same`,
        `{ ${"...F ".repeat(n)}}\nfragment F on ${this.#query.name} { __typename }`,
      );
    }
    const fragments = Array.from(
      { length: n },
      (_, i) => `fragment F${i} on ${this.#query.name} { __typename }`,
    );
    return this.#body(
      `spread-flood ${n} distinct`,
      `{ ${fragments.map((_, i) => `...F${i}`).join(" ")} }\n${fragments.join("\n")}`,
    );
  }

  /** The same field selected `n` times (no aliases), at the root or in a node. */
  repeatedFields(n = this.pick([100, 1_000, 10_000])): HostileRequest {
    const edges = this.#edges(this.#query);
    if (!edges.length || this.rand() < 0.5) {
      return this.#body(`repeated-fields ${n}`, `{ ${"__typename ".repeat(n)}}`);
    }
    const field = this.pick(edges);
    return this.#body(
      `repeated-fields ${n} ${field.name}`,
      `{ ${this.#call(field)} ${this.#around(field, "__typename ".repeat(n))} }`,
    );
  }

  /** `n` operations in one document, the last one chosen. */
  operationFlood(n = this.pick([100, 1_000, 10_000])): HostileRequest {
    const text = Array.from({ length: n }, (_, i) => `query Q${i} { __typename }`).join("\n");
    return {
      kind: `operation-flood ${n}`,
      body: JSON.stringify({ query: text, operationName: `Q${n - 1}` }),
    };
  }

  /** `first`/`last`/`after`/`before` with odd values on a connection. */
  oddPaging(): HostileRequest {
    const connections = this.#rootFieldsWith("first");
    if (!connections.length) return this.oddArgument();
    const field = this.pick(connections);
    const paging = this.pick([
      "first: -1",
      "first: 2147483647",
      "last: 2147483647",
      "first: 1, last: 1",
      "first: 1e10",
      'after: "\\ud800"',
      'before: "eyJpZCI6WzEsMiwzXX0", last: 1',
      `after: "${"A".repeat(100_000)}"`,
    ]);
    const args = field.args.filter((a) => a.type instanceof GraphQLNonNull).map((a) =>
      `${a.name}: ${this.#plain(a.type)}`
    );
    return this.#body(
      `odd-paging ${field.name}(${paging.slice(0, 40)})`,
      `{ ${field.name}(${[...args, paging].join(", ")}) { __typename } }`,
    );
  }

  #rootFieldsWith(argument: string) {
    return Object.values(this.#query.getFields()).filter((f) =>
      f.args.some((a) => a.name === argument) &&
      f.args.every((a) => !(a.type instanceof GraphQLNonNull) || this.#canFill(a.type))
    );
  }

  /** Root fields' inputs (arguments, and input fields one level down) that `accept` takes. */
  #inputsOf(accept: (type: GraphQLInputType) => boolean) {
    const out: { field: GraphQLField<unknown, unknown>; path: string; type: GraphQLInputType }[] =
      [];
    for (const field of Object.values(this.#query.getFields())) {
      if (field.name.startsWith("__")) continue;
      for (const arg of field.args as readonly GraphQLArgument[]) {
        if (accept(arg.type)) out.push({ field, path: arg.name, type: arg.type });
        const named = getNamedType(arg.type);
        if (named instanceof GraphQLInputObjectType) {
          for (const input of Object.values(named.getFields())) {
            if (accept(input.type)) {
              out.push({ field, path: `${arg.name}.${input.name}`, type: input.type });
            }
          }
        }
      }
    }
    return out;
  }

  /** The root field with `value` at `path` (an argument, or an input field of one). */
  #withInput(field: GraphQLField<unknown, unknown>, path: string, value: string): string {
    const [arg, input] = path.split(".");
    const args = field.args.filter((a) => a.name !== arg && a.type instanceof GraphQLNonNull).map(
      (a) => `${a.name}: ${this.#plain(a.type)}`,
    );
    args.push(input ? `${arg}: { ${input}: ${value} }` : `${arg}: ${value}`);
    const paged = field.args.some((a) => a.name === "first") && arg !== "first" && arg !== "last";
    if (paged) args.push("first: 2");
    return `{ ${field.name}(${args.join(", ")}) { __typename } }`;
  }

  #body(kind: string, query: string): HostileRequest {
    return { kind, body: JSON.stringify({ query }) };
  }
}
