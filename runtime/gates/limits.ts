/**
 * The `Limits` plugin for GraphQL Yoga: bounds the cost of every request before any SQL runs,
 * and refuses cross-site requests.
 *
 * ```ts
 * const yoga = createYoga({
 *   schema: createSchema(),
 *   context: () => ({ em: orm.em.fork() }),
 *   parserAndValidationCache: documentCache(),
 *   plugins: [Limits({ maxCost: 100_000 }), Transactioner({ txOpener: orm })],
 * });
 * ```
 *
 * In the order they are checked:
 *
 * 1. a POST must be `application/json` (CSRF, see `csrf.ts`): HTTP 415, `BAD_REQUEST`;
 * 2. the document's size in bytes, then its token count (graphql-js `maxTokens`, its error told
 *    from other syntax errors by where it points): `QUERY_TOO_COMPLEX`, before and while parsing;
 * 3. aliases and repeated fields per selection set (`selection_limits.ts`):
 *    `QUERY_TOO_COMPLEX`, before validation;
 * 4. the operation's cost, the worst-case number of nodes (`cost.ts`): `QUERY_TOO_COMPLEX`;
 * 5. argument values (`argument_limits.ts`): string and list lengths and `orderBy` terms
 *    `BAD_USER_INPUT`, `where` tree size and `has<Edge>With` depth `QUERY_TOO_COMPLEX`; the
 *    first one in document order. 4 and 5 come from one walk of the document (`cost.ts`).
 *
 * Every refusal names the limit and its value. The nesting depth of edges is limited by
 * `createSchema({ maxDepth })` (`QUERY_TOO_DEEP`). Error messages of every response are cut so
 * that no quoted user input in them is longer than 100 characters, and a variable graphql-js
 * cannot coerce (a bad enum value, date or number) gets the code `BAD_USER_INPUT`.
 *
 * @module
 */
import { getOperationAST, GraphQLError, Lexer, parse, Source, TokenKind } from "graphql";
import type { Plugin } from "graphql-yoga";
import { ArgumentChecker } from "./argument_limits.ts";
import { operationCost } from "./cost.ts";
import { refuseCrossSite } from "./csrf.ts";
import { clipMessage, ErrorCode, gqlError } from "../error_codes.ts";
import { checkSelections } from "./selection_limits.ts";

/** Options of {@linkcode Limits}; every limit has a default. */
export interface LimitsOptions {
  /** Largest document, in UTF-8 bytes; default 65,536. */
  maxDocumentBytes?: number;
  /** Most tokens of a document (graphql-js `maxTokens`); default 10,000. */
  maxTokens?: number;
  /** Most aliased fields in one selection set; default 30. */
  maxAliases?: number;
  /** Most occurrences of one field (response key) or fragment spread in one selection set; default 5. */
  maxFieldRepeats?: number;
  /** Largest cost, the worst-case number of nodes of an operation; default 500,000. */
  maxCost?: number;
  /**
   * The page size the cost assumes for a connection without `first`/`last` and for an unbounded
   * list; default 1,000. Keep it equal to `createSchema({ maxPageSize })`.
   */
  maxPageSize?: number;
  /** Longest string in an argument (variables included), in UTF-16 code units; default 65,536. */
  maxStringLength?: number;
  /** Most items of a list argument (`idIn`, `nodes(ids)`, `or`); default 1,000. */
  maxListLength?: number;
  /** Most input objects plus predicates in one `where` argument; default 200. */
  maxWhereSize?: number;
  /** Deepest nesting of `has<Edge>With` in one `where` argument; default 4. */
  maxWhereDepth?: number;
  /** Refuse POSTs that are not `application/json` (CSRF); default `true`. */
  csrf?: boolean;
}

/** The defaults of {@linkcode LimitsOptions}. */
export const DEFAULT_LIMITS: Required<LimitsOptions> = {
  maxDocumentBytes: 65_536,
  maxTokens: 10_000,
  maxAliases: 30,
  maxFieldRepeats: 5,
  maxCost: 500_000,
  maxPageSize: 1_000,
  maxStringLength: 65_536,
  maxListLength: 1_000,
  maxWhereSize: 200,
  maxWhereDepth: 4,
  csrf: true,
};

const encoder = new TextEncoder();

/**
 * The limits plugin (see the module documentation).
 *
 * @throws Error naming the option when a limit is not a positive number
 */
