/**
 * Planned operations: a `node(id)` query, or a query of one root connection's page, answered from
 * a plan made once per document, operation and node type, without GraphQL execution (issue 39's
 * "plan once, run many"). A request of a planned operation binds its id (or coerces its variables
 * and reads its arguments as graphql-js does), sends the statements the resolvers send (for
 * `node(id)`, the node with the page of its one connection edge in one statement,
 * `read/joined_page.ts`, or the node alone, `findNodes`; for a root connection, its page and
 * `totalCount` as `readConnection` reads them), and builds the answer from the rows with the
 * compiled selection (`selection_answer.ts`): no resolver call, no field collection, no connection
 * resolution per request. The `PlannedReads` plugin (`plugins/planned_reads.ts`) runs it in place
 * of the execute function, so every plugin wrapping execution (the cost check, the deadline, the
 * read retry, the request log's statement count) wraps it as it wraps execution.
 *
 * An operation is planned when all of this holds, else it executes as before:
 *
 * - the schema is a generated one without policies (`createGraphQLSchema`), unchanged since it
 *   was built: every field's resolver is still the one it was built with (no plugin wrapped it),
 *   and no user resolver replaces `Query.node`, `Node`'s type resolution or a field it answers;
 * - the operation is a query whose root fields are one planned field and `__typename`, with no
 *   directive: `node`, its `id` a string literal or a variable of type `ID` (the operation's only
 *   one), or a type's root connection (`users`), with any arguments;
 * - for the node type the id names, or the connection's: a concrete type without subclasses, its
 *   selection (as field collection plans it, `collectNodePlan`, `collectConnectionPlan`) of listed
 *   columns; under `node`, at most one edge, a connection whose arguments are literals, whose
 *   nodes select no edge and which `readJoinedPage` joins; under a root connection, no edge;
 *   every selected field answered by `compileSelection`: `__typename`, `id` (the generated global
 *   id), columns, a root connection's `totalCount` (counted before the answer is built) and the
 *   connections' other fields read as the default resolver reads them.
 *
 * At run time anything the plan does not answer as execution would (an id that is not a string,
 * variables or arguments graphql-js refuses, a row of another class, a `null` in a non-null field,
 * an error thrown while planning the page or reading) executes the operation as before: its
 * errors and answer are then the normal path's (after the plan's statements, if it sent any). An
 * id that names no row answers `NOT_FOUND` as `resolveNode` throws it.
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
  getNamedType,
  getOperationAST,
  getVariableValues,
  type GraphQLField,
  type GraphQLInterfaceType,
  GraphQLObjectType,
  type GraphQLSchema,
  Kind,
  locatedError,
  type OperationDefinitionNode,
  type ValueNode,
  type VariableDefinitionNode,
} from "graphql";
import type { Graph, NodeType } from "../graph.ts";
import { nodeTypeOf } from "../graph.ts";
import { keyFits } from "../column_values.ts";
import { notFound } from "../error_codes.ts";
import {
  collectConnectionPlan,
  collectNodePlan,
  type ConnectionSelection,
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
import { readConnection } from "./root_fields.ts";
import { connectionName } from "../names.ts";
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
  /** The root connection fields whose resolver is the generated one. */
  readonly connections: Set<GraphQLField<unknown, unknown>>;
  /** The `totalCount` fields of connection types whose resolver is the generated one. */
  readonly counts: Set<GraphQLField<unknown, unknown>>;
}

/** A planned answer's per-request values beside its source object. */
interface Scope {
  /** The object whose planned field the scope answers: the node, or the root connection. */
  readonly owner: object;
  /** The node's joined edge: its load key (`edgeKey`) and its connection. */
  readonly key?: string;
  readonly connection?: Connection<object>;
  /** The root connection's `totalCount`, counted before the answer is built. */
  readonly totalCount?: number;
}

/** The plan of one node type under a planned operation's `node` field. */
interface TypePlan {
  readonly type: NodeType;
  readonly plan: NodePlan;
  /** The plan's one edge (a connection read with the node), if any. */
  readonly edge?: EdgePlan;
  readonly answer: SelectionAnswer<Scope>;
}

