/**
 * Field collection: walks an operation's selection set from a resolver's `GraphQLResolveInfo`
 * and returns the load plan of each node level, the equivalent of entgql's `CollectFields` that
 * adds `With<E>` eager-load steps.
 *
 * Named fragments, inline fragments (`... on Node`, `... on <T>`, interfaces a type
 * implements), aliases and `@skip`/`@include` are honoured. A plan lists the entity properties to
 * select (the primary key always; foreign keys of selected unique edges; every column when a
 * field is a resolver the generator does not know, unless `CollectedFor` maps it) and the edges
 * to load, each with its own arguments, keyed so that `a: posts(first: 1)` and
 * `b: posts(last: 2)` side by side are two loads.
 *
 * @module
 */
import {
  type FieldNode,
  type FragmentDefinitionNode,
  getArgumentValues,
  getDirectiveValues,
  type GraphQLField,
  GraphQLIncludeDirective,
  type GraphQLObjectType,
  type GraphQLResolveInfo,
  type GraphQLSchema,
  GraphQLSkipDirective,
  isAbstractType,
  isObjectType,
  type SelectionSetNode,
} from "graphql";
import type { EdgeDescription, Graph, NodeType } from "../graph.ts";
import { edgeKey } from "./loaded_edges.ts";
import { connectionName, edgeName } from "../names.ts";
import {
  type PaginationArgs,
  type PaginationLimits,
  validatePagination,
} from "./relay_connection.ts";

/** What to load for the nodes of one level. */
export interface NodePlan {
  type: NodeType;
  /** Entity properties to select; `undefined` selects every column. */
  props: Set<string> | undefined;
  /** Edges to load for these nodes. */
  edges: EdgePlan[];
}

/** One edge to load for every node of a level. */
export interface EdgePlan {
  /** The load key: edge name and arguments (`edgeKey` of `plan/loaded_edges.ts`). */
  key: string;
  edge: EdgeDescription;
  /** The edge field's argument values (variables resolved). */
  args: PaginationArgs & Record<string, unknown>;
  /** For connections: whether `totalCount` is selected. */
  totalCount: boolean;
  /**
   * For connections: whether `pageInfo { hasNextPage }` or `hasPreviousPage` is selected, so
   * the page must read one row beyond `first`/`last` to answer it; `undefined` reads it.
   */
  morePages?: boolean;
  /**
   * For connections: whether `edges` or `pageInfo` is selected, so the page's rows are read;
   * a connection selecting neither is only counted (its `totalCount`, when selected).
   */
  page?: boolean;
  /** The plan of the edge's target nodes. */
  node: NodePlan;
}

/**
 * Limits checked while collecting, before any SQL runs: the page size. The depth of an
 * operation is limited before it executes (the `Limits` plugin's `maxDepth`).
 */
export type CollectLimits = PaginationLimits;

/** What field collection reads: the graph and the limits (a {@linkcode RequestState} is one). */
export interface CollectOptions {
  readonly graph: Graph;
  readonly limits: CollectLimits;
}

class Collector {
  constructor(
    readonly graph: Graph,
    readonly schema: GraphQLSchema,
    readonly fragments: Record<string, FragmentDefinitionNode>,
    readonly variables: Record<string, unknown>,
    readonly limits: CollectLimits,
  ) {}

  /**
   * Expands fragments and directives: the fields of `sets` that apply to `object`. Like
   * graphql-js's `collectFields`, a named fragment is expanded once per call however often it is
   * spread (`visited`), so the work is linear in the document.
   */
  fields(
    sets: readonly SelectionSetNode[],
    object: GraphQLObjectType,
    out: FieldNode[] = [],
    visited = new Set<string>(),
  ): FieldNode[] {
    for (const set of sets) {
      for (const selection of set.selections) {
        if (!this.included(selection)) continue;
        if (selection.kind === "Field") {
          out.push(selection);
        } else if (selection.kind === "InlineFragment") {
          if (this.applies(selection.typeCondition?.name.value, object)) {
            this.fields([selection.selectionSet], object, out, visited);
          }
        } else {
          const name = selection.name.value;
          if (visited.has(name)) continue;
          visited.add(name);
          const fragment = this.fragments[name];
          if (fragment && this.applies(fragment.typeCondition.name.value, object)) {
            this.fields([fragment.selectionSet], object, out, visited);
          }
        }
      }
    }
    return out;
  }

  included(node: { directives?: readonly unknown[] }): boolean {
    const n = node as Parameters<typeof getDirectiveValues>[1];
    if (getDirectiveValues(GraphQLSkipDirective, n, this.variables)?.if === true) return false;
    return getDirectiveValues(GraphQLIncludeDirective, n, this.variables)?.if !== false;
  }