export function Limits(options: LimitsOptions = {}): Plugin {
  const limits = { ...DEFAULT_LIMITS, ...options };
  for (const [name, value] of Object.entries(limits)) {
    if (name !== "csrf" && !(typeof value === "number" && value > 0)) {
      throw new Error(`Limits: option ${name} must be a positive number, got ${String(value)}`);
    }
  }
  /** graphql-js `parse` with `maxTokens`, built once per plugin rather than per request. */
  const parseWithLimits: typeof parse = (source, parseOptions) => {
    try {
      return parse(source, { ...parseOptions, maxTokens: limits.maxTokens });
    } catch (error) {
      if (isTokenLimit(source, limits.maxTokens, error)) {
        throw gqlError(
          ErrorCode.QUERY_TOO_COMPLEX,
          `the document has more than ${limits.maxTokens} tokens; the limit is maxTokens = ${limits.maxTokens}`,
        );
      }
      throw error;
    }
  };
  return {
    onRequestParse({ request, endResponse }) {
      if (!limits.csrf) return;
      const refusal = refuseCrossSite(request);
      if (refusal) endResponse(refusal);
    },
    onParse({ params, setParseFn }) {
      const source = typeof params.source === "string" ? params.source : params.source.body;
      // UTF-8 is at most 3 bytes per UTF-16 code unit: encode only when it can matter.
      if (
        source.length * 3 > limits.maxDocumentBytes &&
        (source.length > limits.maxDocumentBytes ||
          encoder.encode(source).length > limits.maxDocumentBytes)
      ) {
        throw gqlError(
          ErrorCode.QUERY_TOO_COMPLEX,
          `the document is larger than ${limits.maxDocumentBytes} bytes; the limit is maxDocumentBytes = ${limits.maxDocumentBytes}`,
        );
      }
      setParseFn(parseWithLimits);
    },
    onValidate({ params, setResult }) {
      const error = checkSelections(params.documentAST, limits);
      if (error) setResult([error]);
    },
    onExecute({ args, setResultAndStopExecution }) {
      const operation = getOperationAST(args.document, args.operationName);
      if (!operation) return;
      const argumentLimits = new ArgumentChecker(limits);
      // One walk of the document: the cost, and every argument checked on the way.
      const cost = operationCost(operation, {
        schema: args.schema,
        document: args.document,
        variables: (args.variableValues ?? {}) as Record<string, unknown>,
        maxPageSize: limits.maxPageSize,
        argument: argumentLimits.check,
      });
      const error = cost > limits.maxCost
        ? gqlError(
          ErrorCode.QUERY_TOO_COMPLEX,
          `the operation may return ${cost} nodes; the limit is maxCost = ${limits.maxCost}`,
        )
        : argumentLimits.error;
      if (error) setResultAndStopExecution({ errors: [error] });
    },
    onResultProcess({ result }) {
      for (const one of [result].flat()) {
        if (!one || Symbol.asyncIterator in one || !one.errors) continue;
        (one as { errors: readonly GraphQLError[] }).errors = one.errors.map(cleanError);
      }
    },
  };
}

/**
 * Whether `error`, thrown by graphql-js `parse(source, { maxTokens })`, is its token limit (which
 * has no code or class of its own): a syntax error at the start of the document's
 * `maxTokens + 1`-th token, counted as graphql-js counts them (comments and the end excluded) with
 * its `Lexer`. The count runs only for a document that failed to parse; a lexical error before
 * that token means the error is not the token limit.
 */
function isTokenLimit(source: string | Source, maxTokens: number, error: unknown): boolean {
  const position = error instanceof GraphQLError ? error.positions?.[0] : undefined;
  if (position === undefined) return false;
  const lexer = new Lexer(typeof source === "string" ? new Source(source) : source);
  try {
    for (let count = 1;; count++) {
      const token = lexer.advance();
      if (token.kind === TokenKind.EOF) return false;
      if (count > maxTokens) return token.start === position;
    }
  } catch {
    return false;
  }
}

/**
 * `error` with its message clipped ({@linkcode clipMessage}), and the code `BAD_USER_INPUT` on a
 * variable graphql-js could not coerce (a bad enum value, date or number), which carries none.
 */
function cleanError(error: GraphQLError): GraphQLError {
  const message = clipMessage(error.message);
  const badVariable = !error.extensions?.code && message.startsWith('Variable "$');
  if (message === error.message && !badVariable) return error;
  return new GraphQLError(message, {
    nodes: error.nodes,
    source: error.source,
    positions: error.positions,
    path: error.path,
    originalError: error.originalError,
    extensions: badVariable
      ? { ...error.extensions, code: ErrorCode.BAD_USER_INPUT }
      : error.extensions,
  });
}