/** The plan of a root connection field's selection. */
interface ConnectionPlan {
  readonly selection: ConnectionSelection;
  readonly answer: SelectionAnswer<Scope>;
}

/** A root field of a planned operation. */
type RootKey =
  | { readonly key: string; readonly kind: "typename" }
  | { readonly key: string; readonly kind: "planned" };

/** The planned root field of an operation: `node(id)`. */
interface NodeRoot {
  readonly kind: "node";
  readonly key: string;
  readonly field: FieldNode;
  /** The id: a variable's name, or the literal. */
  readonly id: { readonly variable: string } | { readonly literal: string };
  /** By node type name; `null` when that type's selection is not planned. */
  readonly types: Map<string, TypePlan | null>;
}

/** The planned root field of an operation: a type's root connection (`users(first: 10)`). */
interface ConnectionRoot {
  readonly kind: "connection";
  readonly key: string;
  readonly field: FieldNode;
  readonly type: NodeType;
  readonly definition: GraphQLField<unknown, unknown>;
  /** Made on first use; `null` when the selection is not planned. */
  plan?: ConnectionPlan | null;
}

/** A planned operation: its root fields and the plan of its one planned root field. */
interface OperationPlan {
  /** The executor whose field order the answers follow. */
  readonly executor: Executor;
  /** The query type's name (the root `__typename`). */
  readonly root: string;
  readonly keys: readonly RootKey[];
  readonly fragments: Record<string, FragmentDefinitionNode>;
  readonly variables: readonly VariableDefinitionNode[];
  readonly planned: NodeRoot | ConnectionRoot;
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
  const connections = new Set<GraphQLField<unknown, unknown>>();
  const counts = new Set<GraphQLField<unknown, unknown>>();
  const rootFields = new Set(Object.values(source.graph.queryFields));
  const connectionTypes = new Set(Object.keys(source.graph.types).map(connectionName));
  const query = schema.getQueryType();
  for (const type of Object.values(schema.getTypeMap())) {
    if (!(type instanceof GraphQLObjectType)) continue;
    const nodeType = source.graph.types[type.name];
    for (const field of Object.values(type.getFields())) {
      resolvers.set(field, field.resolve);
      if (replaced(type.name, field.name)) continue;
      if (nodeType?.edges[field.name]) edges.add(field);
      if (type === query && rootFields.has(field.name)) connections.add(field);
      if (connectionTypes.has(type.name) && field.name === "totalCount") counts.add(field);
    }
  }
  const node = schema.getType("Node") as GraphQLInterfaceType | undefined;
  PLANNERS.set(schema, {
    source,
    schema,
    resolvers,
    edges,
    resolveType: node?.resolveType,
    connections,
    counts,
  });
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
  const { planned } = operation;
  let id: unknown;
  if (planned.kind === "node") {
    id = "literal" in planned.id ? planned.id.literal : args.variableValues?.[planned.id.variable];
    if (typeof id !== "string") return undefined;
  }
  return async (execute) => {
    const answer = planned.kind === "node"
      ? await runNode(planner, operation, planned, id as string, args)
      : await runConnection(planner, operation, planned, args);
    if (answer !== undefined) {
      plannedStats.answered++;
      return answer;
    }
    plannedStats.executed++;
    return await execute(args);
  };
}

/**
 * The answer of a planned `node(id)` operation for `id`, or `undefined` where the plan does not
 * answer.
 */
