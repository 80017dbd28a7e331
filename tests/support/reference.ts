/**
 * The reference server of the differential test: the generated schema with resolvers that load
 * every field per parent with plain MikroORM calls (no field collection, no batching, no keyset
 * SQL) and paginate in JavaScript by the Relay Cursor Connections algorithm and entgql's rules.
 *
 * Shared with the runtime are only conventions, not loading: id and cursor formats, a row's key
 * (`keys.ts`: its parts' values, and the filter naming a key), the enum and scalar resolvers, `orderBy` validation (`orderTerms`) and the where-input translation
 * (`whereFilter`, tested on its own in where_test.ts).
 *
 * Ordering in JavaScript equals the databases' only for the data the differential test writes:
 * lower-case ASCII text (MariaDB's default collation ignores case), dates in milliseconds.
 *
 * @module
 */
import {
  type Collection,
  type EntityManager,
  type EntityMetadata,
  ScalarReference,
  wrap,
} from "@mikro-orm/core";
import type { GraphQLSchema } from "graphql";
import { createSchema } from "graphql-yoga";
import {
  createResolvers,
  type Graph,
  type GraphHooks,
  type NodeType,
  type ResolverMap,
} from "@mikrogql/ext";
import { base64UrlToText } from "../../runtime/jsutils/base64url.ts";
import { encodeCursor } from "../../runtime/plan/cursor.ts";
import { dialectOf, exactValue } from "../../runtime/dialect.ts";
import { ErrorCode, gqlError } from "../../runtime/error_codes.ts";
import { type EdgeOrderTerm, withHooks } from "../../runtime/graph.ts";
import { decodeGlobalId } from "../../runtime/plan/global_id.ts";
import { keyFilter, keyParts, keyValues, primaryKeyOf } from "../../runtime/keys.ts";
import type { PaginationArgs } from "../../runtime/plan/relay_connection.ts";
import { type OrderTerm, orderTerms } from "../../runtime/plan/order_terms.ts";
import { whereFilter, whereTargets } from "../../runtime/plan/where_filter.ts";
import { prepareReadFilters } from "../../runtime/plan/read_filters.ts";

type Row = Record<string, unknown>;
type Ctx = { em: EntityManager };

/** Builds the reference schema for `typeDefs` (the generated SDL) and `graph`. */
export function referenceSchema(
  typeDefs: string,
  generated: Graph,
  hooks: GraphHooks = {},
): GraphQLSchema {
  const graph = withHooks(generated, hooks);
  const map: ResolverMap = createResolvers(graph, hooks);
  const query: Record<string, unknown> = {
    node: (_: unknown, args: { id: string }, ctx: Ctx) => loadNode(ctx.em, graph, args.id),
    nodes: (_: unknown, args: { ids: string[] }, ctx: Ctx) =>
      Promise.all(args.ids.map((id) => loadNode(ctx.em, graph, id).catch((e: Error) => e))),
  };
  for (const type of Object.values(graph.types)) {
    const field = graph.queryFields[type.name];
    if (field) {
      query[field] = async (_: unknown, args: Args, ctx: Ctx) => {
        await prepareReadFilters(ctx.em, whereTargets(ctx.em, graph, type.name, args.where));
        const rows = await ctx.em.find(
          type.entity,
          whereFilter(ctx.em, graph, type.name, args.where),
        );
        return await connection(ctx.em, type, rows as Row[], args);
      };
    }
    // A class with rows of its own and subclasses: its fields resolve on its own rows' type.
    const fields = map[type.rows ?? type.name] as Record<string, unknown>;
    for (const [name, field] of Object.entries(type.fields)) {
      // A lazy property (a `ref: true` scalar among them) is loaded per row when selected.
      fields[name] = async (row: Row, _: unknown, ctx: Ctx) => {
        const prop = ctx.em.getMetadata().find(type.entity)?.properties[field.prop];
        let value = row[field.prop];
        const unloaded = value === undefined ||
          (ScalarReference.isScalarReference(value) && !value.isInitialized());
        if (prop?.lazy && unloaded) {
          await ctx.em.populate(row, [field.prop] as never[]);
          value = row[field.prop];
        }
        return ScalarReference.isScalarReference(value) ? value.unwrap() ?? null : value;
      };
    }
    for (const [name, edge] of Object.entries(type.edges)) {
      const target = graph.types[edge.target];
      fields[name] = async (row: Row, args: Args, ctx: Ctx) => {
        const em = ctx.em;
        if (edge.kind === "m:1" || (edge.kind === "1:1" && !edge.inverse)) {
          const ref = row[edge.prop];
          if (ref == null) return null;
          // A `mapToPk` relation holds the key itself.
          const pk = typeof ref === "object" ? wrap(ref, true).getPrimaryKey() : ref;
          return await em.findOne(target.entity, pk as never);
        }
        if (edge.kind === "1:1") {
          return await em.findOne(target.entity, { [edge.inverse!]: ownKey(type, row) });
        }
        await prepareReadFilters(em, whereTargets(em, graph, target.name, args.where));
        const filter = edge.connection ? whereFilter(em, graph, target.name, args.where) : {};
        let rows: Row[];
        if (edge.inverse) {
          rows = await em.find(target.entity, {
            $and: [{ [edge.inverse]: ownKey(type, row) }, filter],
          } as never) as Row[];
        } else {
          // Unidirectional m:n: the parent's keys, then the filter on them.
          const items = await (row[edge.prop] as Collection<object>).loadItems() as Row[];
          rows = items.length === 0 ? [] : await em.find(target.entity, {
            $and: [{ $or: items.map((i) => ownKey(target, i)) }, filter],
          } as never) as Row[];
        }
        if (!edge.connection) {
          // A declared collection order sorts the list as it sorts a connection without orderBy.
          return edge.order
            ? (await connection(em, target, rows, {}, edge.order)).edges.map((e) => e.node)
            : (rows as Row[]).toSorted((a, b) => compareKeys(target, a, b));
        }
        return await connection(em, target, rows as Row[], args, edge.order);
      };
    }
    // The schema keeps a type's connection only where a field returns it.
    if (map[`${type.name}Connection`]) {
      map[`${type.name}Connection`] = { totalCount: (c: Row) => c.totalCount as number };
    }
  }
  map.Query = query as ResolverMap["Query"];
  delete map.Mutation;
  return createSchema({ typeDefs, resolvers: map as never });
}

