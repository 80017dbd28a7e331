/**
 * The static cost of an operation: the number of nodes the document itself bounds, computed
 * before anything runs (GitHub's GraphQL API rule, multiplying only what the document bounds).
 *
 * - A field returning a `<T>Connection` returns at most `first`/`last` nodes; a list field
 *   outside a connection at most as many nodes as its list argument has items (`nodes(ids)`).
 *   Lists inside a connection (`edges`) are its page, not counted again.
 * - A connection without `first`/`last` (or whose variable holds no number), and a list edge,
 *   count 1 node here: what they read is paid at run time from the request's node budget
 *   (`read/row_limit.ts`), which every statement draws from.
 * - The nodes of a field count once per node of every list field above it: the sizes multiply
 *   down each nesting level and add up over sibling fields, aliases and fragments.
 * - `@skip`/`@include` are ignored (worst case). A named fragment is costed once per operation
 *   and reused at every spread, so the computation is linear in the document.
 *
 * The walk is planned once per operation of a parsed document ({@linkcode prepareCost}): the cost as
 * a number when the document fixes every bound, else as a function of the request's variables
 * (only the bounds a variable sets are read per request), and every argument of the document
 * (of fields and directives, in the operation, the fragments it spreads and the document's other
 * operations and fragments, each once) with its type and field, its value computed at planning
 * when it holds no variable. {@linkcode prepareArguments} hands them, variables substituted, to the
 * `Limits` plugin's argument limits (`argument_limits.ts`); {@linkcode operationCost} does both
 * for one request.
 *
 * @module
 */
import {
  type ArgumentNode,
  type DirectiveNode,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  getNamedType,
  getNullableType,
  type GraphQLArgument,
  type GraphQLCompositeType,
  type GraphQLInputType,
  type GraphQLSchema,
  isCompositeType,
  isListType,
  Kind,
  type OperationDefinitionNode,
  type SelectionSetNode,
  valueFromASTUntyped,
  type ValueNode,
} from "graphql";
import { isConnectionName } from "../names.ts";

/** What {@linkcode operationCost} needs besides the operation. */
export interface CostContext {
  /** The executable schema (field types and arguments). */
  schema: GraphQLSchema;
  /** The whole request document (its fragments are expanded). */
  document: DocumentNode;
  /** The request's variables, as sent. */
  variables: Record<string, unknown>;
  /**
   * Called once for every argument of the document (of fields and directives, in every
   * operation and fragment) with its value (variables substituted), its type when the schema
   * knows it, and the name of the field it belongs to (or is the directive of; `""` outside any
   * field).
   */
  argument?: ArgumentCallback;
}

/** Receives one argument of a document: see `CostContext.argument`. */
export type ArgumentCallback = (
  node: ArgumentNode,
  value: unknown,
  type: GraphQLInputType | undefined,
  field: string,
) => void;

/** One argument of a planned document. */
export interface PreparedArgument {
  readonly node: ArgumentNode;
  /** Its type, when the schema knows the field or directive. */
  readonly type: GraphQLInputType | undefined;
  /** The field it belongs to or is the directive of; `""` outside any field. */
  readonly field: string;
  /** Whether its value holds a variable (then it is computed per request). */
  readonly variable: boolean;
  /** Its value, when it holds no variable. */
  readonly value: unknown;
}

/** The cost of an operation planned once per parsed document: see {@linkcode prepareCost}. */
export interface PreparedCost {
  /** The cost, or how to compute it from the request's variables. */
  readonly cost: number | ((variables: Record<string, unknown>) => number);
  /** Every argument of the document, once each, in walk order. */
  readonly arguments: readonly PreparedArgument[];
}

/**
 * Plans the cost of `operation` of `document` over `schema` (see the module documentation).
 * The plan holds the document's nodes: cache it per parsed document.
 */
export function prepareCost(
  operation: OperationDefinitionNode,
  schema: GraphQLSchema,
  document: DocumentNode,
): PreparedCost {
  const planner = new Planner(schema, document);
  const cost = planner.operation(operation);
  for (const definition of document.definitions) {
    if (definition.kind === Kind.OPERATION_DEFINITION && definition !== operation) {
      planner.operation(definition);
    } else if (definition.kind === Kind.FRAGMENT_DEFINITION) {
      planner.fragment(definition.name.value);
    }
  }
  return { cost, arguments: planner.arguments };
}