  applies(condition: string | undefined, object: GraphQLObjectType): boolean {
    if (!condition || condition === object.name) return true;
    const type = this.schema.getType(condition);
    return !!type && isAbstractType(type) && this.schema.isSubType(type, object);
  }

  object(name: string): GraphQLObjectType {
    const type = this.schema.getType(name);
    if (!isObjectType(type)) throw new Error(`type ${name} is not in the schema`);
    return type;
  }

  /** The plan of `type`'s nodes selected by `sets`. */
  node(type: NodeType, sets: readonly SelectionSetNode[]): NodePlan {
    // An inheritance root (a GraphQL interface): its rows are of several classes, whose columns
    // and edges are not known here; every column is read, edges load with their resolvers.
    if (type.abstract) return { type, props: undefined, edges: [] };
    const object = this.object(type.name);
    const plan: NodePlan = {
      type,
      props: new Set(type.id.parts?.map((p) => p.prop) ?? [type.id.prop]),
      edges: [],
    };
    const byKey = new Map<string, EdgePlan>();
    for (const field of this.fields(sets, object)) {
      const name = field.name.value;
      if (name === "__typename" || name === "id") continue;
      const scalar = type.fields[name];
      if (scalar) {
        for (const prop of scalar.reads ?? [scalar.prop]) plan.props?.add(prop);
        continue;
      }
      const edge = type.edges[name];
      if (!edge) {
        const mapped = type.collectedFor?.[name];
        if (mapped) mapped.forEach((p) => plan.props?.add(p));
        else plan.props = undefined;
        continue;
      }
      if (edge.kind === "m:1" || (edge.kind === "1:1" && !edge.inverse)) plan.props?.add(edge.prop);
      if (edge.unbound) continue;
      const definition = object.getFields()[name] as GraphQLField<unknown, unknown>;
      const args = getArgumentValues(definition, field, this.variables) as EdgePlan["args"];
      validatePagination(args, this.limits);
      const key = edgeKey(name, args);
      const existing = byKey.get(key);
      const target = this.graph.types[edge.target];
      const child = field.selectionSet ? [field.selectionSet] : [];
      if (edge.connection) {
        const connection = this.connection(target, child);
        if (existing) {
          merge(existing.node, connection.node);
          existing.totalCount ||= connection.totalCount;
          existing.morePages ||= connection.morePages;
          existing.page ||= connection.page;
        } else {
          byKey.set(key, { key, edge, args, ...connection });
        }
      } else {
        const node = this.node(target, child);
        if (existing) merge(existing.node, node);
        else byKey.set(key, { key, edge, args, totalCount: false, node });
      }
    }
    plan.edges = [...byKey.values()];
    return plan;
  }

  /**
   * The node plan and the `totalCount`, `morePages` and `page` flags of a `<T>Connection`
   * selection.
   */
  connection(
    type: NodeType,
    sets: readonly SelectionSetNode[],
  ): ConnectionSelection {
    const object = this.object(connectionName(type.name));
    const edgeObject = this.object(edgeName(type.name));
    let totalCount = false;
    let morePages = false;
    let page = false;
    const nodeSets: SelectionSetNode[] = [];
    for (const field of this.fields(sets, object)) {
      if (field.name.value === "totalCount") totalCount = true;
      if (field.name.value === "edges" || field.name.value === "pageInfo") page = true;
      if (field.name.value === "pageInfo" && field.selectionSet) {
        for (const info of this.fields([field.selectionSet], this.object("PageInfo"))) {
          const name = info.name.value;
          if (name === "hasNextPage" || name === "hasPreviousPage") morePages = true;
        }
      }
      if (field.name.value !== "edges" || !field.selectionSet) continue;
      for (const edgeField of this.fields([field.selectionSet], edgeObject)) {
        if (edgeField.name.value === "node" && edgeField.selectionSet) {
          nodeSets.push(edgeField.selectionSet);
        }
      }
    }
    return { node: this.node(type, nodeSets), totalCount, morePages, page };
  }
}

/** What a `<T>Connection` selection asks for (see {@linkcode EdgePlan}'s flags). */
export interface ConnectionSelection {
  /** The plan of the connection's nodes. */
  node: NodePlan;
  /** Whether `totalCount` is selected. */
  totalCount: boolean;
  /** Whether `pageInfo { hasNextPage }` or `hasPreviousPage` is selected. */
  morePages: boolean;
  /** Whether `edges` or `pageInfo` is selected (the page's rows are read). */
  page: boolean;
}

function merge(into: NodePlan, from: NodePlan): void {
  if (!into.props || !from.props) into.props = undefined;
  else from.props.forEach((p) => into.props!.add(p));
  for (const edge of from.edges) {
    const same = into.edges.find((e) => e.key === edge.key);
    if (same) {
      merge(same.node, edge.node);
      same.totalCount ||= edge.totalCount;
      same.morePages ||= edge.morePages;
      same.page ||= edge.page;
    } else {
      into.edges.push(edge);
    }
  }
}

