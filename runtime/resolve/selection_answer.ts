/**
 * Answers built from a selection set without GraphQL execution: a selection over an object type,
 * compiled once into a function from a source object to the answer object graphql-js would
 * complete for it, for a planned operation (`planned_operations.ts`).
 *
 * It follows graphql-js's `execute` (`collectFields`, `completeValue`, the default field
 * resolver) for what it covers, and covers only what it can follow exactly:
 *
 * - fields are collected by response key (alias or name) as the executor that would run the
 *   operation collects them (graphql-js or graphql-jit: {@linkcode collectResponseKeys}), inline
 *   fragments and named fragments whose type condition applies, so the answer's keys come in the
 *   same order;
 * - `__typename` is the object type's name;
 * - a field the schema resolves with the default resolver reads the source's property of its
 *   name (a function-valued property, which the default resolver would call, is not answered);
 *   which fields are read so and which through a function of the caller's, the caller's `field`
 *   hook decides;
 * - a leaf value is `null` or its type's `serialize` (a scalar's, an enum's); a list completes
 *   each item; an object type its own selection, merged over the field's nodes; a `null` in a
 *   non-null place, a list value that is not an array and a leaf that serializes to
 *   `undefined` are not answered.
 *
 * Not compiled (`undefined`): a selection holding a directive (`@skip`, `@include` or any other),
 * a field of an interface or union type, a field the `field` hook does not answer.
 * At run time, a value the compiled answer cannot follow throws {@linkcode NotAnswered}: the
 * caller then executes the operation as usual.
 *
 * @module
 */
import {
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLField,
  type GraphQLObjectType,
  type GraphQLOutputType,
  type GraphQLSchema,
  isAbstractType,
  isLeafType,
  isListType,
  isNonNullType,
  isObjectType,
  type SelectionSetNode,
} from "graphql";

/** Thrown by a compiled answer for a value it cannot answer as graphql-js would. */
export class NotAnswered extends Error {
  constructor(reason: string) {
    super(`not answered from the plan: ${reason}`);
    this.name = "NotAnswered";
  }
}

/**
 * One field's answer: its value for `source` (before completion by the field's type), given the
 * per-request `scope` the caller passed to the compiled selection.
 */
export type FieldValue<S> = (source: object, scope: S) => unknown;

/**
 * The caller's hook for every field of `object` but `__typename`: the field's value function,
 * `"default"` to read it as graphql-js's default resolver does (a field without a resolver), or
 * `undefined` when the field is not answered (the selection is then not compiled).
 */
export type FieldHook<S> = (
  object: GraphQLObjectType,
  field: GraphQLField<unknown, unknown>,
  nodes: readonly FieldNode[],
) => FieldValue<S> | "default" | undefined;

/** What compiling a selection reads: the schema, the operation's fragments, the field hook. */
export interface SelectionContext<S> {
  readonly schema: GraphQLSchema;
  /** The executor whose field order the answer follows. */
  readonly executor: Executor;
  readonly fragments: Readonly<Record<string, FragmentDefinitionNode>>;
  readonly field: FieldHook<S>;
}

/** A compiled selection: the answer object for a source. */
export type SelectionAnswer<S> = (source: object, scope: S) => Record<string, unknown>;

/**
 * The executor whose answer a compiled selection follows: graphql-js's `execute`, or the query
 * graphql-jit compiled (the `Jit` plugin's), which collect fields in different orders.
 */
export type Executor = "graphql-js" | "graphql-jit";

/**
 * The fields of `sets` that apply to `object` by response key, in the order `executor` collects
 * them; `undefined` when a selection holds a directive. graphql-js (`collectFields`) expands
 * fragments where they stand, in document order; graphql-jit (`collectFields` of its `ast.ts`)
 * takes a selection set's own fields first and its fragments after, from a stack (the last
 * fragment first). Both expand a named fragment once per selection, the first time they meet it.
 */
