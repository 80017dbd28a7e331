/**
 * The shape of a document's operations as they execute, computed on the parsed document before
 * validation: how many fields an operation selects once its fragments are expanded, and how deep
 * its edges nest. The `Limits` plugin refuses an operation over `maxFields` or `maxDepth` with
 * it; the `Jit` plugin compiles only operations of at most `maxCompiledFields` fields (graphql-jit's
 * compile is linear in the expanded operation, and runs on the event loop).
 *
 * Nothing is expanded: a named fragment is walked once per document and its shape reused at
 * every spread, so the walk is linear in the document whatever its fragments expand to (five
 * levels of fragments spread by ten aliases each: 525,253 fields, counted in one pass over
 * five fragments). The recursion is bounded by the document's bracket nesting (`maxNesting`,
 * `token_limits.ts`) and its number of fragments.
 *
 * @module
 */
import {
  type DocumentNode,
  type FragmentDefinitionNode,
  getNamedType,
  type GraphQLCompositeType,
  type GraphQLNamedType,
  type GraphQLSchema,
  isCompositeType,
  isInterfaceType,
  isObjectType,
  Kind,
  type SelectionSetNode,
} from "graphql";
import { isConnectionName } from "../names.ts";

/** What an operation selects, as far as its document says (`@skip`/`@include` ignored). */
export interface OperationShape {
  /**
   * The fields of the operation with every fragment spread expanded, `__typename` included: an
   * upper bound of the fields graphql-js and graphql-jit execute per node (they merge fields of
   * one response key, and collect a fragment spread twice in one selection once).
   */
  fields: number;
  /**
   * The deepest nesting of node levels: a root field returning nodes (a node type, a list of
   * them, or a connection) is level 1, and every edge below it (a field of a node type, one
   * implementing `Node`, returning nodes) one more. `0` for an operation selecting no nodes.
   */
  depth: number;
  /**
   * The most named fragment spreads collected into one selection: those of a selection set, of
   * its inline fragments, and of the fragments they spread at that level, transitively (each
   * spread counted, an upper bound). graphql-js's validation (`OverlappingFieldsCanBeMerged`)
   * compares these fragments pair by pair: its time grows with the square of this number.
   */
  spreads: number;
  /**
   * The work of graphql-js's overlap validation (`OverlappingFieldsCanBeMerged`) over the whole
   * document, counted without running it: for every selection set (each named fragment's once),
   * the fields collected into its level (its own, its inline fragments' and those of the
   * fragments spread at its level, transitively) grouped by response name; a name of `n` fields
   * adds `n - 1` times the fields of all `n` with what they select (graphql-js compares each
   * pair, and each comparison walks both sub-selections). 255 fields of one name with 10 fields
   * each below them count 647,700 and took graphql-js 2.7 s.
   */
  merges: number;
}

/** The fields of one response name collected into a level, and their size with what they select. */
interface Collected {
  count: number;
  size: number;
}

/** A selection set's shape, and the spreads and fields collected into its own level. */
interface Walked extends OperationShape {
  /** Named fragment spreads collected into this selection set's level. */
  level: number;
  /** Fields collected into this level by response name. */
  keys: ReadonlyMap<string, Collected>;
}

const NONE: Walked = { fields: 0, depth: 0, spreads: 0, merges: 0, level: 0, keys: new Map() };

const SHAPES = new WeakMap<DocumentNode, { schema: GraphQLSchema; shape: OperationShape }>();

/**
 * The shape of `document`'s largest operation: the most fields, the deepest edges and the most
 * spreads in one selection over its operations (each counted on its own), computed once per
 * parsed document and schema.
 *
 * @returns `fields`, `depth` and `spreads`, each `0` for a document without operations;
 *   `fields` is `Infinity` when it overflows; `merges` for the whole document
 */
export function documentShape(schema: GraphQLSchema, document: DocumentNode): OperationShape {
  const known = SHAPES.get(document);
  if (known?.schema === schema) return known.shape;
  const walker = new ShapeWalker(schema, document);
  const shape: OperationShape = { fields: 0, depth: 0, spreads: 0, merges: 0 };
  for (const definition of document.definitions) {
    if (definition.kind !== Kind.OPERATION_DEFINITION) continue;
    const root = schema.getRootType(definition.operation) ?? undefined;
    const operation = walker.selectionSet(definition.selectionSet, root);
    shape.fields = Math.max(shape.fields, operation.fields);
    shape.depth = Math.max(shape.depth, operation.depth);
    shape.spreads = Math.max(shape.spreads, operation.spreads);
  }
  shape.merges = walker.merges;
  SHAPES.set(document, { schema, shape });
  return shape;
}

