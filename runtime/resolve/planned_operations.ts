/**
 * Planned operations: a `node(id)` query answered from a plan made once per document, operation
 * and node type, without GraphQL execution (issue 39's "plan once, run many"). A request of a
 * planned operation binds its id, sends the statement the normal path sends (the node with the
 * page of its one connection edge in one statement, `read/joined_page.ts`, or the node alone,
 * `findNodes`), and builds the answer from the rows with the compiled selection
 * (`selection_answer.ts`): no resolver call, no field collection, no connection resolution per
 * request. The `PlannedReads` plugin (`plugins/planned_reads.ts`) runs it in place of the
 * execute function, so every plugin wrapping execution (the cost check, the deadline, the read
 * retry, the request log's statement count) wraps it as it wraps execution.
 *
 * An operation is planned when all of this holds, else it executes as before:
 *
 * - the schema is a generated one without policies (`createGraphQLSchema`), unchanged since it
 *   was built: every field's resolver is still the one it was built with (no plugin wrapped it),
 *   and no user resolver replaces `Query.node`, `Node`'s type resolution or a field it answers;
 * - the operation is a query whose root fields are `node` (once, its `id` a string literal or a
 *   variable of type `ID`, the operation's only one) and `__typename`, with no directive;
 * - for the node type the id names: a concrete type without subclasses, its selection (as field
 *   collection plans it, `collectNodePlan`) of listed columns, at most one edge, a connection
 *   whose arguments are literals, whose nodes select no edge and which `readJoinedPage` joins;
 *   every selected field answered by `compileSelection`: `__typename`, `id` (the generated
 *   global id), columns and the connection's fields read as the default resolver reads them.
 *
 * At run time anything the plan does not answer as execution would (an id that names no row or
 * is not a string, a row of another class, a `null` in a non-null field, an error thrown while
 * reading) executes the operation as before: its statements, errors and answer are then the
 * normal path's.
 *
 * @module
 */
import {
  type DocumentNode,
  type ExecutionArgs,
  type ExecutionResult,
  type FieldNode,
  type FragmentDefinitionNode,
  getArgumentValues,
  getOperationAST,
  type GraphQLError,
  type GraphQLField,
  type GraphQLInterfaceType,
  GraphQLObjectType,
  type GraphQLSchema,
  Kind,
  locatedError,
  type OperationDefinitionNode,
  type ValueNode,
} from "graphql";
import type { Graph, NodeType } from "../graph.ts";
import { nodeTypeOf } from "../graph.ts";
import { keyFits } from "../column_values.ts";
import { notFound } from "../error_codes.ts";
import {
  collectNodePlan,
  type EdgePlan,
  fieldsOf,
  type NodePlan,
} from "../plan/field_collection.ts";
import type { CollectLimits } from "../plan/field_collection.ts";
import { decodeGlobalId } from "../plan/global_id.ts";
import { edgeKey } from "../plan/loaded_edges.ts";
import { type Connection, toConnection } from "../plan/relay_connection.ts";
import { readJoinedPage } from "../read/joined_page.ts";
import type { MikroContext } from "../request/context.ts";
import type { RequestState } from "../request/request_state.ts";
import { globalIdSerialization } from "./global_id_fields.ts";
import { findNodes } from "./noder.ts";
import {
  compileSelection,
  type Executor,
  type FieldValue,
  NotAnswered,
  type SelectionAnswer,
} from "./selection_answer.ts";

/** What the generated resolvers give their schema's planner (`createResolvers`). */
export interface PlannedReadsSource {
  /** The graph with the schema's runtime hooks. */
  readonly graph: Graph;
  /** The schema's page-size limits (field collection's). */
  readonly limits: CollectLimits;
  /** The request state of a GraphQL context, as the generated resolvers make it. */
  request(ctx: MikroContext): RequestState;
}

/** A schema's planner: its source and the resolvers its fields were built with. */
interface Planner {
  readonly source: PlannedReadsSource;
  readonly schema: GraphQLSchema;
  /** Every object type field's resolver when the schema was built. */
  readonly resolvers: Map<GraphQLField<unknown, unknown>, unknown>;
  /** The edge fields of node types whose resolver is the generated one. */
  readonly edges: Set<GraphQLField<unknown, unknown>>;
  /** The `Node` interface's type resolution when the schema was built. */
  readonly resolveType: unknown;
}

/** The answer of a planned operation's node: per request, the node and its edge's page. */
interface Scope {
  readonly node: object;
  /** The joined edge's load key (`edgeKey`) and its connection, when the plan has an edge. */
  readonly key?: string;
  readonly connection?: Connection<object>;
}

