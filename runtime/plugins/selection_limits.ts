/**
 * The per-selection limits of the `Limits` plugin, checked on the parsed document before
 * graphql-js validates it (validation's overlap check is quadratic in a selection's size): the
 * number of aliased fields in one selection set, and how often one response key or one fragment
 * spread repeats in it. Each selection set of the document is looked at once.
 *
 * @module
 */
import { type DocumentNode, type GraphQLError, Kind, type SelectionSetNode } from "graphql";
import { ErrorCode, gqlError } from "../error_codes.ts";

/** The limits {@linkcode checkSelections} applies. */
export interface SelectionLimits {
  /** Most aliased fields in one selection set. */
  maxAliases: number;
  /** Most occurrences of one response key (or one fragment spread) in one selection set. */
  maxFieldRepeats: number;
}

/**
 * The first selection set of `document` over a limit, as a `QUERY_TOO_COMPLEX` error naming the
 * limit and its value; `undefined` when every selection set is within the limits.
 */
export function checkSelections(
  document: DocumentNode,
  limits: SelectionLimits,
): GraphQLError | undefined {
  for (const definition of document.definitions) {
    if ("selectionSet" in definition && definition.selectionSet) {
      const error = checkTree(definition.selectionSet, limits);
      if (error) return error;
    }
  }
  return undefined;
}

/**
 * `set`, then the selection sets inside it, in document order (as graphql-js's `visit` enters
 * them, without walking arguments and values); stops at the first over a limit. The recursion is
 * as deep as the document's brackets nest (`maxNesting`, checked before parsing).
 */
function checkTree(set: SelectionSetNode, limits: SelectionLimits): GraphQLError | undefined {
  const error = checkSet(set, limits);
  if (error) return error;
  for (const selection of set.selections) {
    if (selection.kind !== Kind.FRAGMENT_SPREAD && selection.selectionSet) {
      const inner = checkTree(selection.selectionSet, limits);
      if (inner) return inner;
    }
  }
  return undefined;
}

function checkSet(set: SelectionSetNode, limits: SelectionLimits): GraphQLError | undefined {
  let aliases = 0;
  const counts = new Map<string, number>();
  for (const selection of set.selections) {
    let key: string;
    if (selection.kind === Kind.FIELD) {
      if (selection.alias) aliases++;
      key = (selection.alias ?? selection.name).value;
    } else if (selection.kind === Kind.FRAGMENT_SPREAD) {
      key = `...${selection.name.value}`;
    } else {
      continue;
    }
    const count = (counts.get(key) ?? 0) + 1;
    counts.set(key, count);
    if (count > limits.maxFieldRepeats) {
      return gqlError(
        ErrorCode.QUERY_TOO_COMPLEX,
        `"${
          key.slice(0, 100)
        }" appears more than ${limits.maxFieldRepeats} times in one selection; the limit is maxFieldRepeats = ${limits.maxFieldRepeats}`,
      );
    }
  }
  if (aliases > limits.maxAliases) {
    return gqlError(
      ErrorCode.QUERY_TOO_COMPLEX,
      `a selection has ${aliases} aliases; the limit is maxAliases = ${limits.maxAliases}`,
    );
  }
  return undefined;
}