export function collectResponseKeys(
  schema: GraphQLSchema,
  fragments: Readonly<Record<string, FragmentDefinitionNode>>,
  object: GraphQLObjectType,
  sets: readonly SelectionSetNode[],
  executor: Executor,
): Map<string, FieldNode[]> | undefined {
  const fields = new Map<string, FieldNode[]>();
  const visited = new Set<string>();
  const applies = (condition: string | undefined) => {
    if (condition === undefined || condition === object.name) return true;
    const type = schema.getType(condition);
    return !!type && isAbstractType(type) && schema.isSubType(type, object);
  };
  /** Collects `set`'s fields, expanding (graphql-js) or stacking (graphql-jit) its fragments. */
  const collect = (set: SelectionSetNode, stack: SelectionSetNode[]): boolean => {
    for (const selection of set.selections) {
      if (selection.directives && selection.directives.length > 0) return false;
      let inner: SelectionSetNode | undefined;
      if (selection.kind === "Field") {
        const key = selection.alias?.value ?? selection.name.value;
        const known = fields.get(key);
        if (known) known.push(selection);
        else fields.set(key, [selection]);
      } else if (selection.kind === "InlineFragment") {
        if (applies(selection.typeCondition?.name.value)) inner = selection.selectionSet;
      } else {
        const name = selection.name.value;
        if (visited.has(name)) continue;
        visited.add(name);
        const fragment = fragments[name];
        if (!fragment || !applies(fragment.typeCondition.name.value)) continue;
        if (fragment.directives && fragment.directives.length > 0) return false;
        inner = fragment.selectionSet;
      }
      if (!inner) continue;
      if (executor === "graphql-jit") stack.push(inner);
      else if (!collect(inner, stack)) return false;
    }
    return true;
  };
  for (const set of sets) {
    const stack = [set];
    while (stack.length > 0) if (!collect(stack.pop()!, stack)) return undefined;
  }
  return fields;
}

/**
 * The answer of `sets` over `object` (see the module documentation), or `undefined` when it is
 * not compiled.
 */
export function compileSelection<S>(
  context: SelectionContext<S>,
  object: GraphQLObjectType,
  sets: readonly SelectionSetNode[],
): SelectionAnswer<S> | undefined {
  const collected = collectResponseKeys(
    context.schema,
    context.fragments,
    object,
    sets,
    context.executor,
  );
  if (!collected) return undefined;
  const keys: string[] = [];
  const values: FieldValue<S>[] = [];
  const fields = object.getFields();
  for (const [key, nodes] of collected) {
    const name = nodes[0].name.value;
    if (name === "__typename") {
      const typename = object.name;
      keys.push(key);
      values.push(() => typename);
      continue;
    }
    const field = fields[name] as GraphQLField<unknown, unknown> | undefined;
    if (!field) return undefined;
    const hooked = context.field(object, field, nodes);
    const read = hooked === "default" ? defaultValue<S>(name) : hooked;
    if (!read) return undefined;
    const complete = compileValue(context, field.type, nodes);
    if (!complete) return undefined;
    keys.push(key);
    values.push((source, scope) => complete(read(source, scope), scope));
  }
  return (source, scope) => {
    const answer: Record<string, unknown> = {};
    for (let i = 0; i < keys.length; i++) answer[keys[i]] = values[i](source, scope);
    return answer;
  };
}

/** The default field resolver's read of `name` (a function-valued property not answered). */
function defaultValue<S>(name: string): FieldValue<S> {
  return (source) => {
    const value = (source as Record<string, unknown>)[name];
    if (typeof value === "function") throw new NotAnswered(`a function at ${name}`);
    return value;
  };
}

/** The completion of a value of `type` (graphql-js's `completeValue`) for the field's `nodes`. */
function compileValue<S>(
  context: SelectionContext<S>,
  type: GraphQLOutputType,
  nodes: readonly FieldNode[],
): ((value: unknown, scope: S) => unknown) | undefined {
  if (isNonNullType(type)) {
    const inner = compileValue(context, type.ofType, nodes);
    return inner && ((value, scope) => {
      if (value == null) throw new NotAnswered("null in a non-null place");
      return inner(value, scope);
    });
  }
  if (isListType(type)) {
    const item = compileValue(context, type.ofType, nodes);
    return item && ((value, scope) => {
      if (value == null) return null;
      if (!Array.isArray(value)) throw new NotAnswered("a list that is not an array");
      return value.map((entry) => item(entry, scope));
    });
  }
  if (isLeafType(type)) {
    return (value) => {
      if (value == null) return null;
      const serialized = type.serialize(value);
      if (serialized === undefined) throw new NotAnswered(`${type.name} serialized to undefined`);
      return serialized;
    };
  }
  if (!isObjectType(type)) return undefined;
  const sets = nodes.flatMap((node) => node.selectionSet ? [node.selectionSet] : []);
  const selection = compileSelection(context, type, sets);
  return selection && ((value, scope) => value == null ? null : selection(value as object, scope));
}