class ShapeWalker {
  readonly #fragments = new Map<string, FragmentDefinitionNode>();
  /** Fragment name -> its shape (`null` while being walked: a cycle, which validation refuses). */
  readonly #shapes = new Map<string, Walked | null>();
  readonly #node: GraphQLNamedType | undefined;
  readonly #roots: Set<GraphQLCompositeType>;
  /** The overlap validation's work over every selection set walked (`OperationShape.merges`). */
  merges = 0;

  constructor(readonly schema: GraphQLSchema, document: DocumentNode) {
    for (const definition of document.definitions) {
      if (definition.kind === Kind.FRAGMENT_DEFINITION) {
        this.#fragments.set(definition.name.value, definition);
      }
    }
    this.#node = schema.getType("Node") ?? undefined;
    this.#roots = new Set(
      [schema.getQueryType(), schema.getMutationType(), schema.getSubscriptionType()]
        .filter((t) => t != null),
    );
  }

  /** The shape of `set` on `parent` (`undefined`: a type the schema lacks, which validation refuses). */
  selectionSet(set: SelectionSetNode, parent: GraphQLCompositeType | undefined): Walked {
    let fields = 0;
    let depth = 0;
    let spreads = 0;
    let level = 0;
    const keys = new Map<string, Collected>();
    const collect = (key: string, count: number, size: number) => {
      const known = keys.get(key);
      if (known) (known.count += count, known.size += size);
      else keys.set(key, { count, size });
    };
    for (const selection of set.selections) {
      let inner: Walked;
      if (selection.kind === Kind.FIELD) {
        fields++;
        const key = selection.alias?.value ?? selection.name.value;
        if (!selection.selectionSet) {
          collect(key, 1, 1);
          continue;
        }
        const definition = parent && "getFields" in parent
          ? parent.getFields()[selection.name.value]
          : undefined;
        const type = definition && getNamedType(definition.type);
        const child = isCompositeType(type) ? type : undefined;
        inner = this.selectionSet(selection.selectionSet, child);
        collect(key, 1, 1 + Math.min(inner.fields, Number.MAX_SAFE_INTEGER));
        const edge = parent && child && this.isEdge(parent, child);
        // a field's selection is a level of its own
        inner = { ...inner, depth: inner.depth + (edge ? 1 : 0), level: 0, keys: NONE.keys };
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        inner = this.selectionSet(
          selection.selectionSet,
          selection.typeCondition ? this.type(selection.typeCondition.name.value) : parent,
        );
      } else {
        const fragment = this.fragment(selection.name.value);
        inner = { ...fragment, level: fragment.level + 1 };
      }
      for (const [key, { count, size }] of inner.keys) collect(key, count, size);
      fields += inner.fields;
      depth = Math.max(depth, inner.depth);
      level += inner.level;
      spreads = Math.max(spreads, inner.spreads);
    }
    for (const { count, size } of keys.values()) {
      if (count > 1) this.merges += (count - 1) * size;
    }
    return { fields, depth, spreads: Math.max(spreads, level), merges: 0, level, keys };
  }

  fragment(name: string): Walked {
    const known = this.#shapes.get(name);
    if (known !== undefined) return known ?? NONE;
    const fragment = this.#fragments.get(name);
    if (!fragment) return NONE; // validation refuses it
    this.#shapes.set(name, null);
    const shape = this.selectionSet(
      fragment.selectionSet,
      this.type(fragment.typeCondition.name.value),
    );
    this.#shapes.set(name, shape);
    return shape;
  }

  type(name: string): GraphQLCompositeType | undefined {
    const type = this.schema.getType(name);
    return isCompositeType(type) ? type : undefined;
  }

  /** Whether a field of `parent` returning `child` starts a level of nodes. */
  isEdge(parent: GraphQLCompositeType, child: GraphQLCompositeType): boolean {
    if (!this.isNode(parent) && !this.#roots.has(parent)) return false;
    return this.isNode(child) || (isConnectionName(child.name) && "getFields" in child &&
      child.getFields().edges !== undefined);
  }

  isNode(type: GraphQLCompositeType): boolean {
    if (!this.#node) return false;
    return type === this.#node ||
      ((isObjectType(type) || isInterfaceType(type)) &&
        type.getInterfaces().includes(this.#node as never));
  }
}
