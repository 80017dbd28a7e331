/**
 * The `Limits` plugin for GraphQL Yoga: bounds the cost of every request before any SQL runs.
 *
 * ```ts
 * const yoga = createYoga({
 *   schema: createSchema(),
 *   context: () => ({ em: orm.em.fork() }),
 *   parserAndValidationCache: false,
 *   plugins: [Limits({ maxCost: 20_000 }), Transactioner({ txOpener: orm }), DocumentCache()],
 * });
 * ```
 *
 * In the order they are checked:
 *
 * 1. the document's size in bytes, then its tokens (`token_limits.ts`), counted on graphql-js's
 *    `Lexer` before parsing: their number (`QUERY_TOO_COMPLEX`) and how deep brackets nest
 *    (`QUERY_TOO_DEEP`), so no document overflows the parser's stack;
 * 2. before graphql-js validates the document: the number of operations (`maxOperations`,
 *    `QUERY_TOO_COMPLEX`), aliases and repeated fields per selection set
 *    (`selection_limits.ts`), then each operation's shape with its fragments expanded
 *    (`document_shape.ts`, each named fragment walked once, never expanded): how deep its
 *    node levels nest (`maxDepth`, `QUERY_TOO_DEEP`), how many fields it selects
 *    (`maxFields`, `QUERY_TOO_COMPLEX`) and how many fragment spreads one selection collects
 *    (`maxSpreads`, `QUERY_TOO_COMPLEX`: graphql-js's overlap validation is quadratic in them)
 *    and the work that validation would do comparing fields of one response name
 *    (`maxMerges`, `QUERY_TOO_COMPLEX`);
 * 3. the operation's static cost, the nodes its document bounds (`cost.ts`), against `maxCost`,
 *    and those nodes times the fields of its widest list item (`node_width.ts`) against
 *    `maxCells`: `QUERY_TOO_COMPLEX`;
 * 4. argument values (`argument_limits.ts`, iterative walks): string and list lengths and
 *    `orderBy` terms `BAD_USER_INPUT`, nesting of lists and objects `QUERY_TOO_DEEP`, `where`
 *    tree size (list items included) and `has<Edge>With` depth `QUERY_TOO_COMPLEX`; the first
 *    one in document order. 3 and 4 come from one walk of the document (`cost.ts`);
 * 5. during and after execution, the errors of the answer: at most `maxErrors`, the rest dropped
 *    for one `QUERY_TOO_COMPLEX` error saying how many (`../error_budget.ts`: past the budget,
 *    `nodes(ids:)` creates no more `NOT_FOUND` errors);
 * 6. at run time, the nodes the operation's statements read, `maxCost` in all, or
 *    `maxCells` / (the fields of its widest list item) when fewer (`node_budget.ts`,
 *    `read/row_limit.ts`): `QUERY_TOO_COMPLEX` ("reads more than N nodes"), and nothing more is
 *    read.
 *
 * A refusal before execution answers no `data`: HTTP 400 under
 * `application/graphql-response+json` (`request_errors.ts`), as is any other answer without
 * `data` (a variable graphql-jit could not coerce).
 *
 * 1 to 4 run before the execute function is called, so graphql-jit (`jit.ts`, which compiles
 * in it) compiles only an operation that passed them; every check is linear in the document.
 * Every refusal names the limit and its value. Cross-site POSTs are refused by the `Csrf`
 * plugin (`csrf.ts`), and error messages are clipped by the `ClientErrors` plugin
 * (`client_errors.ts`); `mikrogqlPreset` (`preset.ts`) installs all three.
 *
 * @module
 */
import {
  type DocumentNode,
  type ExecutionArgs,
  type ExecutionResult,
  getOperationAST,
  GraphQLError,
  type GraphQLSchema,
  Kind,
} from "graphql";
import type { Plugin } from "graphql-yoga";
import { ArgumentChecker } from "./argument_limits.ts";
import {
  evaluateCost,
  prepareArguments,
  prepareCost,
  type PreparedArgument,
  type PreparedCost,
} from "./cost.ts";
import { ErrorCode, gqlError } from "../error_codes.ts";
import { DEFAULT_MAX_NODES, startNodeBudget } from "../node_budget.ts";
import { documentShape } from "./document_shape.ts";
import {
  DEFAULT_MAX_ERRORS,
  errorBudget as errorBudgetOf,
  startErrorBudget,
  withinErrorBudget,
} from "../error_budget.ts";
import { requestError, withRequestErrorStatus } from "./request_errors.ts";
import { widestNode } from "./node_width.ts";
import { checkSelections } from "./selection_limits.ts";
import { parseWithTokenLimits } from "./token_limits.ts";