async function runNode(
  planner: Planner,
  operation: OperationPlan,
  root: NodeRoot,
  id: string,
  args: ExecutionArgs,
): Promise<ExecutionResult | undefined> {
  const { graph } = planner.source;
  let data: Record<string, unknown>;
  try {
    const decoded = decodeGlobalId(graph, id);
    if (!decoded) return undefined;
    const ctx = planner.source.request(args.contextValue as MikroContext);
    let known = root.types.get(decoded.type.name);
    if (known === undefined) {
      known = typePlan(planner, operation, root, decoded.type, ctx);
      root.types.set(decoded.type.name, known);
    }
    const plan = known;
    if (!plan || !keyFits(ctx.em, decoded.type, decoded.pk)) return undefined;
    let scope: Scope;
    if (plan.edge) {
      const read = await readJoinedPage(ctx, plan.type, decoded.pk, plan.plan);
      if (!read || read.edge !== plan.edge) return undefined;
      if (!read.node) return notFoundAnswer(operation, root, id);
      const rows = read.rows;
      const connection = toConnection(read.many.page, rows, () => rows.length);
      scope = { owner: read.node, key: plan.edge.key, connection };
    } else {
      const [node] = await findNodes(
        ctx.em,
        [id],
        [decoded],
        () => fieldsOf(plan.plan),
        () => null,
      );
      if (!node) return notFoundAnswer(operation, root, id);
      scope = { owner: node };
    }
    if (nodeTypeOf(graph, scope.owner) !== plan.type) return undefined;
    data = answerOf(operation, plan.answer(scope.owner, scope));
  } catch {
    return undefined;
  }
  return { data };
}

/**
 * The answer of a planned root connection operation, or `undefined` where the plan does not
 * answer: its variables coerced and its arguments read as graphql-js does, the connection read
 * with its selection collected once (`readConnection`), its `totalCount` counted when selected.
 */
async function runConnection(
  planner: Planner,
  operation: OperationPlan,
  root: ConnectionRoot,
  args: ExecutionArgs,
): Promise<ExecutionResult | undefined> {
  let data: Record<string, unknown>;
  try {
    const ctx = planner.source.request(args.contextValue as MikroContext);
    if (root.plan === undefined) root.plan = connectionPlan(planner, operation, root, ctx);
    const plan = root.plan;
    if (!plan) return undefined;
    const variables = operation.variables.length === 0
      ? { coerced: {} }
      : getVariableValues(planner.schema, operation.variables, args.variableValues ?? {});
    if (!("coerced" in variables)) return undefined;
    const given = getArgumentValues(root.definition, root.field, variables.coerced);
    const connection = await readConnection(ctx, root.type, given, plan.selection, root.key);
    const totalCount = plan.selection.totalCount ? await connection.totalCount() : undefined;
    data = answerOf(operation, plan.answer(connection, { owner: connection, totalCount }));
  } catch {
    return undefined;
  }
  return { data };
}

/** The data of `operation` whose planned root field answers `answer`. */
function answerOf(operation: OperationPlan, answer: unknown): Record<string, unknown> {
  const data: Record<string, unknown> = {};
  for (const root of operation.keys) {
    data[root.key] = root.kind === "typename" ? operation.root : answer;
  }
  return data;
}

/**
 * The answer of a planned operation whose id names no row the request may read: `null` with the
 * `NOT_FOUND` error at the `node` field, as `resolveNode` throws it and the executor reports it.
 */