type Args = PaginationArgs & { where?: unknown };

async function loadNode(em: EntityManager, graph: Graph, id: string): Promise<object> {
  const decoded = decodeGlobalId(graph, id);
  const row = decoded &&
    await em.findOne(decoded.type.entity, keyFilter(decoded.type, decoded.pk));
  if (!row) {
    throw gqlError(
      ErrorCode.NOT_FOUND,
      `Could not resolve to a node with the global id of '${id}'`,
    );
  }
  return row;
}

/** The key values of a row of `type` (one per key part). */
function keyOf(type: NodeType, row: Row): unknown[] {
  return keyValues(type, row);
}

/** The filter selecting `row` of `type` by its key. */
function ownKey(type: NodeType, row: Row): Record<string, unknown> {
  return keyFilter(type, primaryKeyOf(type, row));
}

/** Two rows of `type` by key, part by part. */
function compareKeys(type: NodeType, a: Row, b: Row): number {
  const x = keyOf(type, a);
  const y = keyOf(type, b);
  for (let i = 0; i < x.length; i++) {
    const c = compare(x[i], y[i]);
    if (c !== 0) return c;
  }
  return 0;
}

/** A comparable form of a value: numbers, bigints, strings, or null. */
function comparable(value: unknown, kind: string): unknown {
  if (value == null) return null;
  if (value instanceof Date) return BigInt(value.getTime()) * 1000n;
  if (kind === "time" || kind === "exactTime") return micros(value);
  if (kind === "bigint") return BigInt(value as string);
  if (typeof value === "boolean") return value ? 1 : 0;
  return value;
}

/** Microseconds since the epoch of a database timestamp (text or SQLite epoch milliseconds). */
function micros(value: unknown): bigint {
  if (typeof value === "number") return BigInt(value) * 1000n;
  if (typeof value === "bigint") return value * 1000n;
  const text = String(value);
  const m = /^(\d{4}-\d\d-\d\d)[ T](\d\d:\d\d:\d\d)(?:\.(\d{1,9}))?(Z|[+-]\d\d(?::?\d\d)?)?$/
    .exec(text);
  if (!m) {
    if (/^\d+$/.test(text)) return BigInt(text) * 1000n;
    throw new Error(`not a timestamp: ${text}`);
  }
  const zone = !m[4] || m[4] === "Z" ? "Z" : m[4].length === 3 ? `${m[4]}:00` : m[4];
  const seconds = BigInt(Date.parse(`${m[1]}T${m[2]}${zone}`)) * 1000n;
  return seconds + BigInt((m[3] ?? "").padEnd(6, "0").slice(0, 6) || "0");
}

function compare(a: unknown, b: unknown): number {
  if (a === b) return 0;
  if (a === null) return -1;
  if (b === null) return 1;
  return (a as number) < (b as number) ? -1 : (a as number) > (b as number) ? 1 : 0;
}

interface Keyed {
  row: Row;
  /** The raw cursor values (one per term). */
  values: unknown[];
  /** The comparable sort keys, the id last. */
  keys: unknown[];
}

