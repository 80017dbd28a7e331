/**
 * The static cost of an operation: the number of nodes the document itself bounds, computed
 * before anything runs (GitHub's GraphQL API rule, multiplying only what the document bounds).
 *
 * - A field returning a `<T>Connection` returns at most `first`/`last` nodes; a list field
 *   outside a connection at most as many nodes as its list argument has items (`nodes(ids)`).
 *   Lists inside a connection (`edges`) are its page, not counted again.
 * - A connection without `first`/`last` (or whose variable holds no number), and a list edge,
 *   count 1 node here: what they read is paid at run time from the request's node budget
 *   (`sql/row_limit.ts`), which every statement draws from.
 * - The nodes of a field count once per node of every list field above it: the sizes multiply
 *   down each nesting level and add up over sibling fields, aliases and fragments.
 * - `@skip`/`@include` are ignored (worst case). A named fragment is costed once per operation
 *   and reused at every spread, so the computation is linear in the document.
 *
 * The same walk hands every argument of the document to `CostContext.argument` (the `Limits`
 * plugin's argument limits, `argument_limits.ts`), so the plugin reads a document once: the
 * arguments of fields and directives of the operation, of the fragments it spreads, and then of
 * the document's other operations and fragments, each argument once, its value computed once.
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
   * field). Operations and fragments the operation does not reach are walked only when it is
   * given.
   */
  argument?(
    node: ArgumentNode,
    value: unknown,
    type: GraphQLInputType | undefined,
    field: string,
  ): void;
}

/**
 * The number of nodes `operation` returns as far as its document bounds them (see the module
 * documentation).
 *
 * @returns a non-negative number, `Infinity` when it overflows
 */
export function operationCost(operation: OperationDefinitionNode, context: CostContext): number {
  const coster = new Coster(context);
  const cost = coster.operation(operation);
  if (context.argument) {
    for (const definition of context.document.definitions) {
      if (definition.kind === Kind.OPERATION_DEFINITION && definition !== operation) {
        coster.operation(definition);
      } else if (definition.kind === Kind.FRAGMENT_DEFINITION) {
        coster.fragment(definition.name.value);
      }
    }
  }
  return cost;
}

/** The static cost of a list the document does not bound: its nodes are paid at run time. */
const UNBOUNDED = 1;

class Coster {
  readonly #fragments = new Map<string, FragmentDefinitionNode>();
  /** Fragment name -> the cost of its selection per node (`undefined` while being costed). */
  readonly #costs = new Map<string, number | undefined>();

  constructor(readonly context: CostContext) {
    for (const definition of context.document.definitions) {
      if (definition.kind === Kind.FRAGMENT_DEFINITION) {
        this.#fragments.set(definition.name.value, definition);
      }
    }
  }

  /** The cost of `operation`, 0 for an operation type the schema lacks. */
  operation(operation: OperationDefinitionNode): number {
    this.directives(operation.directives, "");
    for (const variable of operation.variableDefinitions ?? []) {
      this.directives(variable.directives, "");
    }
    const root = this.context.schema.getRootType(operation.operation) ?? undefined;
    if (!root && !this.context.argument) return 0;
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
  ): number {
    let cost = 0;
    for (const selection of set.selections) {
      if (selection.kind === Kind.FIELD) {
        cost += this.field(selection, parent);
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        this.directives(selection.directives, field);
        cost += this.selectionSet(
          selection.selectionSet,
          parent && this.type(selection.typeCondition?.name.value, parent),
          field,
        );
      } else {
        this.directives(selection.directives, field);
        cost += this.fragment(selection.name.value);
      }
    }
    return cost;
  }

  fragment(name: string): number {
    if (this.#costs.has(name)) return this.#costs.get(name) ?? 0; // a cycle: validation refuses it
    const fragment = this.#fragments.get(name);
    if (!fragment) return 0;
    this.#costs.set(name, undefined);
    this.directives(fragment.directives, "");
    const type = this.type(fragment.typeCondition.name.value, undefined);
    const cost = type || this.context.argument
      ? this.selectionSet(fragment.selectionSet, type, "")
      : 0;
    this.#costs.set(name, type ? cost : 0);
    return type ? cost : 0;
  }

  /** Hands the arguments of `directives` (on or inside the field named `field`) over. */
  directives(directives: readonly DirectiveNode[] | undefined, field: string): void {
    if (!this.context.argument) return;
    for (const directive of directives ?? []) {
      this.arguments(
        directive.arguments,
        this.context.schema.getDirective(directive.name.value)?.args,
        field,
      );
    }
  }

  /**
   * The values of `nodes` by argument name (variables substituted), each handed to
   * `CostContext.argument` with its type among `definitions`.
   */
  arguments(
    nodes: readonly ArgumentNode[] | undefined,
    definitions: readonly GraphQLArgument[] | undefined,
    field: string,
  ): Record<string, unknown> {
    const values: Record<string, unknown> = {};
    for (const node of nodes ?? []) {
      const value = valueFromASTUntyped(node.value, this.context.variables);
      values[node.name.value] = value;
      this.context.argument?.(
        node,
        value,
        definitions?.find((a) => a.name === node.name.value)?.type,
        field,
      );
    }
    return values;
  }

  type(name: string | undefined, fallback: GraphQLCompositeType): GraphQLCompositeType;
  type(name: string, fallback: undefined): GraphQLCompositeType | undefined;
  type(
    name: string | undefined,
    fallback: GraphQLCompositeType | undefined,
  ): GraphQLCompositeType | undefined {
    if (name === undefined) return fallback;
    const type = this.context.schema.getType(name);
    return isCompositeType(type) ? type : fallback;
  }

  field(field: FieldNode, parent: GraphQLCompositeType | undefined): number {
    const name = field.name.value;
    const definition = parent && "getFields" in parent ? parent.getFields()[name] : undefined;
    const args = this.arguments(field.arguments, definition?.args, name);
    this.directives(field.directives, name);
    if (!field.selectionSet) return 0;
    const child = definition && getNamedType(definition.type);
    if (!parent || !definition || !isCompositeType(child) || !("getFields" in parent)) {
      // not a field of an object type the schema has (validation refuses it): no cost, and its
      // selection walked for its arguments only
      if (this.context.argument) this.selectionSet(field.selectionSet, undefined, name);
      return 0;
    }
    const inner = this.selectionSet(field.selectionSet, child, name);
    const size = this.size(args, parent, definition.type, child);
    return size === undefined ? inner : size + size * inner;
  }

  /**
   * How many nodes the field returns at most as far as the document says (1 when it does not);
   * `undefined` for a single object.
   */
  size(
    args: Record<string, unknown>,
    parent: GraphQLCompositeType,
    type: Parameters<typeof getNullableType>[0],
    child: GraphQLCompositeType,
  ): number | undefined {
    const connection = isConnectionName(child.name) && "getFields" in child &&
      child.getFields().edges;
    if (
      !connection && (!isListType(getNullableType(type)) || isConnectionName(parent.name))
    ) {
      return undefined; // a single object
    }
    if (connection) {
      const page = typeof args.first === "number"
        ? args.first
        : typeof args.last === "number"
        ? args.last
        : UNBOUNDED;
      return Math.max(0, page);
    }
    const list = Object.values(args).find(Array.isArray);
    return list ? list.length : UNBOUNDED;
  }
}