/** The plan of one node type under a planned operation's `node` field. */
interface TypePlan {
  readonly type: NodeType;
  readonly plan: NodePlan;
  /** The plan's one edge (a connection read with the node), if any. */
  readonly edge?: EdgePlan;
  readonly answer: SelectionAnswer<Scope>;
}

/** A root field of a planned operation. */
type RootKey =
  | { readonly key: string; readonly kind: "typename" }
  | { readonly key: string; readonly kind: "node"; readonly field: FieldNode };

/** A planned operation: its root fields, where its id comes from, its plans by node type. */
interface OperationPlan {
  /** The executor whose field order the answers follow. */
  readonly executor: Executor;
  /** The query type's name (the root `__typename`). */
  readonly root: string;
  readonly keys: readonly RootKey[];
  readonly field: FieldNode;
  readonly fragments: Record<string, FragmentDefinitionNode>;
  /** The id: a variable's name, or the literal. */
  readonly id: { readonly variable: string } | { readonly literal: string };
  /** By node type name; `null` when that type's selection is not planned. */
  readonly types: Map<string, TypePlan | null>;
}

/** A request's run of a planned operation, falling back to `execute` (see the module doc). */
export type PlannedRun = (
  execute: (args: ExecutionArgs) => unknown,
) => Promise<unknown>;

/**
 * How many runs of planned operations this process answered from their plans, and how many it
 * executed as before instead (see the module documentation): for tests and benchmarks.
 */
export const plannedStats: { answered: number; executed: number } = { answered: 0, executed: 0 };

const SOURCES = new WeakMap<object, PlannedReadsSource>();
const PLANNERS = new WeakMap<GraphQLSchema, Planner>();
/** Operation plans per executor, document and operation name. */
const OPERATIONS: Record<
  Executor,
  WeakMap<DocumentNode, Map<string | null, OperationPlan | null>>
> = {
  "graphql-js": new WeakMap(),
  "graphql-jit": new WeakMap(),
};

/**
 * Offers `source` as the planner of the schema `map` (a resolver map of `createResolvers`) will
 * be built into ({@linkcode planOperations}). `createResolvers` offers one when the schema has
 * no policies.
 */
export function offerPlannedReads(map: object, source: PlannedReadsSource): void {
  SOURCES.set(map, source);
}

/**
 * Gives `schema`, built from the generated resolver map `generated` and the user's maps `extra`,
 * its planner, when `generated` was offered one and no user map replaces `Query.node` or `Node`'s
 * type resolution. Records every field's resolver as built: a field whose resolver changes later
 * (a plugin wrapping resolvers) is not planned.
 */
export function planOperations(
  schema: GraphQLSchema,
  generated: object,
  extra: readonly Record<string, unknown>[],
): void {
  const source = SOURCES.get(generated);
  if (!source) return;
  const replaced = (typeName: string, field: string) =>
    extra.some((map) =>
      (map[typeName] as Record<string, unknown> | undefined)?.[field] !== undefined
    );
  if (replaced("Query", "node") || extra.some((map) => map.Node !== undefined)) return;
  const resolvers = new Map<GraphQLField<unknown, unknown>, unknown>();
  const edges = new Set<GraphQLField<unknown, unknown>>();
  for (const type of Object.values(schema.getTypeMap())) {
    if (!(type instanceof GraphQLObjectType)) continue;
    const nodeType = source.graph.types[type.name];
    for (const field of Object.values(type.getFields())) {
      resolvers.set(field, field.resolve);
      if (nodeType?.edges[field.name] && !replaced(type.name, field.name)) edges.add(field);
    }
  }
  const node = schema.getType("Node") as GraphQLInterfaceType | undefined;
  PLANNERS.set(schema, { source, schema, resolvers, edges, resolveType: node?.resolveType });
}

/**
 * The planned run of the operation `args` execute, or `undefined` when it is not planned (see the
 * module documentation): decided from the document's cached plan and the id's variable alone.
 *
 * @param executor the executor the run stands in for, whose field order its answers follow
 */
export function plannedOperation(
  args: ExecutionArgs,
  executor: Executor,
): PlannedRun | undefined {
  const planner = PLANNERS.get(args.schema);
  if (!planner) return undefined;
  const operation = operationPlan(planner, args.document, args.operationName ?? null, executor);
  if (!operation) return undefined;
  const id = "literal" in operation.id
    ? operation.id.literal
    : args.variableValues?.[operation.id.variable];
  if (typeof id !== "string") return undefined;
  return async (execute) => {
    const answer = await run(planner, operation, id, args);
    if (answer !== undefined) {
      plannedStats.answered++;
      return answer;
    }
    plannedStats.executed++;
    return await execute(args);
  };
}

