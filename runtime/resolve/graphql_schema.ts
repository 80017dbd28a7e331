/**
 * Builds the executable schema of a generated graph for GraphQL Yoga: the generated SDL plus the
 * user's own SDL, the generated resolvers plus the user's. A user resolver for a field replaces
 * the generated one (gqlgen's `forceResolver`); user types bind to generated ones by name (gqlgen's
 * `autobind`).
 *
 * @module
 */
import {
  GraphQLEnumType,
  GraphQLError,
  GraphQLObjectType,
  GraphQLScalarType,
  type GraphQLSchema,
} from "graphql";
import { createSchema } from "graphql-yoga";
import { ErrorCode, gqlError } from "../error_codes.ts";
import type { Graph } from "../graph.ts";
import { createResolvers, policyAttacher, type ResolverOptions } from "./resolvers.ts";
import type { MikroContext } from "../request/context.ts";
import { guardedFields, guardedTypeDefs } from "./field_rules.ts";
import { globalIdSerialization } from "./global_id_fields.ts";
import { warnOpenTypes } from "./open_types.ts";
import { planOperations } from "./planned_operations.ts";

/** The resolvers argument of GraphQL Yoga's `createSchema`. */
export type UserResolvers = Parameters<typeof createSchema>[0]["resolvers"];

/**
 * Options of a generated `createSchema`.
 *
 * @typeParam R the resolver map type: the generated `Resolvers` (typed per field) in a
 *   generated module, Yoga's untyped map by default
 */
export interface SchemaOptions<R = NonNullable<UserResolvers>> extends ResolverOptions {
  /** Extra SDL: new types, `extend type Query { ... }`, `extend input ...`. */
  typeDefs?: string | string[];
  /** Extra resolvers, merged after (and so overriding) the generated ones. */
  resolvers?: R | R[];
}

/**
 * Builds the executable schema: `typeDefs` plus `options.typeDefs`, the resolvers of `graph`
 * ({@linkcode createResolvers} with `options`) plus `options.resolvers`, which replace generated
 * ones field by field. A generated `createSchema(options)` is this call on its own SDL and graph.
 *
 * @example The generated SDL and graph with a field of your own
 * ```ts
 * import { createGraphQLSchema, fromContext, type MikroContext } from "@mikrogql/ext";
 * import { Post } from "./entities/post.ts";
 * import { graph, typeDefs } from "./generated/mod.ts";
 *
 * const schema = createGraphQLSchema(typeDefs, graph, {
 *   maxPageSize: 100, // `first`/`last` above 100: INVALID_PAGINATION
 *   typeDefs: "extend type Query { postCount: Int! }",
 *   resolvers: {
 *     Query: {
 *       postCount: (_root: unknown, _args: unknown, ctx: MikroContext) =>
 *         fromContext(ctx).count(Post),
 *     },
 *   },
 * });
 * ```
 *
 * @param typeDefs the generated SDL (`schema.graphql`)
 * @param graph the generated graph
 * @param options the limits and hooks of {@linkcode createResolvers}, and the user's own
 *   `typeDefs` and `resolvers`
 * @returns the executable schema for `createYoga({ schema })`
 * A field a policy's field rule names (`policy.ts`) is nullable in the schema: where the viewer
 * may not read it, it is `null` with a `FORBIDDEN` error at its path.
 *
 * @throws Error from graphql-tools when the user SDL does not merge with the generated one;
 *   Error when a policy's field rule names a property that is no field of its entity
 */
export function createGraphQLSchema<R>(
  typeDefs: string,
  graph: Graph,
  options: SchemaOptions<R> = {},
): GraphQLSchema {
  const extraTypeDefs = options.typeDefs === undefined ? [] : [options.typeDefs].flat();
  const attach = policyAttacher(options, graph);
  warnOpenTypes(options.policies ?? []);
  const extraResolvers = (options.resolvers === undefined ? [] : [options.resolvers].flat())
    .map((map) => withPolicies(map as Record<string, unknown>, attach));
  const guarded = guardedFields(graph, options.policies ?? []);
  const generated = createResolvers(graph, options);
  const schema = createSchema({
    typeDefs: [
      guarded.length > 0 ? guardedTypeDefs(typeDefs, guarded) : typeDefs,
      ...extraTypeDefs,
    ],
    resolvers: [generated, ...extraResolvers] as unknown as UserResolvers,
  });
  unbindGlobalIds(schema, generated, extraResolvers);
  planOperations(schema, generated, extraResolvers);
  for (const name of Object.keys(graph.enums)) {
    const type = schema.getType(name);
    if (type instanceof GraphQLEnumType) rejectAsBadInput(type);
  }
  return schema;
}

/**
 * Puts the generated `id` resolvers (`global_id_fields.ts`) back on the schema's fields as they
 * are: graphql-tools binds every function resolver to its type's map, and the `Jit` plugin
 * recognises the generated ones by identity (`plugins/jit_schema.ts`). A field whose `id` a user
 * resolver replaces keeps the user's.
 */
function unbindGlobalIds(
  schema: GraphQLSchema,
  generated: Record<string, unknown>,
  extra: readonly Record<string, unknown>[],
): void {
  for (const [typeName, fields] of Object.entries(generated)) {
    const resolve = (fields as { id?: unknown } | null)?.id;
    if (!globalIdSerialization(resolve)) continue;
    if (extra.some((map) => (map[typeName] as { id?: unknown } | undefined)?.id !== undefined)) {
      continue;
    }
    const type = schema.getType(typeName);
    const field = type instanceof GraphQLObjectType ? type.getFields().id : undefined;
    if (field) field.resolve = resolve as typeof field.resolve;
  }
}

/**
 * Makes a bad value of a generated enum in a variable (`"Nope"` for `Tier`, alone or in a list) a
 * `BAD_USER_INPUT` error: graphql-js keeps the extensions of the error a type's `parseValue`
 * throws when it reports the variable. (A bad literal in the operation text stays a validation
 * error, `GRAPHQL_VALIDATION_FAILED`.)
 */
function rejectAsBadInput(type: GraphQLEnumType): void {
  const parseValue = type.parseValue.bind(type);
  type.parseValue = (value) => {
    try {
      return parseValue(value);
    } catch (error) {
      if (!(error instanceof GraphQLError)) throw error;
      throw gqlError(ErrorCode.BAD_USER_INPUT, error.message);
    }
  };
}

/**
 * The user's resolver map with every field resolver first keeping the schema's policies on the
 * context (`policyAttacher`), so `fromContext` in a user resolver that runs before any generated
 * one binds them too.
 */
function withPolicies(
  map: Record<string, unknown>,
  attach: (ctx: MikroContext) => void,
): Record<string, unknown> {
  const wrap =
    (resolve: (...args: unknown[]) => unknown) =>
    (root: unknown, args: unknown, ctx: MikroContext, info: unknown) => {
      attach(ctx);
      return resolve(root, args, ctx, info);
    };
  return Object.fromEntries(
    Object.entries(map).map(([typeName, fields]) => {
      if (fields === null || typeof fields !== "object" || fields instanceof GraphQLScalarType) {
        return [typeName, fields];
      }
      return [
        typeName,
        Object.fromEntries(
          Object.entries(fields).map(([name, field]) => {
            if (typeof field === "function" && !name.startsWith("__")) return [name, wrap(field)];
            if (field && typeof field === "object" && typeof field.resolve === "function") {
              return [name, { ...field, resolve: wrap(field.resolve) }];
            }
            return [name, field];
          }),
        ),
      ];
    }),
  );
}
