/**
 * Global ids and node resolution: the `node(id)` and `nodes(ids)` root fields of the Relay
 * Global Object Identification specification, and entgql's `Noder`/`Noders`.
 *
 * The id format is chosen per generated schema (`GenerateOptions.globalIds`):
 *
 * - `opaque` (default): base64url of `<Type>:<primary key>`, so an id names its type and
 *   `node(id)` of another type's id is `NOT_FOUND`, never a wrong object;
 * - `universal`: the integer primary key; the type is the owner of the key's 2^32 range in the
 *   type table of `setupUniversalIds` (entgql's universal ids);
 * - `raw`: the primary key (a UUID, a prefixed ULID `todo_01H…`); the type comes from the
 *   user's `nodeType(id)` hook (the spec's `WithFixedNodeType`), else from the key's
 *   `IdPrefix`, else it is the only string-keyed type.
 *
 * @module
 */
import { type EntityManager, Reference, wrap } from "@mikro-orm/core";
import { base64UrlToText, textToBase64Url } from "./base64url.ts";
import { ErrorCode, gqlError, MAX_QUOTED_INPUT } from "../error_codes.ts";
import type { Graph, NodeType } from "../graph.ts";
import { findRows } from "../sql/load_plan.ts";
import { allSettled } from "../sql/all_settled.ts";

/** A decoded global id. */
export interface GlobalId {
  /** The node type the id names. */
  type: NodeType;
  /** The primary key, typed as the node type's id kind (number, or string for bigint/string). */
  pk: string | number;
}

/**
 * Encodes the opaque global id of a row.
 *
 * @param type GraphQL type name, e.g. `"User"`
 * @param pk the row's primary key
 * @returns base64url of `<type>:<pk>`
 */
export function encodeGlobalId(type: string, pk: unknown): string {
  return textToBase64Url(`${type}:${String(pk)}`);
}

/**
 * The global id of the row of `type` with primary key `pk`, in the graph's id format.
 */
export function globalIdOf(graph: Graph, type: NodeType, pk: unknown): string {
  return graph.ids === "opaque" ? encodeGlobalId(type.name, pk) : String(pk);
}

/**
 * Decodes a global id in the graph's id format.
 *
 * @returns the type and primary key, or `undefined` when the id is malformed, names no type, or
 *   holds a key of the wrong kind
 * @throws Error for `universal` ids when the schema was built without the type table
 *   (`createSchema({ universalIds: await setupUniversalIds(em, graph) })`)
 */
export function decodeGlobalId(graph: Graph, id: string): GlobalId | undefined {
  if (graph.ids === "universal") return decodeUniversal(graph, id);
  if (graph.ids === "raw") {
    const type = rawIdType(graph, id);
    return type && keyOf(type, id);
  }
  const text = base64UrlToText(id);
  const colon = text?.indexOf(":") ?? -1;
  if (!text || colon <= 0) return undefined;
  const type = graph.types[text.slice(0, colon)];
  return type && keyOf(type, text.slice(colon + 1));
}

function decodeUniversal(graph: Graph, id: string): GlobalId | undefined {
  const table = graph.hooks?.universalIds;
  if (!table) {
    throw new Error(
      "universal global ids need the type table: createSchema({ universalIds: await setupUniversalIds(em, graph) })",
    );
  }
  if (!/^\d+$/.test(id)) return undefined;
  const type = graph.types[table[Number(BigInt(id) >> 32n)]];
  return type && keyOf(type, id);
}

function rawIdType(graph: Graph, id: string): NodeType | undefined {
  const named = graph.hooks?.nodeType?.(id);
  if (named !== undefined) return graph.types[named];
  const underscore = id.indexOf("_");
  const types = Object.values(graph.types);
  if (underscore > 0) {
    const prefix = id.slice(0, underscore);
    const type = types.find((t) => t.prefix === prefix);
    if (type) return type;
  }
  const candidates = types.filter((t) => t.id.kind === "string" && !t.prefix);
  return candidates.length === 1 ? candidates[0] : undefined;
}

/** The primary key of `type` written as `raw`, or `undefined` when it is not of the key's kind. */
function keyOf(type: NodeType, raw: string): GlobalId | undefined {
  const parts = type.id.parts;
  if (parts) {
    let values: unknown;
    try {
      values = JSON.parse(raw);
    } catch {
      return undefined;
    }
    if (!Array.isArray(values) || values.length !== parts.length) return undefined;
    const ok = parts.every((p, i) =>
      p.kind === "int" ? Number.isSafeInteger(values[i]) : typeof values[i] === "string"
    );
    return ok ? { type, pk: JSON.stringify(values) } : undefined;
  }
  switch (type.id.kind) {
    case "int":
      return /^-?\d+$/.test(raw) && Number.isSafeInteger(Number(raw))
        ? { type, pk: Number(raw) }
        : undefined;
    case "bigint":
      return /^-?\d+$/.test(raw) ? { type, pk: raw } : undefined;
    default:
      return raw === "" ? undefined : { type, pk: raw };
  }
}