/** Options of {@linkcode Limits}; every limit has a default. */
export interface LimitsOptions {
  /** Largest document, in UTF-8 bytes; default 65,536. */
  maxDocumentBytes?: number;
  /** Most tokens of a document (graphql-js `maxTokens`); default 10,000. */
  maxTokens?: number;
  /**
   * Deepest nesting of brackets (`{`, `(`, `[` together), counted on the tokens before the
   * document is parsed, so no document overflows a recursive parser, validator or compiler;
   * default 100 (`QUERY_TOO_DEEP`).
   */
  maxNesting?: number;
  /**
   * Deepest nesting of edges (fields of a node type returning a node type or a connection)
   * below a root field, fragments expanded; default 10 (`QUERY_TOO_DEEP`).
   */
  maxDepth?: number;
  /**
   * Most fields of an operation once its fragments are expanded (`__typename` included);
   * default 5,000 (`QUERY_TOO_COMPLEX`).
   */
  maxFields?: number;
  /**
   * Most named fragment spreads collected into one selection (its inline fragments and the
   * fragments spread at its level included, transitively); default 50 (`QUERY_TOO_COMPLEX`).
   * graphql-js's validation compares them pair by pair: 400 spreads in one selection take it
   * seconds.
   */
  maxSpreads?: number;
  /**
   * Most work of graphql-js's overlap validation, counted before it runs
   * (`OperationShape.merges` of `document_shape.ts`: per selection set, the fields of one
   * response name collected into it beyond the first, times the fields of all of them with what
   * they select); default 10,000 (`QUERY_TOO_COMPLEX`): about 10 µs of validation each, so 100 ms at most. 255
   * fields of one name in 49 fragments count 647,700 and took it 2.7 s.
   */
  maxMerges?: number;
  /**
   * Most operations in one document; default 50 (`QUERY_TOO_COMPLEX`). graphql-js validates
   * every operation of a document whichever one is run: 1,000 operations of `{ __typename }`
   * (26 KB) cost about 110 ms of CPU.
   */
  maxOperations?: number;
  /** Most aliased fields in one selection set; default 30. */
  maxAliases?: number;
  /** Most occurrences of one field (response key) or fragment spread in one selection set; default 5. */
  maxFieldRepeats?: number;
  /**
   * Most nodes of lists and connections an operation may return: checked before execution on
   * what the document bounds (`first`/`last`, list arguments, multiplied down each level), and
   * at run time on the nodes its statements read (a connection without `first`/`last` reads all
   * its rows within what is left); default 500,000 (GitHub's limit for the same count).
   */
  maxCost?: number;
  /**
   * Most field values the answer may hold in its lists: the nodes times the fields of the
   * operation's widest list item (`node_width.ts`; an edge's `cursor`, `node` and the node's
   * fields, aliases and fragments expanded). Checked before execution on the nodes the document
   * bounds, and at run time as the node budget: `maxCells` / widest nodes when that is fewer
   * than `maxCost`; default 1,000,000.
   */
  maxCells?: number;
  /** Longest string in an argument (variables included), in UTF-16 code units; default 65,536. */
  maxStringLength?: number;
  /** Most items of a list argument (`idIn`, `nodes(ids)`, `or`); default 1,000. */
  maxListLength?: number;
  /**
   * Most input objects, predicates and list items in one `where` argument (each a condition or
   * a parameter of the statement); default 1,200 (a list at `maxListLength` and a tree of 200).
   */
  maxWhereSize?: number;
  /** Deepest nesting of `has<Edge>With` in one `where` argument; default 4. */
  maxWhereDepth?: number;
  /**
   * Deepest nesting of lists and input objects in one argument value, variables and `JSON`
   * values included, checked iteratively before graphql-js coerces the variables; default 100
   * (`QUERY_TOO_DEEP`).
   */
  maxInputDepth?: number;
  /**
   * Most errors in one answer (`../error_budget.ts`); the errors after them are dropped for one
   * `QUERY_TOO_COMPLEX` error saying how many; default 100.
   */
  maxErrors?: number;
}

/** The defaults of {@linkcode LimitsOptions}. */
export const DEFAULT_LIMITS: Required<LimitsOptions> = {
  maxDocumentBytes: 65_536,
  maxTokens: 10_000,
  maxNesting: 100,
  maxDepth: 10,
  maxFields: 5_000,
  maxSpreads: 50,
  maxMerges: 10_000,
  maxOperations: 50,
  maxAliases: 30,
  maxFieldRepeats: 5,
  maxCost: DEFAULT_MAX_NODES,
  maxCells: 1_000_000,
  maxStringLength: 65_536,
  maxListLength: 1_000,
  maxWhereSize: 1_200,
  maxWhereDepth: 4,
  maxInputDepth: 100,
  maxErrors: DEFAULT_MAX_ERRORS,
};

const encoder = new TextEncoder();

