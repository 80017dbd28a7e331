/**
 * A seeded random query generator over a generated schema, for the differential test: random
 * selections of scalar fields, unique edges, lists and nested connections up to depth 4, with
 * random `first`/`last`/`after`/`before` (cursors taken from earlier answers of the same type and
 * order), `orderBy` (single, multi, edge count, edge field), `where` (any predicate, `has<Edge>`,
 * `has<Edge>With`, `not`/`and`/`or`), `totalCount`, `pageInfo`, aliases of one edge with
 * different arguments, named and inline fragments, and the `node`/`nodes` entry points.
 *
 * Each query also carries the largest number of SQL statements field collection may spend on it,
 * computed from its shape alone (see {@linkcode GeneratedQuery.bound}).
 *
 * @module
 */
import {
  getNamedType,
  getNullableType,
  GraphQLEnumType,
  type GraphQLInputObjectType,
  type GraphQLInputType,
  GraphQLList,
  type GraphQLObjectType,
  type GraphQLSchema,
  isInputObjectType,
  isListType,
  isObjectType,
} from "graphql";
import type { Graph, NodeType } from "@mikrogql/ext";
import { hasPredicateName, predicateName } from "../../runtime/names.ts";
import { whereOps } from "../../runtime/plan/where_filter.ts";
import { base64UrlToText } from "../../runtime/jsutils/base64url.ts";

/** Values the generator draws ids and cursors from, filled from the data and earlier answers. */
export interface Pools {
  /** GraphQL type name -> global ids of its rows. */
  ids: Map<string, string[]>;
  /** `<type>|<order key>` -> cursors seen in answers. */
  cursors: Map<string, string[]>;
}

/** A generated operation. */
export interface GeneratedQuery {
  text: string;
  /**
   * The most SQL statements field collection may run for it: per root 1 (+1 for `totalCount`,
   * +1 when the order has SQL terms), per collected edge 1 (+1 for a paginated nested
   * `totalCount`, +1 for SQL order terms); `node`/`nodes` 1 per node type.
   */
  bound: number;
  /** Walks an answer and adds its cursors to the pools. */
  harvest(data: unknown): void;
  /** It selects an `Unbind()` edge, which its resolver loads per parent (no bound). */
  unbound: boolean;
}

type Walker = (value: unknown) => void;

/** Statement cost and cursor harvesting of a selection, built alongside its text. */
interface Part {
  text: string;
  cost: number;
  walk: Walker;
}

const DIRECTIONS = ["ASC", "DESC"];
const UUIDS = [
  "00000000-0000-4000-8000-000000000000",
  "80000000-0000-4000-8000-000000000000",
  "ffffffff-ffff-4fff-8fff-ffffffffffff",
];

/** Generates random queries over one schema. */
export class QueryGenerator {
  #fragments: string[] = [];
  #n = 0;
  #unbound = false;

  constructor(
    readonly graph: Graph,
    readonly schema: GraphQLSchema,
    readonly rand: () => number,
    readonly pools: Pools,
    /** The dialect's SQL order terms: dates always, enums on MariaDB. */
    readonly sqlKinds: Set<string> = new Set(["time"]),
    /**
     * The values a text column holding values compares with (a decimal's numbers, a date's ISO
     * dates), by type and property; `undefined` for a UUID column (UUIDs) or plain text.
     */
    readonly textValues: (type: NodeType, prop: string) => string[] | undefined = () => undefined,
  ) {}

  pick<T>(list: readonly T[]): T {
    return list[Math.floor(this.rand() * list.length)];
  }

  chance(p: number): boolean {
    return this.rand() < p;
  }

  /** One random operation. */
  query(): GeneratedQuery {
    this.#fragments = [];
    this.#unbound = false;
    const roots: Part[] = [];
    const count = this.chance(0.2) ? 2 : 1;
    for (let i = 0; i < count; i++) roots.push(this.root(i));
    const text = `query {\n${roots.map((r) => r.text).join("\n")}\n}\n${
      this.#fragments.join("\n")
    }`;
    return {
      text,
      bound: roots.reduce((n, r) => n + r.cost, 0),
      harvest: (data) => roots.forEach((r) => r.walk(data)),
      unbound: this.#unbound,
    };
  }