/** The cursor value of one order term for `row`, read per row with plain MikroORM calls. */
async function termValue(
  em: EntityManager,
  type: NodeType,
  term: OrderTerm,
  row: Row,
): Promise<unknown> {
  if (term.count) {
    return await (row[term.path] as Collection<object>).loadCount({ refresh: true });
  }
  if (term.field) {
    const ref = row[term.path];
    if (ref == null) return null;
    const meta = em.getMetadata().find(type.entity)!;
    const target = meta.properties[term.path].targetMeta!;
    const id = typeof ref === "object" ? wrap(ref, true).getPrimaryKey() : ref;
    if (term.kind === "time") return await exact(em, target, term.field, [id].flat());
    const loaded = await em.findOne(target.class, id as never) as Row;
    return loaded[term.field] ?? null;
  }
  if (term.kind === "time") {
    return await exact(em, em.getMetadata().find(type.entity)!, term.path, keyOf(type, row));
  }
  return row[term.path] ?? null;
}

/** The database's own text of a timestamp column (the cursor value of date order terms). */
async function exact(em: EntityManager, meta: EntityMetadata, prop: string, key: unknown[]) {
  const q = (name: string) => em.getPlatform().quoteIdentifier(name);
  const column = exactValue(dialectOf(em), q(meta.properties[prop].fieldNames[0]));
  const [found] = await em.getConnection().execute(
    `select ${column} as v from ${q(meta.tableName)} where ${
      meta.primaryKeys.map((k) => `${q(meta.properties[k].fieldNames[0])} = ?`).join(" and ")
    }`,
    key,
  );
  return found?.v ?? null;
}

/**
 * A connection over all of a parent's rows, by the Relay algorithm: sort (order terms, or the
 * edge's declared order without them; nulls smallest, then the key, part by part: in the single
 * term's direction, ascending for `MultiOrder()` lists and declared orders),
 * drop rows up to `after` and from `before`, then keep the first or last `n`.
 */
async function connection(
  em: EntityManager,
  type: NodeType,
  rows: Row[],
  args: Args,
  declared?: EdgeOrderTerm[],
) {
  // Without orderBy, an edge's declared order (MikroORM `orderBy` on the collection), key ascending.
  const byDeclared = !!declared && [args.orderBy ?? []].flat().length === 0;
  const terms: OrderTerm[] = byDeclared
    ? declared.map((t) => ({
      path: t.prop,
      kind: t.kind,
      direction: t.direction,
      nullable: t.nullable,
    }))
    : orderTerms(type, args.orderBy);
  const multi = Array.isArray(args.orderBy) || byDeclared;
  const parts = keyParts(type);
  const idDirection = multi ? "ASC" : terms.at(-1)?.direction ?? "ASC";
  const directions = [...terms.map((t) => t.direction), ...parts.map(() => idDirection)];
  const kinds = [...terms.map((t) => t.count ? "int" : t.kind), ...parts.map((p) => p.kind)];
  const order = (args.orderBy == null ? [] : [args.orderBy].flat()).map((o) => o.field).join(",");
  const keyed: Keyed[] = [];
  for (const row of rows) {
    const values = [];
    for (const term of terms) values.push(await termValue(em, type, term, row));
    const keys = [...values, ...keyOf(type, row)].map((v, i) => comparable(v, kinds[i]));
    keyed.push({ row, values, keys });
  }
  const cmp = (a: unknown[], b: unknown[]) => {
    for (let i = 0; i < a.length; i++) {
      const c = compare(a[i], b[i]);
      if (c !== 0) return directions[i] === "DESC" ? -c : c;
    }
    return 0;
  };
  keyed.sort((a, b) => cmp(a.keys, b.keys));
  const cursorKeys = (cursor: string) => {
    const [id, values] = JSON.parse(base64UrlToText(cursor)!) as [unknown, unknown[]];
    const key = type.id.parts ? id as unknown[] : [id];
    return [...values, ...key].map((v, i) => comparable(v, kinds[i]));
  };
  let edges = keyed;
  if (args.after != null) {
    const at = cursorKeys(args.after);
    edges = edges.filter((e) => cmp(e.keys, at) > 0);
  }
  if (args.before != null) {
    const at = cursorKeys(args.before);
    edges = edges.filter((e) => cmp(e.keys, at) < 0);
  }
  // The spec's HasNextPage / HasPreviousPage: with `first` (`last`), whether it cut the rows the
  // cursors leave; without it, whether `before` (`after`) was given.
  let hasNextPage = args.before != null;
  let hasPreviousPage = args.after != null;
  if (args.first != null) {
    hasNextPage = edges.length > args.first;
    edges = edges.slice(0, args.first);
  }
  if (args.last != null) {
    hasPreviousPage = edges.length > args.last;
    edges = edges.slice(Math.max(0, edges.length - args.last));
  }
  const out = edges.map((e) => ({
    node: e.row,
    cursor: encodeCursor({
      id: type.id.parts ? keyOf(type, e.row) : keyOf(type, e.row)[0],
      values: e.values,
      order,
      type: type.name,
    }),
  }));
  return {
    edges: out,
    pageInfo: {
      hasNextPage,
      hasPreviousPage,
      startCursor: out[0]?.cursor ?? null,
      endCursor: out.at(-1)?.cursor ?? null,
    },
    totalCount: rows.length,
  };
}