/** The answer of a planned operation for `id`, or `undefined` where the plan does not answer. */
async function run(
  planner: Planner,
  operation: OperationPlan,
  id: string,
  args: ExecutionArgs,
): Promise<ExecutionResult | undefined> {
  const { graph } = planner.source;
  let data: Record<string, unknown>;
  try {
    const decoded = decodeGlobalId(graph, id);
    if (!decoded) return undefined;
    const ctx = planner.source.request(args.contextValue as MikroContext);
    let known = operation.types.get(decoded.type.name);
    if (known === undefined) {
      known = typePlan(planner, operation, decoded.type, ctx);
      operation.types.set(decoded.type.name, known);
    }
    const plan = known;
    if (!plan || !keyFits(ctx.em, decoded.type, decoded.pk)) return undefined;
    let scope: Scope;
    if (plan.edge) {
      const read = await readJoinedPage(ctx, plan.type, decoded.pk, plan.plan);
      if (!read || read.edge !== plan.edge) return undefined;
      if (!read.node) return notFoundAnswer(operation, id);
      const rows = read.rows;
      const connection = toConnection(read.many.page, rows, () => rows.length);
      scope = { node: read.node, key: plan.edge.key, connection };
    } else {
      const [node] = await findNodes(
        ctx.em,
        [id],
        [decoded],
        () => fieldsOf(plan.plan),
        () => null,
      );
      if (!node) return notFoundAnswer(operation, id);
      scope = { node };
    }
    if (nodeTypeOf(graph, scope.node) !== plan.type) return undefined;
    data = {};
    for (const root of operation.keys) {
      data[root.key] = root.kind === "typename" ? operation.root : plan.answer(scope.node, scope);
    }
  } catch {
    return undefined;
  }
  return { data };
}

/**
 * The answer of a planned operation whose id names no row the request may read: `null` with the
 * `NOT_FOUND` error at the `node` field, as `resolveNode` throws it and the executor reports it.
 */
function notFoundAnswer(operation: OperationPlan, id: string): ExecutionResult {
  const data: Record<string, unknown> = {};
  let error: GraphQLError | undefined;
  for (const root of operation.keys) {
    if (root.kind === "typename") data[root.key] = operation.root;
    else {
      data[root.key] = null;
      // graphql-jit's errors carry no locations (its `GraphQLError` drops them).
      const nodes = operation.executor === "graphql-jit" ? undefined : [root.field];
      error = locatedError(notFound(id), nodes, [root.key]);
    }
  }
  const errors = error ? [error] : [];
  // graphql-js's result holds its errors first (`buildResponse`), graphql-jit's its data.
  return operation.executor === "graphql-jit" ? { data, errors } : { errors, data };
}

/** The plan of the operation `operationName` names in `document`, made on first use. */
function operationPlan(
  planner: Planner,
  document: DocumentNode,
  operationName: string | null,
  executor: Executor,
): OperationPlan | null {
  let plans = OPERATIONS[executor].get(document);
  if (!plans) OPERATIONS[executor].set(document, plans = new Map());
  let plan = plans.get(operationName);
  if (plan === undefined) {
    const operation = getOperationAST(document, operationName);
    plan = operation ? planOperation(planner, document, operation, executor) : null;
    // Kept for a name the document holds (or none given): a client's other names are not.
    if (operation || operationName === null) plans.set(operationName, plan);
  }
  return plan;
}

