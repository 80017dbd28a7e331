/**
 * The widest node of an operation: the most fields its answer holds per item of a list (a
 * connection's edge, an item of a list edge or of `nodes(ids)`), so that the answer holds at
 * most (nodes read) × (widest) field values besides its root level. `Limits` divides
 * `maxCells` by it into the request's node budget (`limits.ts`).
 *
 * An item's fields are counted as they appear in the answer, fragments expanded (aliases and
 * repeated fields each count): its scalars, and its single objects with their own fields; a
 * list or connection inside it counts 1 (its items are items of their own list), and a
 * connection's `totalCount` and `pageInfo` count with the item that holds the connection. A
 * named fragment is walked once per operation and its width reused at every spread, so the
 * walk is linear in the document; `@skip`/`@include` are ignored (worst case).
 *
 * @module
 */
import {
  type DocumentNode,
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
} from "graphql";

/** The fields of one selection per node, and the widest list item found inside it. */
interface Width {
  /** Fields the selection puts into the answer per node it is selected on. */
  fields: number;
  /** The most fields of one item of a list inside the selection; 0 without a list. */
  widest: number;
}

/**
 * The most fields one list item of `operation`'s answer holds (see the module documentation).
 *
 * @returns 0 when the operation selects no list of objects
 */
export function widestNode(
  schema: GraphQLSchema,
  document: DocumentNode,
  operation: OperationDefinitionNode,
): number {
  const root = schema.getRootType(operation.operation);
  if (!root) return 0;
  return new WidthWalk(schema, document).selectionSet(operation.selectionSet, root).widest;
}

class WidthWalk {
  readonly #fragments = new Map<string, FragmentDefinitionNode>();
  /** Fragment name -> its width (`undefined` while being walked: a cycle, refused elsewhere). */
  readonly #widths = new Map<string, Width | undefined>();

  constructor(readonly schema: GraphQLSchema, document: DocumentNode) {
    for (const definition of document.definitions) {
      if (definition.kind === Kind.FRAGMENT_DEFINITION) {
        this.#fragments.set(definition.name.value, definition);
      }
    }
  }

  selectionSet(set: SelectionSetNode, parent: GraphQLCompositeType): Width {
    const width: Width = { fields: 0, widest: 0 };
    const add = (inner: Width) => {
      width.fields += inner.fields;
      width.widest = Math.max(width.widest, inner.widest);
    };
    for (const selection of set.selections) {
      if (selection.kind === Kind.FIELD) {
        width.fields++;
        const definition = "getFields" in parent
          ? parent.getFields()[selection.name.value]
          : undefined;
        const child = definition && getNamedType(definition.type);
        if (!selection.selectionSet || !definition || !isCompositeType(child)) continue;
        const inner = this.selectionSet(selection.selectionSet, child);
        if (isListType(getNullableType(definition.type))) {
          // its items are nodes of their own: the field counts 1 here
          width.widest = Math.max(width.widest, inner.fields, inner.widest);
        } else {
          add(inner);
        }
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        const type = selection.typeCondition
          ? this.schema.getType(selection.typeCondition.name.value)
          : parent;
        if (isCompositeType(type)) add(this.selectionSet(selection.selectionSet, type));
      } else {
        add(this.fragment(selection.name.value));
      }
    }
    return width;
  }

  fragment(name: string): Width {
    if (this.#widths.has(name)) return this.#widths.get(name) ?? { fields: 0, widest: 0 };
    this.#widths.set(name, undefined);
    const fragment = this.#fragments.get(name);
    const type = fragment && this.schema.getType(fragment.typeCondition.name.value);
    const width = fragment && isCompositeType(type)
      ? this.selectionSet(fragment.selectionSet, type)
      : { fields: 0, widest: 0 };
    this.#widths.set(name, width);
    return width;
  }
}