function notFoundAnswer(operation: OperationPlan, root: NodeRoot, id: string): ExecutionResult {
  const data = answerOf(operation, null);
  // graphql-jit's errors carry no locations (its `GraphQLError` drops them).
  const nodes = operation.executor === "graphql-jit" ? undefined : [root.field];
  const errors = [locatedError(notFound(id), nodes, [root.key])];
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
  let field: FieldNode | undefined;
  for (const selection of operation.selectionSet.selections) {
    if (selection.kind !== Kind.FIELD || selection.directives?.length) return null;
    const key = selection.alias?.value ?? selection.name.value;
    if (keys.some((known) => known.key === key)) return null;
    if (selection.name.value === "__typename") keys.push({ key, kind: "typename" });
    else if (!field) keys.push({ key, kind: "planned" }), field = selection;
    else return null;
  }
  if (!field) return null;
  const definition = query.getFields()[field.name.value] as
    | GraphQLField<unknown, unknown>
    | undefined;
  if (!definition || definition.resolve !== planner.resolvers.get(definition)) return null;
  const key = field.alias?.value ?? field.name.value;
  const variables = operation.variableDefinitions ?? [];
  const plan = { executor, root: query.name, keys, fragments, variables };
  const typeName = Object.entries(planner.source.graph.queryFields)
    .find(([, name]) => name === field.name.value)?.[0];
  if (typeName !== undefined) {
    if (!planner.connections.has(definition)) return null;
    const type = planner.source.graph.types[typeName];
    return { ...plan, planned: { kind: "connection", key, field, type, definition } };
  }
  if (field.name.value !== "node") return null;
  const nodeInterface = schema.getType("Node") as GraphQLInterfaceType | undefined;
  if (nodeInterface?.resolveType !== planner.resolveType) return null;
  const [argument, ...more] = field.arguments ?? [];
  if (!argument || more.length > 0 || argument.name.value !== "id") return null;
  let id: NodeRoot["id"];
  if (argument.value.kind === Kind.STRING && variables.length === 0) {
    id = { literal: argument.value.value };
  } else if (argument.value.kind === Kind.VARIABLE && variables.length === 1) {
    const [variable] = variables;
    const named = variable.type.kind === Kind.NON_NULL_TYPE ? variable.type.type : variable.type;
    if (
      variable.variable.name.value !== argument.value.name.value ||
      named.kind !== Kind.NAMED_TYPE || named.name.value !== "ID" || variable.directives?.length
    ) return null;
    id = { variable: argument.value.name.value };
  } else return null;
  return { ...plan, planned: { kind: "node", key, field, id, types: new Map() } };
}

/** The plan of `type`'s selection under the operation's `node` field, or `null`. */
function typePlan(
  planner: Planner,
  operation: OperationPlan,
  root: NodeRoot,
  type: NodeType,
  ctx: RequestState,
): TypePlan | null {
  const { schema } = planner;
  const object = schema.getType(type.name);
  if (type.abstract || type.rows || !(object instanceof GraphQLObjectType)) return null;
  let plan: NodePlan;
  try {
    plan = collectNodePlan(ctx, schema, operation.fragments, {}, root.field, type);
  } catch {
    return null;
  }
  if (!listedColumns(ctx, plan)) return null;
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
    root.field.selectionSet ? [root.field.selectionSet] : [],
  );
  return answer ? { type, plan, edge, answer } : null;
}

/** The plan of a root connection's selection, or `null` (see the module documentation). */
function connectionPlan(
  planner: Planner,
  operation: OperationPlan,
  root: ConnectionRoot,
  ctx: RequestState,
): ConnectionPlan | null {
  const { schema } = planner;
  const { type } = root;
  const object = getNamedType(root.definition.type);
  if (type.abstract || type.rows || !(object instanceof GraphQLObjectType)) return null;
  let selection: ConnectionSelection;
  try {
    selection = collectConnectionPlan(ctx, schema, operation.fragments, {}, root.field, type);
  } catch {
    return null;
  }
  if (selection.node.edges.length > 0 || !listedColumns(ctx, selection.node)) return null;
  const answer = compileSelection<Scope>(
    {
      schema,
      executor: operation.executor,
      fragments: operation.fragments,
      field: (parent, field, nodes) => fieldValue(planner, type, undefined, parent, field, nodes),
    },
    object,
    root.field.selectionSet ? [root.field.selectionSet] : [],
  );
  return answer ? { selection, answer } : null;
}

/** Whether `plan` reads listed columns (not every column), none of them lazy. */
function listedColumns(ctx: RequestState, plan: NodePlan): boolean {
  const meta = ctx.em.getMetadata().find(plan.type.entity);
  return !!meta && !!plan.props && ![...plan.props].some((prop) => meta.properties[prop]?.lazy);
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
        if (source !== scope.owner || scope.key !== key) throw new NotAnswered("another node");
        return scope.connection;
      };
    }
    if (!(field.name in nodeType.fields)) return undefined;
  }
  // A root connection's count, counted before the answer is built.
  if (field.name === "totalCount" && planner.counts.has(field)) {
    return (source, scope) => {
      if (source !== scope.owner || scope.totalCount === undefined) {
        throw new NotAnswered("another connection");
      }
      return scope.totalCount;
    };
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
