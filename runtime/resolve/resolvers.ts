/**
 * Builds the GraphQL resolver map of a generated graph: `Query.node`, `Query.nodes`, one root
 * connection per type with a query field, global-id `id` fields, renamed fields, enum value
 * mappings, edges, `totalCount` (of the connections the schema has: a root field's or a
 * connection edge's), `Node.__resolveType` and the custom scalars.
 *
 * @module
 */
import type { GraphQLFieldResolver, GraphQLScalarType } from "graphql";
import { ScalarReference } from "@mikro-orm/core";
import type { CollectLimits } from "../plan/field_collection.ts";
import { resolveEdge } from "./edge_fields.ts";
import { globalIdResolver } from "./global_id_fields.ts";
import { type Graph, type GraphHooks, type NodeType, nodeTypeOf, withHooks } from "../graph.ts";
import { mutationResolvers } from "./mutation_resolvers.ts";
import { connectionName } from "../names.ts";
import { globalIdOf } from "../plan/global_id.ts";
import type { Connection, PaginationArgs } from "../plan/relay_connection.ts";
import { type RequestState, requestState } from "../request/request_state.ts";
import { resolveConnection, resolveNode, resolveNodes } from "./root_fields.ts";
import { offerPlannedReads } from "./planned_operations.ts";
import {
  BigIntScalar,
  BytesScalar,
  CursorScalar,
  DateScalar,
  DecimalScalar,
  JSONScalar,
  TimeScalar,
} from "./scalars.ts";
import type { ReadFrom } from "../database/read_from.ts";
import type { Policy } from "../policy.ts";
import { attachPolicies } from "../policy_binding.ts";
import { guardedFieldResolver, guardedFields } from "./field_rules.ts";
import { fromContext, type MikroContext } from "../request/context.ts";
import { nodeBudget } from "../node_budget.ts";
import { errorBudget } from "../error_budget.ts";
import { type SubscriptionFieldOptions, subscriptionResolvers } from "./subscription_fields.ts";

/**
 * Options of {@linkcode createResolvers}: the page-size limit (`maxPageSize`), the runtime hooks
 * (`nodeType`, `where`, `universalIds`), and `readFrom`. The depth of an operation is limited
 * before it executes, by the `Limits` plugin (`maxDepth`).
 */
export type ResolverOptions = CollectLimits & GraphHooks & {
  /**
   * Where reads outside a transaction go when MikroORM has read replicas: `"replica"` (the
   * default: MikroORM's read connection) or `"primary"`. A request's `ctx.readFrom` wins; a
   * mutation operation's reads always come from the primary.
   */
  readFrom?: ReadFrom;
  /**
   * The policies of the schema's entities (`definePolicy`): read rules in every statement,
   * write rules on every generated mutation and `createNode`/`updateNode`/`deleteNode`, field
   * read rules on the fields they name. Without it nothing is restricted.
   */
  // deno-lint-ignore no-explicit-any
  policies?: readonly Policy<any, any>[];
  /**
   * The request's viewer the policies are evaluated for, read from the GraphQL context (so any
   * authentication works: a JWT plugin's claims, a session, an API key). Default: `ctx.viewer`.
   */
  viewer?: (ctx: MikroContext) => unknown;
  /** The generated change feeds' options (`Subscriptions()`): the re-read deadline. */
  subscriptions?: SubscriptionFieldOptions;
};

/**
 * The function that keeps the schema's policies and the request's viewer on a GraphQL context
 * (`policy_binding.ts`), so `fromContext` binds them to the EntityManagers it returns; a no-op
 * without policies.
 */
export function policyAttacher(
  options: ResolverOptions,
  graph: Graph,
): (ctx: MikroContext) => void {
  const policies = options.policies;
  if (!policies || policies.length === 0) return () => {};
  const viewer = options.viewer ?? ((ctx: MikroContext) => ctx.viewer);
  const entities = nodeEntities(graph);
  return (ctx) => attachPolicies(ctx, () => ({ policies, viewer: viewer(ctx), entities }));
}

/** The entities of `graph`'s node types, one list per graph. */
function nodeEntities(graph: Graph): readonly NodeType["entity"][] {
  let found = NODE_ENTITIES.get(graph);
  if (!found) {
    found = [...new Set(Object.values(graph.types).map((type) => type.entity))];
    NODE_ENTITIES.set(graph, found);
  }
  return found;
}

const NODE_ENTITIES = new WeakMap<Graph, readonly NodeType["entity"][]>();

/** A field resolver of a {@linkcode ResolverMap}: graphql-js's, over mikrogql's context. */
export type Resolver = GraphQLFieldResolver<
  Record<string, unknown>,
  MikroContext,
  Record<string, unknown>
>;

/** A resolver map as `createSchema`/`makeExecutableSchema` takes it. */
export type ResolverMap = Record<
  string,
  | GraphQLScalarType
  | Record<
    string,
    Resolver | string | number | { (obj: object): string | undefined }
  >
>;

/**
 * Builds the resolver map for `graph`: `Query.node`/`nodes`, the root connections, the node
 * types' `id` (global ids), renamed fields and edges, `<T>Connection.totalCount`, the generated
 * mutations, the enums and the custom scalars. The generated `resolvers.ts` is this call on the
 * generated graph.
 *
 * @example The generated resolvers in a schema assembled by hand
 * ```ts
 * import { createSchema } from "graphql-yoga";
 * import { createResolvers } from "@mikrogql/ext";
 * import { graph, typeDefs } from "./generated/mod.ts";
 *
 * const schema = createSchema({
 *   typeDefs: [typeDefs, "extend type Query { ping: String! }"],
 *   resolvers: [createResolvers(graph, { maxPageSize: 100 }), {
 *     Query: { ping: () => "pong" },
 *   }],
 * });
 * ```
 *
 * @param generated the joined generated tables ({@linkcode defineGraph})
 * @param options the page-size limit (`maxPageSize`, default 1,000), the runtime hooks and
 *   `readFrom`
 * @returns resolvers by type name, then field name, as graphql-tools' `makeExecutableSchema`
 *   and Yoga's `createSchema` take them
 * @throws Error when a policy's field rule names a property that is no field of its entity
 */
