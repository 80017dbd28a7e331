/**
 * The argument limits of the `Limits` plugin, checked on the operation's argument values
 * (variables substituted) before anything runs: string length, NUL characters and unpaired
 * surrogates (the rules of `column_values.ts`), list length, the size and the `has<Edge>With` depth of `where` trees, and
 * `orderBy` terms (each order field at most once, so at most as many terms as the type has order
 * fields). Every argument of the document is looked at once (fragments included), along the
 * walk that computes the operation's cost (`cost.ts`).
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
  /** Most input objects plus predicates in one `where` tree. */
  maxWhereSize: number;
  /** Deepest nesting of `has<Edge>With` predicates in one `where` tree. */
  maxWhereDepth: number;
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

function checkValue(
  value: unknown,
  path: string,
  limits: ArgumentLimits,
): GraphQLError | undefined {
  if (typeof value === "string") {
    const text = nulCharacterError(value, path) ?? surrogateError(value, path);
    if (text) return text;
    return value.length > limits.maxStringLength
      ? gqlError(
        ErrorCode.BAD_USER_INPUT,
        `${path}: a string of ${value.length} characters; the limit is maxStringLength = ${limits.maxStringLength}`,
      )
      : undefined;
  }
  if (Array.isArray(value)) {
    if (value.length > limits.maxListLength) {
      return gqlError(
        ErrorCode.BAD_USER_INPUT,
        `${path}: a list of ${value.length} items; the limit is maxListLength = ${limits.maxListLength}`,
      );
    }
    for (const item of value) {
      const error = checkValue(item, path, limits);
      if (error) return error;
    }
  } else if (value !== null && typeof value === "object") {
    for (const [key, item] of Object.entries(value)) {
      const error = checkValue(item, `${path}.${key}`, limits);
      if (error) return error;
    }
  }
  return undefined;
}

function checkWhere(
  value: unknown,
  path: string,
  limits: ArgumentLimits,
): GraphQLError | undefined {
  let size = 0;
  let depth = 0;
  const walk = (node: unknown, level: number): void => {
    if (Array.isArray(node)) return node.forEach((item) => walk(item, level));
    if (node === null || typeof node !== "object") return;
    size++;
    depth = Math.max(depth, level);
    for (const [key, item] of Object.entries(node)) {
      size++;
      walk(item, /^has.+With$/.test(key) ? level + 1 : level);
    }
  };
  walk(value, 0);
  if (size > limits.maxWhereSize) {
    return gqlError(
      ErrorCode.QUERY_TOO_COMPLEX,
      `${path}: a where tree of ${size} objects and predicates; the limit is maxWhereSize = ${limits.maxWhereSize}`,
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