/** The plan of `operation`'s root fields (see the module documentation), or `null`. */
function planOperation(
  planner: Planner,
  document: DocumentNode,
  operation: OperationDefinitionNode,
  executor: Executor,
): OperationPlan | null {
  const { schema } = planner;
  const query = schema.getQueryType();
  if (operation.operation !== "query" || !query || operation.directives?.length) return null;
  const fragments: Record<string, FragmentDefinitionNode> = {};
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments[definition.name.value] = definition;
  }
  const keys: RootKey[] = [];
  let node: FieldNode | undefined;
  for (const selection of operation.selectionSet.selections) {
    if (selection.kind !== Kind.FIELD || selection.directives?.length) return null;
    const key = selection.alias?.value ?? selection.name.value;
    if (keys.some((known) => known.key === key)) return null;
    if (selection.name.value === "__typename") keys.push({ key, kind: "typename" });
    else if (selection.name.value === "node" && !node) {
      keys.push({ key, kind: "node", field: node = selection });
    } else return null;
  }
  const nodeField = query.getFields().node as GraphQLField<unknown, unknown> | undefined;
  if (!node || !nodeField || nodeField.resolve !== planner.resolvers.get(nodeField)) return null;
  const nodeInterface = schema.getType("Node") as GraphQLInterfaceType | undefined;
  if (nodeInterface?.resolveType !== planner.resolveType) return null;
  const [argument, ...more] = node.arguments ?? [];
  if (!argument || more.length > 0 || argument.name.value !== "id") return null;
  const variables = operation.variableDefinitions ?? [];
  let id: OperationPlan["id"];
  if (argument.value.kind === Kind.STRING && variables.length === 0) {
    id = { literal: argument.value.value };
  } else if (argument.value.kind === Kind.VARIABLE && variables.length === 1) {
    const [definition] = variables;
    const named = definition.type.kind === Kind.NON_NULL_TYPE
      ? definition.type.type
      : definition.type;
    if (
      definition.variable.name.value !== argument.value.name.value ||
      named.kind !== Kind.NAMED_TYPE || named.name.value !== "ID" || definition.directives?.length
    ) return null;
    id = { variable: argument.value.name.value };
  } else return null;
  return { executor, root: query.name, keys, field: node, fragments, id, types: new Map() };
}

/** The plan of `type`'s selection under the operation's `node` field, or `null`. */
function typePlan(
  planner: Planner,
  operation: OperationPlan,
  type: NodeType,
  ctx: RequestState,
): TypePlan | null {
  const { schema } = planner;
  const object = schema.getType(type.name);
  if (type.abstract || type.rows || !(object instanceof GraphQLObjectType)) return null;
  let plan: NodePlan;
  try {
    plan = collectNodePlan(ctx, schema, operation.fragments, {}, operation.field, type);
  } catch {
    return null;
  }
  const meta = ctx.em.getMetadata().find(type.entity);
  if (!meta || !plan.props || [...plan.props].some((prop) => meta.properties[prop]?.lazy)) {
    return null;
  }
  const [edge, ...others] = plan.edges;
  if (others.length > 0) return null;
  if (edge && (!edge.edge.connection || edge.node.edges.length > 0)) return null;
  const answer = compileSelection<Scope>(
    {
      schema,
      executor: operation.executor,
      fragments: operation.fragments,
      field: (parent, field, nodes) => fieldValue(planner, type, edge, parent, field, nodes),
    },
    object,
    operation.field.selectionSet ? [operation.field.selectionSet] : [],
  );
  return answer ? { type, plan, edge, answer } : null;
}

/**
 * How a planned answer reads `field` of `parent` (`compileSelection`'s field hook): the
 * generated global id of the planned node type, its connection edge from the scope, a field the
 * default resolver reads; `undefined` for anything else.
 */
function fieldValue(
  planner: Planner,
  type: NodeType,
  edge: EdgePlan | undefined,
  parent: GraphQLObjectType,
  field: GraphQLField<unknown, unknown>,
  nodes: readonly FieldNode[],
): FieldValue<Scope> | "default" | undefined {
  const resolve = field.resolve;
  if (parent.isTypeOf || resolve !== planner.resolvers.get(field)) return undefined;
  const nodeType = planner.source.graph.types[parent.name];
  if (nodeType) {
    if (field.name === "id" && resolve && globalIdSerialization(resolve)) {
      const id = resolve as (source: object) => unknown;
      return (source) => id(source);
    }
    const description = nodeType.edges[field.name];
    if (description) {
      if (
        nodeType !== type || !edge || !description.connection || !planner.edges.has(field) ||
        nodes.some((node) => node.arguments?.some((argument) => hasVariable(argument.value)))
      ) return undefined;
      const key = edgeKey(field.name, getArgumentValues(field, nodes[0], {}));
      if (key !== edge.key) return undefined;
      return (source, scope) => {
        if (source !== scope.node || scope.key !== key) throw new NotAnswered("another node");
        return scope.connection;
      };
    }
    if (!(field.name in nodeType.fields)) return undefined;
  }
  // A column (a field of the node type's) or a connection's, an edge's or PageInfo's field.
  return resolve === undefined ? "default" : undefined;
}

/** Whether an argument's value holds a variable. */
function hasVariable(value: ValueNode): boolean {
  if (value.kind === Kind.VARIABLE) return true;
  if (value.kind === Kind.LIST) return value.values.some(hasVariable);
  if (value.kind === Kind.OBJECT) return value.fields.some((field) => hasVariable(field.value));
  return false;
}
