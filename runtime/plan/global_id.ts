/**
 * Global ids of the Relay Global Object Identification specification: encoding and decoding (the
 * key filters a decoded id selects its row with are `keys.ts`'s; `resolve/noder.ts` reads the
 * rows).
 *
 * The id format is chosen per generated schema (`GenerateOptions.globalIds`):
 *
 * - `opaque` (default): base64url of `<Type>:<primary key>`, so an id names its type and
 *   `node(id)` of another type's id is `NOT_FOUND`, never a wrong object;
 * - `universal`: the integer primary key; the type is the owner of the key's 2^32 range in the
 *   type table of `setupUniversalIds` (entgql's universal ids);
 * - `raw`: the primary key (a UUID, a prefixed ULID `todo_01H…`); the type comes from the
 *   user's `nodeType(id)` hook (entgql's `WithFixedNodeType`), else from the key's
 *   `IdPrefix`, else it is the only string-keyed type.
 *
 * @module
 */
import { base64UrlToText, prefixedTextToBase64Url } from "../jsutils/base64url.ts";
import type { Graph, NodeType } from "../graph.ts";

/** A decoded global id. */
export interface GlobalId {
  /** The node type the id names. */
  type: NodeType;
  /**
   * The primary key, typed as the node type's id kind (number, or string for bigint/string); the
   * JSON array of the parts' values for a composite key (`keys.ts`).
   */
  pk: string | number;
}

/**
 * Encodes the opaque global id of a row: RFC 4648 §5 base64url (no padding) of the UTF-8 text
 * `<type>:<pk>`, the default format (`globalIds: "opaque"`).
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { encodeGlobalId } from "@mikrogql/ext";
 *
 * assertEquals(encodeGlobalId("Post", 1), "UG9zdDox"); // base64url of "Post:1"
 * assertEquals(atob("UG9zdDox"), "Post:1");
 * ```
 *
 * @param type GraphQL type name, e.g. `"User"`
 * @param pk the row's primary key (written with `String(pk)`; a composite key as its JSON
 *   array)
 * @returns base64url of `<type>:<pk>`
 */
export function encodeGlobalId(type: string, pk: unknown): string {
  return prefixedTextToBase64Url(type, `:${String(pk)}`);
}

/**
 * The global id of the row of `type` with primary key `pk`, in the graph's id format: opaque
 * ({@linkcode encodeGlobalId}), or for `universal` and `raw` ids the key itself as a string.
 *
 * @example The id a client sees for a row your own code found
 * ```ts
 * import { MikroORM } from "@mikro-orm/core";
 * import { globalIdOf } from "@mikrogql/ext";
 * import config from "./mikro-orm.config.ts";
 * import { Post } from "./entities/post.ts";
 * import { graph } from "./generated/mod.ts";
 *
 * const orm = await MikroORM.init(config);
 * const post = await orm.em.fork().findOneOrFail(Post, { title: "Hello" });
 * const id = globalIdOf(graph, graph.types.Post, post.id); // "UG9zdDox" for post 1
 * await fetch("https://hooks.example.com/published", { method: "POST", body: id });
 * ```
 *
 * @param type the node type, `graph.types[<GraphQL type name>]`
 * @param pk the row's primary key
 */
export function globalIdOf(graph: Graph, type: NodeType, pk: unknown): string {
  return graph.ids === "opaque" ? encodeGlobalId(type.name, pk) : String(pk);
}

/**
 * Decodes a global id in the graph's id format.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { decodeGlobalId } from "@mikrogql/ext";
 * import { graph } from "./generated/mod.ts";
 *
 * const decoded = decodeGlobalId(graph, "UG9zdDox"); // base64url of "Post:1"
 * assertEquals(decoded?.type.name, "Post");
 * assertEquals(decoded?.pk, 1); // a number: Post's key is an integer
 * assertEquals(decodeGlobalId(graph, "UG9zdDpvbmU"), undefined); // "Post:one": not an integer
 * ```
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
 * A node of `type` is a `target`: the same type, or a class extending `target`'s within an
 * inheritance (a `CardPayment` id where a `Payment` id is expected, an `Owner` id where a
 * `Manager` or a `Staff` id is).
 */
export function isOfType(type: NodeType, target: string): boolean {
  return type.name === target || !!type.implements?.includes(target);
}