  root(i: number): Part {
    const types = Object.values(this.graph.types);
    const withQuery = types.filter((t) => this.graph.queryFields[t.name]);
    const alias = `r${i}`;
    const r = this.rand();
    if (r < 0.12) {
      const type = this.pick(types);
      const ids = this.pools.ids.get(type.name) ?? [];
      const id = ids.length && !this.chance(0.1) ? this.pick(ids) : "bm90OmFuSWQ";
      const body = this.nodeSelection(type, 1, true);
      return {
        text: `${alias}: node(id: ${JSON.stringify(id)}) { __typename ${body.text} }`,
        cost: 1 + body.cost,
        walk: (data) => body.walk(field(data, alias)),
      };
    }
    if (r < 0.22) {
      const picked = Array.from({ length: 1 + Math.floor(this.rand() * 4) }, () => {
        const type = this.pick(types);
        return { type, id: this.pick(this.pools.ids.get(type.name) ?? ["bm90OmFuSWQ"]) };
      });
      const byType = [...new Set(picked.map((p) => p.type))];
      const bodies = byType.map((type) => ({ type, body: this.nodeSelection(type, 1, true) }));
      // An interface's pool holds ids of its classes: `nodes` reads each class's ids apart.
      const classes = (type: NodeType) =>
        new Set(picked.filter((p) => p.type === type).map((p) => idTypeName(p.id) ?? type.name))
          .size;
      return {
        text: `${alias}: nodes(ids: ${JSON.stringify(picked.map((p) => p.id))}) { __typename ${
          bodies.map((b) => b.body.text).join(" ")
        } }`,
        cost: bodies.reduce((n, b) => n + classes(b.type) * (1 + b.body.cost), 0),
        walk: (data) => {
          for (const node of (field(data, alias) as unknown[] | null) ?? []) {
            const name = (node as { __typename?: string } | null)?.__typename;
            bodies.find((b) => b.type.name === name)?.body.walk(node);
          }
        },
      };
    }
    const type = this.pick(withQuery);
    const name = this.graph.queryFields[type.name];
    const conn = this.connection(type, 1, true);
    const key = this.chance(0.5) ? name : alias;
    return {
      text: `${key === name ? "" : `${key}: `}${name}${conn.args} ${conn.body.text}`,
      cost: conn.body.cost,
      walk: (data) => conn.body.walk(field(data, key)),
    };
  }

  /** The fields of a `type` node as an inline fragment `... on T { ... }` (for `node`/`nodes`). */
  nodeSelection(type: NodeType, depth: number, inline: boolean): Part {
    const body = this.selection(type, depth);
    return inline ? { ...body, text: `... on ${type.name} { ${body.text} }` } : body;
  }