export function createResolvers(
  generated: Graph,
  options: ResolverOptions = {},
): ResolverMap {
  const graph = withHooks(generated, options);
  const attach = policyAttacher(options, graph);
  const guarded = guardedFields(graph, options.policies ?? []);
  /** The context of the request of a resolver call (reads go where `readFrom` says). */
  const request = (ctx: MikroContext): RequestState => {
    attach(ctx);
    return requestState(fromContext(ctx, options.readFrom), graph, options, nodeBudget(ctx));
  };
  const query: Record<string, Resolver> = {
    node: (_root, args, ctx, info) => resolveNode(request(ctx), args.id as string, info),
    nodes: (_root, args, ctx, info) =>
      resolveNodes(request(ctx), args.ids as string[], info, errorBudget(ctx)),
  };
  const kinds = new Set(
    Object.values(graph.types).flatMap((t) => Object.values(t.fields).map((f) => f.kind)),
  );
  const map: ResolverMap = {
    Cursor: CursorScalar,
    ...(kinds.has("time") ? { Time: TimeScalar } : {}),
    ...(kinds.has("date") ? { Date: DateScalar } : {}),
    ...(kinds.has("decimal") ? { Decimal: DecimalScalar } : {}),
    ...(kinds.has("bigint") ? { BigInt: BigIntScalar } : {}),
    ...(kinds.has("json") ? { JSON: JSONScalar } : {}),
    ...(kinds.has("bytes") ? { Bytes: BytesScalar } : {}),
    Node: { __resolveType: (obj: object) => objectTypeOf(graph, obj) },
    ...graph.enums,
  };
  // A type's connection is in the schema when a root field or a connection edge returns it.
  const connections = new Set(Object.keys(graph.queryFields));
  for (const type of Object.values(graph.types)) {
    for (const edge of Object.values(type.edges)) if (edge.connection) connections.add(edge.target);
  }
  for (const type of Object.values(graph.types)) {
    const queryField = graph.queryFields[type.name];
    if (queryField) {
      query[queryField] = (_root, args, ctx, info) =>
        resolveConnection(request(ctx), type, args as PaginationArgs, info);
    }
    const fields: Record<string, Resolver> = {
      id: globalIdResolver(type, (pk) => globalIdOf(graph, type, pk)) as Resolver,
    };
    for (const [name, field] of Object.entries(type.fields)) {
      // A scalar reference (`ref: true`) of a managed entity holds its value in a `Ref`.
      if (field.ref) fields[name] = (row) => scalarValue(row[field.prop]);
      else if (name !== field.prop) fields[name] = (row) => row[field.prop];
    }
    for (const field of guarded.filter((g) => g.type === type)) {
      fields[field.name] = guardedFieldResolver(field, request) as Resolver;
    }
    for (const [name, edge] of Object.entries(type.edges)) {
      fields[name] = (row, args, ctx, info) =>
        resolveEdge(request(ctx), name, edge, row, args, info);
    }
    // A class whose rows can be of several classes is an interface: each row resolves to its own
    // class's object type (a class with rows of its own and subclasses: its `rows` type).
    if (!type.abstract) map[type.name] = fields;
    else {
      map[type.name] = { __resolveType: (obj: object) => objectTypeOf(graph, obj) };
      if (type.rows) map[type.rows] = fields;
    }
    if (connections.has(type.name)) {
      map[connectionName(type.name)] = {
        totalCount: ((connection: Connection<object>) =>
          connection.totalCount()) as unknown as Resolver,
      };
    }
  }
  map.Query = query;
  // A `node(id)` query of a schema without policies is planned once (`planned_operations.ts`).
  if (!options.policies?.length) offerPlannedReads(map, { graph, limits: options, request });
  // Mutations: `create<T>`, `update<T>`, `delete<T>` of the types annotated `Mutations()`.
  // Their payloads are read from the primary, so they never show replica lag.
  const mutation = mutationResolvers(graph, options);
  if (Object.keys(mutation).length > 0) {
    map.Mutation = Object.fromEntries(
      Object.entries(mutation).map(([name, resolve]) => [
        name,
        ((root, args, ctx, info) => {
          attach(ctx);
          ctx.readFrom = "primary";
          return resolve(root, args, ctx, info);
        }) as Resolver,
      ]),
    );
  }
  // Change feeds: `<type>Changed` of the types annotated `Subscriptions()`.
  if (Object.keys(graph.subscriptionFields).length > 0) {
    const feeds = subscriptionResolvers(graph, request, options.subscriptions);
    map.Subscription = feeds.subscription as ResolverMap[string];
    Object.assign(map, feeds.events);
  }
  return map;
}

/**
 * The GraphQL object type of a row: its class's node type, or for a class with rows of its own
 * and subclasses (an interface) the object type of its own rows.
 */
function objectTypeOf(graph: Graph, row: object): string | undefined {
  const type = nodeTypeOf(graph, row);
  return type?.rows ?? type?.name;
}

/** The value of a scalar reference (`ref: true`): unwrapped from its `Ref`, or as read. */
function scalarValue(value: unknown): unknown {
  return ScalarReference.isScalarReference(value) ? value.unwrap() ?? null : value;
}