/** The cost `plan` gives for `variables`: a non-negative number, `Infinity` when it overflows. */
export function evaluateCost(plan: PreparedCost, variables: Record<string, unknown>): number {
  return valueOf(plan.cost, variables);
}

/**
 * Hands each of `planned` (a plan's arguments, or some of them) to `argument`, its variables
 * substituted from `variables`.
 */
export function prepareArguments(
  planned: readonly PreparedArgument[],
  variables: Record<string, unknown>,
  argument: ArgumentCallback,
): void {
  for (const one of planned) {
    const value = one.variable ? valueFromASTUntyped(one.node.value, variables) : one.value;
    argument(one.node, value, one.type, one.field);
  }
}

/**
 * The number of nodes `operation` returns as far as its document bounds them (see the module
 * documentation), its arguments handed to `context.argument`: {@linkcode prepareCost} and its
 * evaluation for one request.
 *
 * @returns a non-negative number, `Infinity` when it overflows
 */
export function operationCost(operation: OperationDefinitionNode, context: CostContext): number {
  const plan = prepareCost(operation, context.schema, context.document);
  if (context.argument) prepareArguments(plan.arguments, context.variables, context.argument);
  return evaluateCost(plan, context.variables);
}

/** The static cost of a list the document does not bound: its nodes are paid at run time. */
const UNBOUNDED = 1;

/** A planned cost: a number, or a function of the request's variables. */
type Amount = number | ((variables: Record<string, unknown>) => number);

/** `amount` for `variables`. */
function valueOf(amount: Amount, variables: Record<string, unknown>): number {
  return typeof amount === "number" ? amount : amount(variables);
}

/** `amounts` added up: a number when all are numbers. */
function sum(amounts: Amount[]): Amount {
  let fixed = 0;
  const variable: ((variables: Record<string, unknown>) => number)[] = [];
  for (const amount of amounts) {
    if (typeof amount === "number") fixed += amount;
    else variable.push(amount);
  }
  if (variable.length === 0) return fixed;
  return (variables) => {
    let total = fixed;
    for (const amount of variable) total += amount(variables);
    return total;
  };
}

/** The cost of a list of `size` nodes each costing `inner`: `size + size * inner`. */
function list(size: Amount, inner: Amount): Amount {
  if (typeof size === "number" && typeof inner === "number") return size + size * inner;
  return (variables) => {
    const n = valueOf(size, variables);
    return n + n * valueOf(inner, variables);
  };
}

/** Whether `value` holds a variable. */
function holdsVariable(value: ValueNode): boolean {
  switch (value.kind) {
    case Kind.VARIABLE:
      return true;
    case Kind.LIST:
      return value.values.some(holdsVariable);
    case Kind.OBJECT:
      return value.fields.some((field) => holdsVariable(field.value));
    default:
      return false;
  }
}

class Planner {
  readonly arguments: PreparedArgument[] = [];
  readonly #fragments = new Map<string, FragmentDefinitionNode>();
  /** Fragment name -> the cost of its selection per node (`undefined` while being planned). */
  readonly #costs = new Map<string, Amount | undefined>();

  constructor(readonly schema: GraphQLSchema, document: DocumentNode) {
    for (const definition of document.definitions) {
      if (definition.kind === Kind.FRAGMENT_DEFINITION) {
        this.#fragments.set(definition.name.value, definition);
      }
    }
  }

  /** The cost of `operation`, 0 for an operation type the schema lacks. */
  operation(operation: OperationDefinitionNode): Amount {
    this.directives(operation.directives, "");
    for (const variable of operation.variableDefinitions ?? []) {
      this.directives(variable.directives, "");
    }
    const root = this.schema.getRootType(operation.operation) ?? undefined;
    const cost = this.selectionSet(operation.selectionSet, root, "");
    return root ? cost : 0;
  }

  /**
   * The cost of `set` for one node of `parent` (`undefined`: a type the schema lacks, walked
   * for its arguments only), inside the field named `field`.
   */
  selectionSet(
    set: SelectionSetNode,
    parent: GraphQLCompositeType | undefined,
    field: string,
  ): Amount {
    const costs: Amount[] = [];
    for (const selection of set.selections) {
      if (selection.kind === Kind.FIELD) {
        costs.push(this.field(selection, parent));
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        this.directives(selection.directives, field);
        costs.push(this.selectionSet(
          selection.selectionSet,
          parent && this.type(selection.typeCondition?.name.value, parent),
          field,
        ));
      } else {
        this.directives(selection.directives, field);
        costs.push(this.fragment(selection.name.value));
      }
    }
    return sum(costs);
  }