  /** A random selection set body of `type` at edge depth `depth` (roots are depth 1). */
  selection(type: NodeType, depth: number): Part {
    const parts: Part[] = [];
    const scalars = Object.keys(type.fields);
    if (this.chance(0.6)) parts.push(plain("id"));
    if (this.chance(0.2)) parts.push(plain("__typename"));
    for (const name of scalars) {
      if (!this.chance(0.4)) continue;
      // An embedded field (`address: Address`) selects every leaf of its embeddable.
      const embedded = type.fields[name].embedded;
      parts.push(plain(embedded ? `${name} { ${this.leaves(embedded)} }` : name));
    }
    if (depth < 4) {
      for (const [name, edge] of Object.entries(type.edges)) {
        if (!this.chance(depth === 1 ? 0.45 : 0.3)) continue;
        // An interface's rows get no collected edges: their resolvers load them, and those of a
        // row also reached elsewhere (not bounded).
        if (type.abstract || this.graph.types[edge.target].abstract) this.#unbound = true;
        parts.push(this.edge(type, name, depth + 1));
        if (edge.connection && this.chance(0.15)) {
          parts.push(this.edge(type, name, depth + 1, true));
        }
      }
    }
    if (parts.length === 0) parts.push(plain("id"));
    // Move some parts into fragments.
    const out: Part[] = [];
    for (const part of parts) {
      const r = this.rand();
      if (r < 0.1) {
        out.push({ ...part, text: `... on ${type.name} { ${part.text} }` });
      } else if (r < 0.15 && /^(id|__typename)$/.test(part.text)) {
        out.push({ ...part, text: `... on Node { ${part.text} }` });
      } else if (r < 0.22) {
        const name = `F${this.#n++}`;
        this.#fragments.push(`fragment ${name} on ${type.name} { ${part.text} }`);
        out.push({ ...part, text: `...${name}` });
      } else out.push(part);
    }
    return {
      text: out.map((p) => p.text).join(" "),
      cost: out.reduce((n, p) => n + p.cost, 0),
      walk: (value) => {
        if (value == null) return;
        out.forEach((p) => p.walk(value));
      },
    };
  }

  /** Every leaf field of the object type `name` (an embeddable), nested objects included. */
  leaves(name: string): string {
    const type = this.schema.getType(name) as GraphQLObjectType;
    return Object.values(type.getFields()).map((f) => {
      const named = getNamedType(f.type);
      return isObjectType(named) ? `${f.name} { ${this.leaves(named.name)} }` : f.name;
    }).join(" ");
  }

  edge(type: NodeType, name: string, depth: number, forceAlias = false): Part {
    const edge = type.edges[name];
    const target = this.graph.types[edge.target];
    if (edge.unbound) this.#unbound = true;
    const alias = forceAlias || this.chance(0.1) ? `a${this.#n++}` : name;
    const head = alias === name ? name : `${alias}: ${name}`;
    if (!edge.connection) {
      const body = this.selection(target, depth);
      const unique = edge.kind === "m:1" || edge.kind === "1:1";
      const own = edge.unbound ? 0 : 1;
      return {
        text: `${head} { ${body.text} }`,
        cost: own + body.cost,
        walk: (value) => {
          const v = field(value, alias);
          if (unique) body.walk(v);
          else for (const item of (v as unknown[] | null) ?? []) body.walk(item);
        },
      };
    }
    const conn = this.connection(target, depth, false);
    return {
      text: `${head}${conn.args} ${conn.body.text}`,
      cost: edge.unbound ? 0 : conn.body.cost,
      walk: (value) => conn.body.walk(field(value, alias)),
    };
  }

