/**
 * Every GraphQL name derived from another name, decided here once for the generator (which
 * prints them) and the runtime (which reads them back): per node type `<T>Connection`,
 * `<T>Edge`, `<T>Order`, `<T>OrderField`, `<T>WhereInput`, the root connection field (`users`),
 * the mutation fields and inputs (`createPost`, `CreatePostInput`); per field the where
 * predicates (`textNEQ`, `hasParentWith`), the mutation input fields (`authorID`, `tagIDs`,
 * `addTagIDs`, `clearTitle`) and the edge order fields (`COMMENTS_COUNT`); per property the enum
 * of an enum property without a TypeScript enum (`TodoStatus`); per embeddable its input
 * (`AddressInput`); per class with rows of its own and subclasses the object type of its own
 * rows (`ManagerOnly`). The names follow entgql's.
 *
 * @module
 */
import pluralize from "pluralize";
import type { WhereOp } from "./graph.ts";

/**
 * `<T>Only`: the object type of the rows that are exactly the class of the interface `type`,
 * for a class with rows of its own and subclasses (`ManagerOnly` for `Manager`, whose interface
 * `Owner` implements too); `Type(name, { rows })` names it otherwise.
 */
export function rowsTypeName(type: string): string {
  return `${type}Only`;
}

/** `<T>Connection`: the Relay connection type of the node type `type`. */
export function connectionName(type: string): string {
  return `${type}Connection`;
}

/**
 * A connection type's name: ends in `Connection` (cost estimation tells connections from other
 * objects by it, with their `edges` field).
 */
export function isConnectionName(name: string): boolean {
  return name.endsWith("Connection");
}

/** `<T>Edge`: the edge type of `<T>Connection`. */
export function edgeName(type: string): string {
  return `${type}Edge`;
}

/** `<T>Order`: the `orderBy` input of connections of `type`. */
export function orderName(type: string): string {
  return `${type}Order`;
}

/** `<T>OrderField`: the enum of the properties `type` can be ordered by. */
export function orderFieldName(type: string): string {
  return `${type}OrderField`;
}

/**
 * `UPPER_SNAKE(<edge>)_`: the prefix of an order field on the edge property `prop`
 * (`<EDGE>_COUNT` on a non-unique edge, `<EDGE>_<FIELD>` on a unique one).
 */
export function edgeOrderFieldPrefix(prop: string): string {
  return `${prop.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toUpperCase()}_`;
}

/** `<T>WhereInput`: the `where` argument of connections of `type`. */
export function whereInputName(type: string): string {
  return `${type}WhereInput`;
}

/** A where input's name: ends in `WhereInput` (argument limits find `where` trees by it). */
export function isWhereInputName(name: string): boolean {
  return name.endsWith("WhereInput");
}

/** The name of the predicate `op` on the field `field`: `text` for `EQ`, else `textNEQ`, .... */
export function predicateName(field: string, op: WhereOp): string {
  return op === "EQ" ? field : `${field}${op}`;
}

/** `has<Edge>`, or `has<Edge>With` when `withFilter`. */
export function hasPredicateName(edge: string, withFilter = false): string {
  return `has${upperFirst(edge)}${withFilter ? "With" : ""}`;
}

/**
 * `<field><Leaf>`: the where predicate base name of a leaf of an embedded field
 * (`addressCity` for `address.city`).
 */
export function embeddedPredicateName(field: string, leaf: string): string {
  return `${field}${upperFirst(leaf)}`;
}

/** `<edge>ID`: a unique edge's global id, in where inputs and mutation inputs. */
export function edgeIdName(edge: string): string {
  return `${edge}ID`;
}

/** `<singular>IDs`: a non-unique edge's global ids in `Create<T>Input` (`tags` -> `tagIDs`). */
export function edgeIdsName(edge: string): string {
  return `${pluralize.singular(edge)}IDs`;
}

/** `add<Singular>IDs`: the ids `Update<T>Input` adds to a non-unique edge. */
export function addIdsName(edge: string): string {
  return `add${upperFirst(pluralize.singular(edge))}IDs`;
}

/** `remove<Singular>IDs`: the ids `Update<T>Input` removes from a non-unique edge. */
export function removeIdsName(edge: string): string {
  return `remove${upperFirst(pluralize.singular(edge))}IDs`;
}

/** `clear<Field>`: the `Update<T>Input` flag that clears a field or an edge. */
export function clearName(field: string): string {
  return `clear${upperFirst(field)}`;
}

/** The camel-case plural of `type` (`User` -> `users`): its default root connection field. */
export function queryFieldName(type: string): string {
  const plural = pluralize(type);
  return plural.charAt(0).toLowerCase() + plural.slice(1);
}

/** `<type>Changed` (`Task` -> `taskChanged`): the default root field of a type's change feed. */
export function subscriptionFieldName(type: string): string {
  return `${type.charAt(0).toLowerCase()}${type.slice(1)}Changed`;
}

/** `<T>ChangeEvent`: the event type of a type's change feed. */
export function changeEventName(type: string): string {
  return `${type}ChangeEvent`;
}

/** The enum of a change event's `operation`: `CREATED`, `UPDATED`, `DELETED`. */
export const CHANGE_OPERATION = "ChangeOperation";

/** `create<T>`: the root mutation field that creates a `type`. */
export function createFieldName(type: string): string {
  return `create${type}`;
}

/** `Create<T>Input`: the input of `create<T>`. */
export function createInputName(type: string): string {
  return `Create${type}Input`;
}

/** `update<T>`: the root mutation field that updates a `type`. */
export function updateFieldName(type: string): string {
  return `update${type}`;
}

/** `Update<T>Input`: the input of `update<T>`. */
export function updateInputName(type: string): string {
  return `Update${type}Input`;
}

/** `delete<T>`: the root mutation field that deletes a `type`. */
export function deleteFieldName(type: string): string {
  return `delete${type}`;
}

/** `<Name>Input`: the input type of the embeddable object type `embeddable`. */
export function embeddableInputName(embeddable: string): string {
  return `${embeddable}Input`;
}

/**
 * `<Type><Property>`: the GraphQL enum of an enum property whose values are not an exported
 * TypeScript enum (`status` of `Todo` -> `TodoStatus`; `snake_case` parts are joined).
 */
export function propertyEnumName(type: string, prop: string): string {
  return `${type}${
    prop.replace(/(^|_)([a-z])/g, (_m, _u, c: string) => c.toUpperCase()).replace(/_/g, "")
  }`;
}

function upperFirst(name: string): string {
  return name.charAt(0).toUpperCase() + name.slice(1);
}