/**
 * Collected plans per field of a parsed document (GraphQL Yoga reuses the parsed document of a
 * repeated query), then per graph, limits, types and variables. Plans are never changed once
 * built, so requests share them.
 */
const PLANS = new WeakMap<FieldNode, WeakMap<object, Map<string, unknown>>>();
/** Variables longer than this (as JSON) are not a cache key: such plans are rebuilt. */
const MAX_VARIABLES_KEY = 2_000;
/** Plans kept per field and limits; the map is emptied when full. */
const MAX_PLANS_PER_FIELD = 32;

function cachedPlan<T>(
  info: GraphQLResolveInfo,
  limits: CollectLimits,
  key: string,
  build: () => T,
): T {
  const variables = JSON.stringify(info.variableValues);
  if (info.fieldNodes.length !== 1 || variables.length > MAX_VARIABLES_KEY) return build();
  let byLimits = PLANS.get(info.fieldNodes[0]);
  if (!byLimits) PLANS.set(info.fieldNodes[0], byLimits = new WeakMap());
  let plans = byLimits.get(limits);
  if (!plans) byLimits.set(limits, plans = new Map());
  const full = `${key}\n${variables}`;
  if (plans.has(full)) return plans.get(full) as T;
  const plan = build();
  if (plans.size >= MAX_PLANS_PER_FIELD) plans.clear();
  plans.set(full, plan);
  return plan;
}

function collector({ graph, limits }: CollectOptions, info: GraphQLResolveInfo): Collector {
  return new Collector(graph, info.schema, info.fragments, info.variableValues, limits);
}

function selectionSets(info: GraphQLResolveInfo): SelectionSetNode[] {
  return info.fieldNodes.flatMap((f) => (f.selectionSet ? [f.selectionSet] : []));
}

/**
 * The plan of a field returning `<type>Connection` (root connection fields).
 *
 * @throws GraphQLError `INVALID_PAGINATION` before any SQL runs
 */
export function collectConnection(
  ctx: CollectOptions,
  type: NodeType,
  info: GraphQLResolveInfo,
): ConnectionSelection {
  return cachedPlan(
    info,
    ctx.limits,
    `connection:${type.name}`,
    () => collector(ctx, info).connection(type, selectionSets(info)),
  );
}

/**
 * The plan of a field returning one `type` node, or a list of them (mutation payloads).
 *
 * @throws GraphQLError `INVALID_PAGINATION` before any SQL runs
 */
export function collectNode(
  ctx: CollectOptions,
  type: NodeType,
  info: GraphQLResolveInfo,
): NodePlan {
  return cachedPlan(
    info,
    ctx.limits,
    `node:${type.name}`,
    () => collector(ctx, info).node(type, selectionSets(info)),
  );
}

/**
 * The plans of a field returning the `Node` interface (`node`, `nodes`): one per node type in
 * `types`, built from the fields on `Node` and the fragments that apply to that type.
 *
 * @throws GraphQLError `INVALID_PAGINATION` before any SQL runs
 */
export function collectNodes(
  ctx: CollectOptions,
  info: GraphQLResolveInfo,
  types: readonly NodeType[],
): Map<string, NodePlan> {
  return cachedPlan(info, ctx.limits, `nodes:${types.map((t) => t.name).join(",")}`, () => {
    const c = collector(ctx, info);
    const sets = selectionSets(info);
    return new Map(types.map((type) => [type.name, c.node(type, sets)]));
  });
}

/** The `fields` option of a plan: collected properties plus `extra`; `undefined` loads all. */
export function fieldsOf(plan: NodePlan, extra: string[] = []): string[] | undefined {
  return plan.props && [...new Set([...plan.props, ...extra.map((p) => p.split(".")[0])])];
}

/**
 * The plan of `type`'s nodes selected by `field` (a field returning one node, such as
 * `node(id)`), collected from the operation's parts without a resolve info and not cached: for a
 * caller that plans a whole operation once (`resolve/planned_operations.ts`).
 *
 * @param variables the operation's coerced variable values (the edges' arguments and the
 *   directives read them)
 * @throws GraphQLError `INVALID_PAGINATION` for an edge's page size over the limits
 */
export function collectNodePlan(
  ctx: CollectOptions,
  schema: GraphQLSchema,
  fragments: Record<string, FragmentDefinitionNode>,
  variables: Record<string, unknown>,
  field: FieldNode,
  type: NodeType,
): NodePlan {
  const sets = field.selectionSet ? [field.selectionSet] : [];
  return new Collector(ctx.graph, schema, fragments, variables, ctx.limits).node(type, sets);
}