  /** Arguments and selection of a connection of `type`; the cost includes its own statements. */
  connection(type: NodeType, depth: number, root: boolean): { args: string; body: Part } {
    const args: string[] = [];
    const orderFields = Object.keys(type.orderFields);
    const multi = this.multiOrder(type);
    let order: { field: string; direction: string }[] = [];
    if (orderFields.length && this.chance(0.55)) {
      const n = multi ? 1 + Math.floor(this.rand() * Math.min(3, orderFields.length)) : 1;
      const fields = [...orderFields].sort(() => this.rand() - 0.5).slice(0, n);
      order = fields.map((f) => ({ field: f, direction: this.pick(DIRECTIONS) }));
      const one = (o: { field: string; direction: string }) =>
        this.chance(0.2) && o.direction === "ASC"
          ? `{ field: ${o.field} }`
          : `{ field: ${o.field}, direction: ${o.direction} }`;
      args.push(
        multi && (order.length > 1 || this.chance(0.5))
          ? `orderBy: [${order.map(one).join(", ")}]`
          : `orderBy: ${one(order[0])}`,
      );
    }
    const orderKey = order.map((o) => o.field).join(",");
    const sqlTerms = order.some((o) => {
      const f = type.orderFields[o.field];
      return f.count || f.field || this.sqlKinds.has(f.kind);
    });
    const cursors = this.pools.cursors.get(`${type.name}|${orderKey}`) ?? [];
    const r = this.rand();
    let paginated = false;
    const size = () => this.pick([0, 1, 1, 2, 2, 3, 5]);
    if (r < 0.35) args.push(`first: ${size()}`);
    else if (r < 0.6) args.push(`last: ${size()}`);
    if (cursors.length && this.chance(0.4)) {
      args.push(`after: ${JSON.stringify(this.pick(cursors))}`);
    }
    if (cursors.length && this.chance(0.25)) {
      args.push(`before: ${JSON.stringify(this.pick(cursors))}`);
    }
    paginated = args.some((a) => /^(first|last|after|before):/.test(a));
    if (type.where && this.chance(0.35)) {
      args.push(`where: ${this.literal(this.where(type, 0), this.inputType(type.where.name))}`);
    }
    const parts: string[] = [];
    let totalCount = false;
    if (this.chance(0.35)) {
      parts.push("totalCount");
      totalCount = true;
    }
    if (this.chance(0.35)) {
      const info = ["hasNextPage", "hasPreviousPage", "startCursor", "endCursor"]
        .filter(() => this.chance(0.6));
      parts.push(`pageInfo { ${info.length ? info.join(" ") : "hasNextPage"} }`);
    }
    let node: Part | undefined;
    const withCursor = this.chance(0.7);
    if (parts.length === 0 || this.chance(0.85)) {
      node = this.selection(type, depth);
      parts.push(`edges { ${withCursor ? "cursor " : ""}node { ${node.text} } }`);
    }
    const key = `${type.name}|${orderKey}`;
    const own = 1 + (sqlTerms ? 1 : 0) + (totalCount && (root || paginated) ? 1 : 0);
    return {
      args: args.length ? `(${args.join(", ")})` : "",
      body: {
        text: `{ ${parts.join(" ")} }`,
        cost: own + (node?.cost ?? 0),
        walk: (value) => {
          const conn = value as {
            edges?: { cursor?: string; node: unknown }[];
            pageInfo?: { startCursor?: string; endCursor?: string };
          } | null;
          if (!conn) return;
          const found = [
            ...(conn.edges ?? []).map((e) => e.cursor),
            conn.pageInfo?.startCursor,
            conn.pageInfo?.endCursor,
          ].filter((c): c is string => typeof c === "string");
          if (found.length) {
            const pool = this.pools.cursors.get(key) ?? [];
            for (const c of found) if (!pool.includes(c)) pool.push(c);
            this.pools.cursors.set(key, pool.slice(-30));
          }
          for (const e of conn.edges ?? []) node?.walk(e.node);
        },
      },
    };
  }

  multiOrder(type: NodeType): boolean {
    const order = this.schema.getQueryType()?.getFields()[this.graph.queryFields[type.name] ?? ""]
      ?.args.find((a) => a.name === "orderBy");
    if (order) return isListType(getNullableType(order.type));
    for (const t of Object.values(this.graph.types)) {
      for (const [name, e] of Object.entries(t.edges)) {
        if (e.target !== type.name || !e.connection) continue;
        const object = this.schema.getType(t.name);
        if (!isObjectType(object)) continue;
        const arg = object.getFields()[name]?.args.find((a) => a.name === "orderBy");
        if (arg) return isListType(getNullableType(arg.type));
      }
    }
    return false;
  }

  inputType(name: string): GraphQLInputObjectType {
    return this.schema.getType(name) as GraphQLInputObjectType;
  }

