/**
 * The cost of an operation: the worst-case number of nodes it can return, computed from the
 * document before anything runs (GitHub's GraphQL API rule, which allows 500,000).
 *
 * - A field returning a `<T>Connection` returns at most `first`/`last` nodes, or `maxPageSize`
 *   when neither is given (or a variable holds no number); a list field outside a connection
 *   returns at most as many nodes as its list argument has items (`nodes(ids)`), else
 *   `maxPageSize`. Lists inside a connection (`edges`) are its page, not counted again.
 * - The nodes of a field count once per node of every list field above it: the sizes multiply
 *   down each nesting level and add up over sibling fields, aliases and fragments.
 * - `@skip`/`@include` are ignored (worst case). A named fragment is costed once per operation
 *   and reused at every spread, so the computation is linear in the document.
 *
 * @module
 */
import {
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  getNamedType,
  getNullableType,
  type GraphQLCompositeType,
  type GraphQLSchema,
  isCompositeType,
  isListType,
  Kind,
  type OperationDefinitionNode,
  type SelectionSetNode,
  valueFromASTUntyped,
} from "graphql";
import { isConnectionName } from "./names.ts";

/** What {@linkcode operationCost} needs besides the operation. */
export interface CostContext {
  /** The executable schema (field types and arguments). */
  schema: GraphQLSchema;
  /** The whole request document (its fragments are expanded). */
  document: DocumentNode;
  /** The request's variables, as sent. */
  variables: Record<string, unknown>;
  /** The page size of a connection without `first`/`last`, and of an unbounded list. */
  maxPageSize: number;
}

/**
 * The worst-case number of nodes `operation` returns (see the module documentation).
 *
 * @returns a non-negative number, `Infinity` when it overflows
 */
export function operationCost(operation: OperationDefinitionNode, context: CostContext): number {
  const root = context.schema.getRootType(operation.operation);
  if (!root) return 0;
  return new Coster(context).selectionSet(operation.selectionSet, root);
}

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

  /** The cost of `set` for one node of `parent`. */
  selectionSet(set: SelectionSetNode, parent: GraphQLCompositeType): number {
    let cost = 0;
    for (const selection of set.selections) {
      if (selection.kind === Kind.FIELD) {
        cost += this.field(selection, parent);
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        cost += this.selectionSet(
          selection.selectionSet,
          this.type(selection.typeCondition?.name.value, parent),
        );
      } else {
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
    const type = this.type(fragment.typeCondition.name.value, undefined);
    const cost = type ? this.selectionSet(fragment.selectionSet, type) : 0;
    this.#costs.set(name, cost);
    return cost;
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

  field(field: FieldNode, parent: GraphQLCompositeType): number {
    if (!field.selectionSet || !("getFields" in parent)) return 0;
    const definition = parent.getFields()[field.name.value];
    if (!definition) return 0;
    const child = getNamedType(definition.type);
    if (!isCompositeType(child)) return 0;
    const inner = this.selectionSet(field.selectionSet, child);
    const size = this.size(field, parent, definition.type, child);
    return size === undefined ? inner : size + size * inner;
  }

  /** How many nodes the field returns at most; `undefined` for a single object. */
  size(
    field: FieldNode,
    parent: GraphQLCompositeType,
    type: Parameters<typeof getNullableType>[0],
    child: GraphQLCompositeType,
  ): number | undefined {
    const connection = isConnectionName(child.name) && "getFields" in child &&
      child.getFields().edges;
    if (
      !connection && (!isListType(getNullableType(type)) || isConnectionName(parent.name))
    ) {
      return undefined; // a single object: its arguments need no evaluation
    }
    const args = Object.fromEntries(
      (field.arguments ?? []).map((a) => [
        a.name.value,
        valueFromASTUntyped(a.value, this.context.variables),
      ]),
    );
    if (connection) {
      const page = typeof args.first === "number"
        ? args.first
        : typeof args.last === "number"
        ? args.last
        : this.context.maxPageSize;
      return Math.max(0, page);
    }
    const list = Object.values(args).find(Array.isArray);
    return list ? list.length : this.context.maxPageSize;
  }
}