/**
 * The limits plugin (see the module documentation).
 *
 * @example Tighter limits than the defaults
 * ```ts
 * import { createYoga } from "graphql-yoga";
 * import { Limits } from "@mikrogql/ext";
 * import { createSchema } from "./generated/mod.ts";
 *
 * const yoga = createYoga({
 *   schema: createSchema({ maxPageSize: 100 }),
 *   plugins: [
 *     // `users(first: 100) { posts(first: 100) { comments(first: 100) } }` costs 1,010,100
 *     // nodes: refused with QUERY_TOO_COMPLEX before any SQL runs
 *     Limits({ maxCost: 20_000, maxWhereDepth: 3 }),
 *   ],
 * });
 * ```
 *
 * @param options the limits; each left out takes its value in {@linkcode DEFAULT_LIMITS}
 * @returns a Yoga/envelop plugin
 * @throws Error naming the option when a limit is not a positive number
 */
export function Limits(options: LimitsOptions = {}): Plugin {
  const limits = { ...DEFAULT_LIMITS, ...options };
  for (const [name, value] of Object.entries(limits)) {
    if (!(typeof value === "number" && value > 0)) {
      throw new Error(`Limits: option ${name} must be a positive number, got ${String(value)}`);
    }
  }
  const parseWithLimits = parseWithTokenLimits(limits);
  /** Each parsed document's refusal before validation, `null` for none. */
  const refusals = new WeakMap<DocumentNode, GraphQLError | null>();
  // Each operation's plan by parsed document, operation name and schema (the document cache
  // hands every request of one text the same tree): its cost plan (cost.ts), the arguments a
  // request must check (those holding a variable, and the literal ones over a limit: none when
  // the document passes; the first in the document wins, so they are checked with the others),
  // and its widest list item (node_width.ts), which does not depend on variables.
  // `null` for an operation name the document does not hold.
  const plans = new WeakMap<
    DocumentNode,
    Map<string | typeof UNNAMED, [GraphQLSchema, LimitsPlan | null]>
  >();
  const planOf = (
    schema: GraphQLSchema,
    document: DocumentNode,
    name: string | undefined,
  ): LimitsPlan | null => {
    let known = plans.get(document);
    if (!known) plans.set(document, known = new Map());
    const key = name ?? UNNAMED;
    const plan = known.get(key);
    if (plan?.[0] === schema) return plan[1];
    const operation = getOperationAST(document, name);
    if (!operation) {
      known.set(key, [schema, null]);
      return null;
    }
    const cost = prepareCost(operation, schema, document);
    const checked = cost.arguments.filter((argument) => {
      if (argument.variable) return true;
      const checker = new ArgumentChecker(limits);
      checker.check(argument.node, argument.value, argument.type, argument.field);
      return checker.error !== undefined;
    });
    const widest = Math.max(1, widestNode(schema, document, operation));
    // The nodes the operation's statements may read in all (read/row_limit.ts): maxCost, or
    // fewer so that they hold at most maxCells fields.
    const cellNodes = Math.floor(limits.maxCells / widest);
    const planned: LimitsPlan = {
      cost,
      checked,
      widest,
      budget: Math.min(limits.maxCost, cellNodes),
      budgetLimit: cellNodes < limits.maxCost
        ? `maxCells = ${limits.maxCells} (${widest} fields per node)`
        : `maxCost = ${limits.maxCost}`,
    };
    known.set(key, [schema, planned]);
    return planned;
  };
  /** The answer's error budget and its status (after execution). */
  const errorBudget = {
    onExecuteDone({ args, result, setResult }: {
      args: ExecutionArgs;
      result: ExecutionResult | AsyncIterable<unknown>;
      setResult(result: ExecutionResult): void;
    }) {
      if (Symbol.asyncIterator in result) return;
      const budget = errorBudgetOf(args.contextValue as object);
      const within = withinErrorBudget(result, limits.maxErrors, budget) ?? result;
      const marked = withRequestErrorStatus(within) ?? within;
      if (marked !== result) setResult(marked);
    },
  };

  return {
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
      // once per parsed document (Yoga's cache hands the same document to every request)
      let error = refusals.get(params.documentAST);
      if (error === undefined) {
        error = checkOperations(params.documentAST, limits) ??
          checkRootTypes(params.schema, params.documentAST) ??
          checkSelections(params.documentAST, limits) ??
          checkShape(params.schema, params.documentAST, limits) ?? null;
        refusals.set(params.documentAST, error);
      }
      if (error) setResult([error]); // graphql-js does not validate it
    },
    // A subscription's selection is costed as a query's, once; each event then starts the same
    // node budget again (resolve/subscription_fields.ts).
    onSubscribe: (payload) => checkCost(payload),
    onExecute(payload) {
      checkCost(payload);
      startErrorBudget(payload.args.contextValue as object, limits.maxErrors);
      return errorBudget;
    },
  };

  function checkCost(
    { args, setResultAndStopExecution }: {
      args: ExecutionArgs;
      setResultAndStopExecution: (result: ExecutionResult) => void;
    },
  ): void {
    {
      const plan = planOf(args.schema, args.document, args.operationName ?? undefined);
      if (!plan) return;
      const widest = plan.widest;
      startNodeBudget(args.contextValue as object, plan.budget, plan.budgetLimit);
      const variables = (args.variableValues ?? {}) as Record<string, unknown>;
      const cost = evaluateCost(plan.cost, variables);
      let argumentError: GraphQLError | undefined;
      if (plan.checked.length > 0) {
        const checker = new ArgumentChecker(limits);
        prepareArguments(plan.checked, variables, checker.check);
        argumentError = checker.error;
      }
      const error = cost > limits.maxCost
        ? gqlError(
          ErrorCode.QUERY_TOO_COMPLEX,
          `the operation may return ${cost} nodes; the limit is maxCost = ${limits.maxCost}`,
        )
        : cost * widest > limits.maxCells
        ? gqlError(
          ErrorCode.QUERY_TOO_COMPLEX,
          `the operation may return ${cost} nodes of up to ${widest} fields each (${
            cost * widest
          } values); the limit is maxCells = ${limits.maxCells}`,
        )
        : argumentError;
      if (error) setResultAndStopExecution({ errors: [requestError(error)] });
    }
  }
}