  /** A random where input of `type` (as a plain object with enum values as names). */
  where(type: NodeType, depth: number): Record<string, unknown> {
    const where = type.where!;
    const input = this.inputType(where.name).getFields();
    const out: Record<string, unknown> = {};
    const n = 1 + (this.chance(0.3) ? 1 : 0);
    for (let i = 0; i < n; i++) {
      const r = this.rand();
      if (r < 0.12 && depth < 2) {
        out.not = this.where(type, depth + 1);
      } else if (r < 0.22 && depth < 2) {
        out[this.pick(["and", "or"])] = [this.where(type, depth + 1), this.where(type, depth + 1)];
      } else if (r < 0.42 && where.edges.length) {
        const edge = this.pick(where.edges);
        const target = this.graph.types[type.edges[edge].target];
        const withName = hasPredicateName(edge, true);
        if (depth < 2 && input[withName] && target.where && this.chance(0.6)) {
          out[withName] = [this.where(target, depth + 1)];
        } else out[hasPredicateName(edge)] = this.chance(0.5);
      } else {
        const [base, desc] = this.pick(Object.entries(where.fields));
        const op = this.pick(whereOps(desc));
        const name = predicateName(base, op);
        const fieldType = input[name]?.type;
        if (!fieldType) continue;
        out[name] = op === "IsNil" || op === "NotNil"
          ? true
          : ["string", "decimal", "date"].includes(desc.kind) && desc.ops === "comparison"
          // A UUID, decimal, date or time column: only such values compare with it.
          ? this.pick(this.textValues(type, desc.prop) ?? UUIDS)
          : this.inputValue(
            getNullableType(fieldType) as GraphQLInputType,
            desc.target ?? type.name,
          );
      }
    }
    return out;
  }

  inputValue(type: GraphQLInputType, idType: string): unknown {
    if (type instanceof GraphQLList) {
      return Array.from(
        { length: 1 + Math.floor(this.rand() * 2) },
        () => this.inputValue(getNullableType(type.ofType) as GraphQLInputType, idType),
      );
    }
    const named = getNamedType(type);
    if (named instanceof GraphQLEnumType) return { enum: this.pick(named.getValues()).name };
    switch (named.name) {
      case "ID":
        return this.pick(this.pools.ids.get(idType) ?? ["bm90OmFuSWQ"]);
      case "Int":
        return Math.floor(this.rand() * 4);
      case "Float":
        return this.pick([0.5, 1.5, 2]);
      case "Boolean":
        return this.chance(0.5);
      case "BigInt":
        return this.pick(["1", "2", "12884901888"]);
      case "Decimal":
        return this.pick(["0", "1.50", "-2.25", "10"]);
      case "Date":
        return this.pick(["2026-01-01", "2026-01-02", "1999-12-31"]);
      case "Time":
        return new Date(Date.UTC(2026, 0, 1) + Math.floor(this.rand() * 5) * 1000).toISOString();
      default:
        return this.pick(["a", "b", "ab", "A", "c", "ba", "x", "a1"]);
    }
  }

  /** `value` as a GraphQL literal of `type`. */
  literal(value: unknown, type: GraphQLInputType): string {
    if (value === null) return "null";
    if (typeof value === "object" && value && "enum" in value) {
      return String((value as { enum: string }).enum);
    }
    const nullable = getNullableType(type);
    if (Array.isArray(value)) {
      const item = nullable instanceof GraphQLList ? nullable.ofType : nullable;
      return `[${value.map((v) => this.literal(v, item)).join(", ")}]`;
    }
    if (isInputObjectType(nullable)) {
      const fields = nullable.getFields();
      return `{ ${
        Object.entries(value as Record<string, unknown>).map(([k, v]) =>
          `${k}: ${this.literal(v, fields[k].type)}`
        ).join(", ")
      } }`;
    }
    return JSON.stringify(value);
  }
}

function plain(name: string): Part {
  return { text: name, cost: 0, walk: () => {} };
}

function field(value: unknown, key: string): unknown {
  return (value as Record<string, unknown> | null)?.[key];
}

/** The type name a `Type:key` global id names, or `undefined` for another id format. */
function idTypeName(id: string): string | undefined {
  const text = base64UrlToText(id);
  return text === undefined ? undefined : /^([A-Za-z_]\w*):/.exec(text)?.[1];
}
