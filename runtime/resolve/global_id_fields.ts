/**
 * The `id` fields of node types: a row's global id, made from its key. The resolver
 * (`createResolvers` installs it on every node type) reads the key from the row; for a type whose
 * key is one property named as the field, `id`, the same id can be made from that property's
 * value alone. The `Jit` plugin uses that to compile the field as a leaf read from the row and
 * serialized (`plugins/jit_schema.ts`): graphql-jit calls a field's resolver with a resolve info,
 * its response path and an arguments object made per call (some 15 objects per node of a nested
 * list, a quarter of what a 1,110-node answer allocates), a serializer with the value alone.
 *
 * @module
 */
import type { GraphQLFieldResolver } from "graphql";
import type { NodeType } from "../graph.ts";
import { type PrimaryKey, primaryKeyOf, primaryKeyOfValue } from "../keys.ts";

/** How an `id` field's value follows from the row's `id` property (the key). */
export interface GlobalIdSerialization {
  /** The global id of the row whose key property holds `value` (what the resolver returns). */
  serialize(value: unknown): string;
}

const SERIALIZATIONS = new WeakMap<object, GlobalIdSerialization>();

/**
 * The resolver of `type`'s `id` field: `idOf` of the row's primary key (`primaryKeyOf`). When the
 * key is the single property `id`, the resolver is registered with its
 * {@linkcode GlobalIdSerialization} ({@linkcode globalIdSerialization}).
 *
 * @param idOf the global id of a primary key in the graph's id format (`globalIdOf`)
 */
export function globalIdResolver(
  type: Pick<NodeType, "id">,
  idOf: (pk: PrimaryKey) => string,
): GraphQLFieldResolver<object, unknown> {
  const resolve = (row: object) => idOf(primaryKeyOf(type, row));
  if (!type.id.parts && type.id.prop === "id") {
    SERIALIZATIONS.set(resolve, { serialize: (value) => idOf(primaryKeyOfValue(value)) });
  }
  return resolve;
}

/**
 * The serialization of the `id` resolver `resolve` made by {@linkcode globalIdResolver}, or
 * `undefined` for any other function (a user's resolver, or ours wrapped by a plugin or a field
 * rule): such a field keeps its resolver.
 */
export function globalIdSerialization(resolve: unknown): GlobalIdSerialization | undefined {
  return typeof resolve === "function" ? SERIALIZATIONS.get(resolve) : undefined;
}