/** The key of a request's plan when it names no operation (the document holds one). */
const UNNAMED = Symbol("unnamed operation");

/** What `Limits` plans once per operation of a parsed document. */
interface LimitsPlan {
  readonly cost: PreparedCost;
  /** The arguments a request checks. */
  readonly checked: readonly PreparedArgument[];
  /** The fields of the operation's widest list item, at least 1. */
  readonly widest: number;
  /** The request's node budget, and the limit that sets it (`node_budget.ts`). */
  readonly budget: number;
  readonly budgetLimit: string;
}

/** The number of operations in `document` against `maxOperations`. */
function checkOperations(
  document: DocumentNode,
  limits: Required<LimitsOptions>,
): GraphQLError | undefined {
  let operations = 0;
  for (const definition of document.definitions) {
    if (definition.kind === Kind.OPERATION_DEFINITION) operations++;
  }
  return operations > limits.maxOperations
    ? gqlError(
      ErrorCode.QUERY_TOO_COMPLEX,
      `the document holds ${operations} operations; the limit is maxOperations = ${limits.maxOperations}`,
    )
    : undefined;
}

/**
 * Each operation's root type exists in `schema`: a `subscription` (or `mutation`) operation on a
 * schema without that type is refused as a validation error (HTTP 400,
 * `GRAPHQL_VALIDATION_FAILED`), where graphql-js would fail in execution (Yoga answered 500).
 */
function checkRootTypes(
  schema: GraphQLSchema,
  document: DocumentNode,
): GraphQLError | undefined {
  for (const definition of document.definitions) {
    if (definition.kind !== Kind.OPERATION_DEFINITION) continue;
    if (schema.getRootType(definition.operation)) continue;
    return new GraphQLError(
      `the schema has no ${definition.operation} type: ${definition.operation} operations are not served`,
      { extensions: { code: "GRAPHQL_VALIDATION_FAILED" } },
    );
  }
  return undefined;
}

/**
 * The operations' expanded field count, edge depth and spreads per selection against
 * `maxFields`, `maxDepth`, `maxMerges` and `maxSpreads`.
 */
function checkShape(
  schema: GraphQLSchema,
  document: DocumentNode,
  limits: Required<LimitsOptions>,
): GraphQLError | undefined {
  const shape = documentShape(schema, document);
  if (shape.depth > limits.maxDepth) {
    return gqlError(
      ErrorCode.QUERY_TOO_DEEP,
      `the operation nests edges ${shape.depth} levels deep; the limit is maxDepth = ${limits.maxDepth}`,
    );
  }
  if (shape.fields > limits.maxFields) {
    return gqlError(
      ErrorCode.QUERY_TOO_COMPLEX,
      `the operation selects ${shape.fields} fields once its fragments are expanded; the limit is maxFields = ${limits.maxFields}`,
    );
  }
  if (shape.spreads > limits.maxSpreads) {
    return gqlError(
      ErrorCode.QUERY_TOO_COMPLEX,
      `a selection collects ${shape.spreads} fragment spreads; the limit is maxSpreads = ${limits.maxSpreads}`,
    );
  }
  if (shape.merges > limits.maxMerges) {
    return gqlError(
      ErrorCode.QUERY_TOO_COMPLEX,
      `the document merges ${shape.merges} fields of one response name (fields of one name collected into a selection, beyond the first, times what they select); the limit is maxMerges = ${limits.maxMerges}`,
    );
  }
  return undefined;
}
