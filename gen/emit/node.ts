/**
 * `node.ts`: the node type table (entity and primary key per type), the joined graph, and the
 * `noder`/`noders` wrappers; `resolvers.ts` and `mod.ts`, the thin entry points over it.
 *
 * @module
 */
import { relative, SEPARATOR } from "@std/path";
import type { Model } from "../model.ts";
import { addImport, type Imports, literal, renderModule } from "./module.ts";

/**
 * Renders `node.ts`.
 *
 * @param out absolute output directory (entity imports are relative to it)
 */
export function emitNode(model: Model, runtime: string, out: string): string {
  const imports: Imports = new Map();
  addImport(
    imports,
    runtime,
    "defineGraph",
    "type Graph",
    "type NodeTypeDescription",
    "noder as nodeOf",
    "noders as nodesOf",
  );
  addImport(imports, "@mikro-orm/core", "type EntityManager");
  addImport(imports, "./collection.ts", "collectedFor", "fields");
  addImport(imports, "./edges.ts", "edges");
  addImport(imports, "./enums.ts", "enums");
  addImport(imports, "./mutation_input.ts", "mutations");
  addImport(imports, "./pagination.ts", "orderFields", "queryFields");
  const feeds = model.types.some((t) => t.subscriptionField);
  if (feeds) addImport(imports, "./pagination.ts", "subscriptionFields");
  addImport(imports, "./where_input.ts", "whereInputs");
  const locals = new Set<string>();
  const entries = model.types.map((t) => {
    let local = t.entity.exportName;
    if (locals.has(local)) local = `${t.name}Entity`;
    locals.add(local);
    let path = relative(out, t.entity.file).split(SEPARATOR).join("/");
    if (!path.startsWith(".")) path = `./${path}`;
    addImport(
      imports,
      path,
      local === t.entity.exportName ? local : `${t.entity.exportName} as ${local}`,
    );
    const prefix = t.prefix ? `, prefix: ${literal(t.prefix)}` : "";
    const inheritance = [
      t.abstract ? ", abstract: true" : "",
      t.rows ? `, rows: ${literal(t.rows)}` : "",
      t.implements ? `, implements: ${literal(t.implements)}` : "",
    ].join("");
    return `${t.name}: { entity: ${local}, id: ${literal(t.id)}${prefix}${inheritance} }`;
  });
  const body = `
/** GraphQL type -> MikroORM entity and primary key. */
export const nodeTypes = {
${entries.map((e) => `  ${e},`).join("\n")}
} satisfies Record<string, NodeTypeDescription>;

/** The generated tables joined: what every runtime resolver reads. */
export const graph: Graph = defineGraph({
  nodeTypes,
  fields,
  collectedFor,
  edges,
  orderFields,
  enums,
  queryFields,${feeds ? "\n  subscriptionFields," : ""}
  mutations,
  whereInputs,
  ids: ${literal(model.ids ?? "opaque")},
});

/**
 * Resolves a global id to its node (entgql \`Noder\`).
 *
 * @throws GraphQLError \`NOT_FOUND\` when the id is malformed or names no row
 */
export function noder(em: EntityManager, id: string): Promise<object> {
  return nodeOf(em, graph, id);
}

/**
 * Resolves global ids to nodes in input order, one query per type (entgql \`Noders\`); a missing
 * id yields a \`NOT_FOUND\` error in its slot.
 */
export function noders(em: EntityManager, ids: readonly string[]): Promise<(object | Error)[]> {
  return nodesOf(em, graph, ids);
}`;
  return renderModule(
    "Node types of the generated graph, and global-id resolution.",
    imports,
    body,
  );
}

/** Renders `resolvers.ts`. */
export function emitResolvers(runtime: string): string {
  const imports: Imports = new Map();
  addImport(
    imports,
    runtime,
    "createResolvers",
    "type ResolverMap",
    "type ResolverOptions",
  );
  addImport(imports, "./node.ts", "graph");
  const body = `
/** The generated resolver map: \`Query\`, node fields, edges, connections, enums, scalars. */
export function resolvers(options: ResolverOptions = {}): ResolverMap {
  return createResolvers(graph, options);
}`;
  return renderModule(
    "The resolver map of the generated schema.",
    imports,
    body,
  );
}

