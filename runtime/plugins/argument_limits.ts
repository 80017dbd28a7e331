/**
 * The argument limits of the `Limits` plugin, checked on the operation's argument values
 * (variables substituted) before anything runs (before graphql-js coerces the variables):
 * string length, NUL characters and unpaired surrogates (the rules of `column_values.ts`), list
 * length, nesting of lists and objects (`maxInputDepth`), the size (list items included) and
 * the `has<Edge>With` depth of `where` trees, and
 * `orderBy` terms (each order field at most once, so at most as many terms as the type has order
 * fields). Every argument of the document is looked at once (fragments included), along the
 * walk that computes the operation's cost (`cost.ts`). Every walk of a value is iterative: no
 * client value nests the call stack.
 *
 * @module
 */
import {
  type ArgumentNode,
  getNamedType,
  type GraphQLError,
  type GraphQLInputType,
  isInputObjectType,
} from "graphql";
import { nulCharacterError, surrogateError } from "../column_values.ts";
import { ErrorCode, gqlError } from "../error_codes.ts";
import { isWhereInputName } from "../names.ts";

/** The limits {@linkcode ArgumentChecker} applies. */
export interface ArgumentLimits {
  /** Longest string value, in UTF-16 code units. */
  maxStringLength: number;
  /** Most items of a list value (`idIn`, `nodes(ids)`, `orderBy`, `or`). */
  maxListLength: number;
  /** Most input objects, predicates and list items in one `where` tree. */
  maxWhereSize: number;
  /** Deepest nesting of `has<Edge>With` predicates in one `where` tree. */
  maxWhereDepth: number;
  /** Deepest nesting of lists and input objects in one argument value (JSON values included). */
  maxInputDepth: number;
}

/**
 * The argument limits applied along the `Limits` plugin's walk of a document (`cost.ts`, which
 * hands over every argument once): {@linkcode ArgumentChecker.check} is the walk's
 * `CostContext.argument`, {@linkcode ArgumentChecker.error} the first argument value of the
 * document over a limit, in document order.
 */
export class ArgumentChecker {
  #error: GraphQLError | undefined;
  /** Where the argument of `#error` starts in the document. */
  #at = Infinity;

  constructor(readonly limits: ArgumentLimits) {}

  /**
   * Checks one argument: `node`, its `value` (variables substituted), its type when the schema
   * knows it, and the name of the field it belongs to. Arguments after the first one found over
   * a limit are skipped.
   */
  check = (
    node: ArgumentNode,
    value: unknown,
    type: GraphQLInputType | undefined,
    field: string,
  ): void => {
    const at = node.loc?.start ?? Infinity;
    if (this.#error && !(at < this.#at)) return;
    const path = `${field}(${node.name.value})`;
    let error = checkValue(value, path, this.limits);
    const named = type && getNamedType(type);
    if (!error && named && isInputObjectType(named)) {
      if (isWhereInputName(named.name)) error = checkWhere(value, path, this.limits);
      else if (named.name.endsWith("Order")) error = checkOrder(value, path);
    }
    if (error) {
      this.#error = error;
      this.#at = at;
    }
  };

  /**
   * The first argument value over a limit: `BAD_USER_INPUT` for a string, a list or an
   * `orderBy`, `QUERY_TOO_COMPLEX` for a `where` tree, each naming the argument, the limit and
   * its value; `undefined` when all are within the limits.
   */
  get error(): GraphQLError | undefined {
    return this.#error;
  }
}

/**
 * Strings, lists and nesting of one argument value, walked iteratively (an explicit stack, in
 * document order), so a value nested deeper than the call stack is refused rather than a crash.
 */
function checkValue(
  value: unknown,
  path: string,
  limits: ArgumentLimits,
): GraphQLError | undefined {
  const stack: [unknown, string, number][] = [[value, path, 0]];
  while (stack.length > 0) {
    const [item, at, depth] = stack.pop()!;
    if (typeof item === "string") {
      const text = nulCharacterError(item, at) ?? surrogateError(item, at);
      if (text) return text;
      if (item.length > limits.maxStringLength) {
        return gqlError(
          ErrorCode.BAD_USER_INPUT,
          `${at}: a string of ${item.length} characters; the limit is maxStringLength = ${limits.maxStringLength}`,
        );
      }
      continue;
    }
    if (item === null || typeof item !== "object") continue;
    if (depth >= limits.maxInputDepth) {
      return gqlError(
        ErrorCode.QUERY_TOO_DEEP,
        `${at}: a value nested more than ${limits.maxInputDepth} lists and objects deep; the limit is maxInputDepth = ${limits.maxInputDepth}`,
      );
    }
    if (Array.isArray(item)) {
      if (item.length > limits.maxListLength) {
        return gqlError(
          ErrorCode.BAD_USER_INPUT,
          `${at}: a list of ${item.length} items; the limit is maxListLength = ${limits.maxListLength}`,
        );
      }
      for (let i = item.length - 1; i >= 0; i--) stack.push([item[i], at, depth + 1]);
    } else {
      const entries = Object.entries(item);
      for (let i = entries.length - 1; i >= 0; i--) {
        stack.push([entries[i][1], `${at}.${entries[i][0]}`, depth + 1]);
      }
    }
  }
  return undefined;
}

/**
 * The size of a `where` tree (its input objects, their predicates and the items of its lists:
 * each a condition or a parameter of the statement) and its `has<Edge>With` depth, walked
 * iteratively (its nesting is bounded by `maxInputDepth` before).
 */
function checkWhere(
  value: unknown,
  path: string,
  limits: ArgumentLimits,
): GraphQLError | undefined {
  let size = 0;
  let depth = 0;
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [node, level] = stack.pop()!;
    if (Array.isArray(node)) {
      for (const item of node) {
        // a scalar item is a parameter of the statement; an object counts as itself below
        if (item === null || typeof item !== "object") size++;
        else stack.push([item, level]);
      }
      continue;
    }
    if (node === null || typeof node !== "object") continue;
    size++;
    depth = Math.max(depth, level);
    for (const [key, item] of Object.entries(node)) {
      size++;
      stack.push([item, /^has.+With$/.test(key) ? level + 1 : level]);
    }
  }
  if (size > limits.maxWhereSize) {
    return gqlError(
      ErrorCode.QUERY_TOO_COMPLEX,
      `${path}: a where tree of ${size} objects, predicates and list items; the limit is maxWhereSize = ${limits.maxWhereSize}`,
    );
  }
  if (depth > limits.maxWhereDepth) {
    return gqlError(
      ErrorCode.QUERY_TOO_COMPLEX,
      `${path}: has<Edge>With nested ${depth} deep; the limit is maxWhereDepth = ${limits.maxWhereDepth}`,
    );
  }
  return undefined;
}

function checkOrder(value: unknown, path: string): GraphQLError | undefined {
  if (!Array.isArray(value)) return undefined;
  const seen = new Set<unknown>();
  for (const term of value) {
    const field = (term as { field?: unknown } | null)?.field;
    if (seen.has(field)) {
      return gqlError(
        ErrorCode.BAD_USER_INPUT,
        `${path}: order field ${
          String(field).slice(0, 100)
        } is given twice; each order field may appear once`,
      );
    }
    seen.add(field);
  }
  return undefined;
}