  fragment(name: string): Amount {
    if (this.#costs.has(name)) return this.#costs.get(name) ?? 0; // a cycle: validation refuses it
    const fragment = this.#fragments.get(name);
    if (!fragment) return 0;
    this.#costs.set(name, undefined);
    this.directives(fragment.directives, "");
    const type = this.type(fragment.typeCondition.name.value, undefined);
    const cost = this.selectionSet(fragment.selectionSet, type, "");
    this.#costs.set(name, type ? cost : 0);
    return type ? cost : 0;
  }

  /** Plans the arguments of `directives` (on or inside the field named `field`). */
  directives(directives: readonly DirectiveNode[] | undefined, field: string): void {
    for (const directive of directives ?? []) {
      this.plan(
        directive.arguments,
        this.schema.getDirective(directive.name.value)?.args,
        field,
      );
    }
  }

  /**
   * Plans `nodes`, each with its type among `definitions`; returns whether one holds a variable.
   */
  plan(
    nodes: readonly ArgumentNode[] | undefined,
    definitions: readonly GraphQLArgument[] | undefined,
    field: string,
  ): boolean {
    let variables = false;
    for (const node of nodes ?? []) {
      const variable = holdsVariable(node.value);
      variables ||= variable;
      this.arguments.push({
        node,
        type: definitions?.find((a) => a.name === node.name.value)?.type,
        field,
        variable,
        value: variable ? undefined : valueFromASTUntyped(node.value),
      });
    }
    return variables;
  }

  type(name: string | undefined, fallback: GraphQLCompositeType): GraphQLCompositeType;
  type(name: string, fallback: undefined): GraphQLCompositeType | undefined;
  type(
    name: string | undefined,
    fallback: GraphQLCompositeType | undefined,
  ): GraphQLCompositeType | undefined {
    if (name === undefined) return fallback;
    const type = this.schema.getType(name);
    return isCompositeType(type) ? type : fallback;
  }

  field(field: FieldNode, parent: GraphQLCompositeType | undefined): Amount {
    const name = field.name.value;
    const definition = parent && "getFields" in parent ? parent.getFields()[name] : undefined;
    const variables = this.plan(field.arguments, definition?.args, name);
    this.directives(field.directives, name);
    if (!field.selectionSet) return 0;
    const child = definition && getNamedType(definition.type);
    if (!parent || !definition || !isCompositeType(child) || !("getFields" in parent)) {
      // not a field of an object type the schema has (validation refuses it): no cost, and its
      // selection walked for its arguments only
      this.selectionSet(field.selectionSet, undefined, name);
      return 0;
    }
    const inner = this.selectionSet(field.selectionSet, child, name);
    const kind = sizeKind(parent, definition.type, child);
    if (kind === "single") return inner;
    const nodes = field.arguments ?? [];
    const size: Amount = variables
      ? (values) => listSize(kind, argumentValues(nodes, values))
      : listSize(kind, argumentValues(nodes, undefined));
    return list(size, inner);
  }
}

/** The values of `nodes` by argument name, variables substituted from `variables`. */
function argumentValues(
  nodes: readonly ArgumentNode[],
  variables: Record<string, unknown> | undefined,
): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const node of nodes) values[node.name.value] = valueFromASTUntyped(node.value, variables);
  return values;
}

/**
 * Whether a field returns a connection, a list outside a connection, or a single object (lists
 * inside a connection, `edges`, are its page).
 */
function sizeKind(
  parent: GraphQLCompositeType,
  type: Parameters<typeof getNullableType>[0],
  child: GraphQLCompositeType,
): "connection" | "list" | "single" {
  if (isConnectionName(child.name) && "getFields" in child && child.getFields().edges) {
    return "connection";
  }
  return isListType(getNullableType(type)) && !isConnectionName(parent.name) ? "list" : "single";
}

/** How many nodes a connection or list field returns at most as far as its arguments say. */
function listSize(kind: "connection" | "list", args: Record<string, unknown>): number {
  if (kind === "connection") {
    const page = typeof args.first === "number"
      ? args.first
      : typeof args.last === "number"
      ? args.last
      : UNBOUNDED;
    return Math.max(0, page);
  }
  const items = Object.values(args).find(Array.isArray);
  return items ? items.length : UNBOUNDED;
}