/** Renders `typedefs.ts`: the SDL embedded, so importing the API reads no file. */
export function emitTypeDefs(sdl: string): string {
  const text = sdl.replace(/[\\`]|\$\{/g, (m) => `\\${m}`);
  return renderModule(
    "The generated SDL, embedded (`schema.graphql` holds the same text, for tools).",
    new Map(),
    `/** The generated SDL. */\nexport const typeDefs: string = \`${text}\`;`,
  );
}

/** Renders `mod.ts`. */
export function emitMod(runtime: string): string {
  const imports: Imports = new Map();
  addImport(imports, runtime, "createGraphQLSchema", "type SchemaOptions");
  addImport(imports, "graphql", "type GraphQLSchema");
  addImport(imports, "./node.ts", "graph");
  addImport(imports, "./typedefs.ts", "typeDefs");
  addImport(imports, "./types.ts", "type Resolvers");
  const body = `
export { graph, noder, noders } from "./node.ts";
export { resolvers } from "./resolvers.ts";
export { typeDefs } from "./typedefs.ts";
export type * from "./types.ts";

/**
 * The executable schema for \`createYoga({ schema })\`: the generated SDL and resolvers, plus the
 * user's \`typeDefs\` and \`resolvers\` (which override generated ones field by field; typed by
 * \`Resolvers\`).
 *
 * @example A production server
 * \`\`\`ts
 * import { MikroORM } from "@mikro-orm/core";
 * import { createYoga } from "graphql-yoga";
 * import { mikrogqlPreset } from "@mikrogql/ext";
 * import config from "./mikro-orm.config.ts";
 * import { createSchema } from "./generated/mod.ts";
 *
 * const orm = await MikroORM.init(config);
 * const yoga = createYoga({
 *   schema: createSchema({
 *     maxPageSize: 100, // \`first\`/\`last\` above 100: INVALID_PAGINATION
 *   }),
 *   context: () => ({ em: orm.em.fork() }),
 *   // edges nested deeper than 5: QUERY_TOO_DEEP, before the operation runs
 *   ...mikrogqlPreset({ txOpener: orm, limits: { maxCost: 100_000, maxDepth: 5 } }),
 * });
 * Deno.serve({ hostname: "127.0.0.1", port: 8000 }, (request) => yoga.fetch(request));
 * \`\`\`
 *
 * @example Fields of your own: declare their resolvers' types, and they type-check too
 * \`\`\`ts
 * import type { FieldResolver } from "@mikrogql/ext";
 * import { createSchema } from "./generated/mod.ts";
 *
 * // What \`typeDefs\` adds, type by type (a root field's parent is \`unknown\`).
 * type Extra = { Query: { serverTime: FieldResolver<string, unknown> } };
 *
 * const schema = createSchema<Extra>({
 *   typeDefs: "extend type Query { serverTime: String! }",
 *   resolvers: { Query: { serverTime: () => new Date().toISOString() } },
 * });
 * \`\`\`
 *
 * @typeParam Extra the resolvers of the types and fields \`options.typeDefs\` adds (see
 *   \`Resolvers\`); a resolver of a type or field neither generated nor declared there is a type
 *   error
 * @param options the page-size limit, runtime hooks, \`readFrom\`, and the user's own
 *   \`typeDefs\` and \`resolvers\`
 * @throws Error when the user's SDL does not merge with the generated one
 */
export function createSchema<Extra = Record<never, never>>(
  options: SchemaOptions<Resolvers<NoInfer<Extra>>> = {},
): GraphQLSchema {
  return createGraphQLSchema(typeDefs, graph, options);
}`;
  return renderModule(
    "The generated GraphQL API: \`createSchema(options)\` for GraphQL Yoga.",
    imports,
    body,
  );
}