/**
 * A node of `type` is a `target`: the same type, or a class of the inheritance root `target`
 * (a `CardPayment` id where a `Payment` id is expected).
 */
export function isOfType(type: NodeType, target: string): boolean {
  return type.name === target || type.implements === target;
}

/**
 * The primary key value of a row of `type`: the key column, or for a relation primary key (a
 * shipment keyed by its order) the key of the row it points to.
 */
export function primaryKeyOf(type: NodeType, row: object): unknown {
  const valueOf = (prop: string) => {
    const value = (row as Record<string, unknown>)[prop];
    return value !== null && typeof value === "object" && !(value instanceof Date)
      ? wrap(Reference.unwrapReference(value), true).getPrimaryKey()
      : value;
  };
  const parts = type.id.parts;
  if (!parts) return valueOf(type.id.prop);
  // A composite key: the JSON array of its parts (64-bit parts as strings), as in global ids.
  return JSON.stringify(parts.map((p) => {
    const value = valueOf(p.prop);
    return p.kind === "int" ? Number(value) : String(value);
  }));
}

/**
 * The filter selecting the row of `type` with the primary key `pk` (a decoded global id's):
 * `{ id: 1 }`, or for a composite key `{ book: 1, author: 2 }`.
 */
export function keyFilter(type: NodeType, pk: string | number): Record<string, unknown> {
  const parts = type.id.parts;
  if (!parts) return { [type.id.prop]: pk };
  const values = JSON.parse(String(pk)) as unknown[];
  return Object.fromEntries(parts.map((p, i) => [p.prop, values[i]]));
}

/** The filter selecting the rows of `type` with the primary keys `pks`. */
export function keysFilter(type: NodeType, pks: (string | number)[]): Record<string, unknown> {
  return type.id.parts
    ? { $or: pks.map((pk) => keyFilter(type, pk)) }
    : { [type.id.prop]: { $in: pks } };
}

/**
 * The `NOT_FOUND` error for a global id, with entgql's text (an id longer than
 * `MAX_QUOTED_INPUT` characters is cut).
 */
export function notFound(id: string): Error {
  return gqlError(
    ErrorCode.NOT_FOUND,
    `Could not resolve to a node with the global id of '${
      id.length <= MAX_QUOTED_INPUT
        ? id
        : `${id.slice(0, MAX_QUOTED_INPUT)}… (${id.length} characters)`
    }'`,
  );
}

/**
 * The properties to read for rows of a node type (the collected ones), `undefined` for every
 * column as a managed entity.
 */
export type NodeFields = (type: NodeType) => string[] | undefined;

/**
 * Resolves one global id to its row (entgql `Noder`).
 *
 * @param fields the properties to read: given, the row is read with only them, as a record of
 *   the lean read path when they allow it (`findRows`); else as a managed entity
 * @throws GraphQLError `NOT_FOUND` naming the id when it is malformed or names no row
 */
export async function noder(
  em: EntityManager,
  graph: Graph,
  id: string,
  fields: NodeFields = () => undefined,
): Promise<object> {
  return await findNode(em, id, decodeGlobalId(graph, id), fields);
}

/**
 * The row of the global id `id` already decoded as `decoded` ({@linkcode noder} without the
 * decoding, for a caller that decoded the id itself).
 *
 * @throws GraphQLError `NOT_FOUND` naming the id when `decoded` is `undefined` or names no row
 */
export async function findNode(
  em: EntityManager,
  id: string,
  decoded: GlobalId | undefined,
  fields: NodeFields = () => undefined,
): Promise<object> {
  if (!decoded) throw notFound(id);
  const [row] = await findRows(em, decoded.type, keyFilter(decoded.type, decoded.pk), {
    fields: fields(decoded.type),
  });
  if (!row) throw notFound(id);
  return row;
}

/**
 * Resolves many global ids (entgql `Noders`): one query per node type, results in input order,
 * duplicates kept (`fields` as for {@linkcode noder}). A missing id yields an `Error` in its
 * slot, which GraphQL turns into `null` plus a `NOT_FOUND` error at that index.
 */
export async function noders(
  em: EntityManager,
  graph: Graph,
  ids: readonly string[],
  fields: NodeFields = () => undefined,
): Promise<(object | Error)[]> {
  const decoded = ids.map((id) => decodeGlobalId(graph, id));
  const byType = new Map<NodeType, Set<string | number>>();
  for (const d of decoded) {
    if (d) byType.set(d.type, (byType.get(d.type) ?? new Set()).add(d.pk));
  }
  const found = new Map<string, object>();
  await allSettled([...byType].map(async ([type, pks]) => {
    const rows = await findRows(em, type, keysFilter(type, [...pks]), {
      fields: fields(type),
    });
    for (const row of rows) {
      found.set(
        `${type.name}:${String(primaryKeyOf(type, row))}`,
        row,
      );
    }
  }));
  return ids.map((id, i) => {
    const d = decoded[i];
    return (d && found.get(`${d.type.name}:${String(d.pk)}`)) ?? notFound(id);
  });
}
