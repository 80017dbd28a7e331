/**
 * The `Jit` plugin for GraphQL Yoga: runs operations through `graphql-jit` (compiled once per
 * parsed document, `@envelop/graphql-jit`) instead of graphql-js's interpreter, which halves the
 * executor's share of a request (`deno task bench:peers`).
 *
 * ```ts
 * createYoga({
 *   schema,
 *   context: () => ({ em: orm.em.fork() }),
 *   plugins: [Jit(), Limits(), Transactioner({ txOpener: orm }), Deadline()],
 * });
 * ```
 *
 * Install it first: it replaces the execute function, which the Transactioner and the Deadline
 * plugin then wrap.
 *
 * graphql-jit coerces variables with its own compiled parser, which does not apply the default
 * values of input object fields (`direction: OrderDirection! = ASC`) and does not terminate on
 * recursive input types (`where: {and: [...]}`) (zalando-incubator/graphql-jit issues #81,
 * #175). An operation declaring a variable of an input object type therefore runs on graphql-js,
 * as without the plugin; every other operation (literal arguments, scalar, enum and list
 * variables) runs compiled. Both give the same results and errors; the suite runs with the plugin.
 *
 * `@envelop/graphql-jit` keeps one compiled query per parsed document and compiles the operation
 * the first request named: a document of several operations would answer every later request with
 * that first operation. Such documents run on graphql-js.
 *
 * graphql-jit's compile grows with the operation with its fragments expanded, some 25 to 35 µs
 * per field warm and several times that cold (`deno task bench:limits`: 963 fields 22 ms, a
 * 5,253-field fan-out 0.7 to 4 s), and runs on the event loop, holding every other request
 * meanwhile. An operation of more than `maxCompiledFields` fields once expanded
 * (`document_shape.ts`; default 200, a compile of some 5 to 10 ms) runs on graphql-js instead;
 * the `Limits` plugin refuses operations over `maxFields` before either.
 *
 * @module
 */
import { useGraphQlJit } from "@envelop/graphql-jit";
import { handleMaybePromise } from "@whatwg-node/promise-helpers";
import {
  type DocumentNode,
  type ExecutionArgs,
  getNamedType,
  type GraphQLSchema,
  isInputObjectType,
  Kind,
  type TypeNode,
} from "graphql";
import type { Plugin } from "graphql-yoga";
import { documentShape } from "./document_shape.ts";
import { jitSchema } from "./jit_schema.ts";

/** Options of {@linkcode Jit}. */
export interface JitOptions {
  /**
   * Most fields of an operation, fragments expanded, that graphql-jit compiles; a larger one
   * runs on graphql-js. Default {@linkcode DEFAULT_MAX_COMPILED_FIELDS}.
   */
  maxCompiledFields?: number;
}

/** The default of `JitOptions.maxCompiledFields`: 200 fields. */
export const DEFAULT_MAX_COMPILED_FIELDS = 200;

/**
 * The `Jit` plugin: graphql-jit execution for operations without input-object variables and of
 * at most `maxCompiledFields` fields.
 *
 * @example Installed first, before the plugins that wrap execution
 * ```ts
 * import { MikroORM } from "@mikro-orm/core";
 * import { createYoga } from "graphql-yoga";
 * import { Deadline, Jit, Limits, Transactioner } from "@mikrogql/ext";
 * import config from "./mikro-orm.config.ts";
 * import { createSchema } from "./generated/mod.ts";
 *
 * const orm = await MikroORM.init(config);
 * const yoga = createYoga({
 *   schema: createSchema(),
 *   context: () => ({ em: orm.em.fork() }),
 *   plugins: [Jit(), Limits(), Transactioner({ txOpener: orm }), Deadline()],
 * });
 * ```
 *
 * @param options the compile cap
 * @returns a Yoga/envelop plugin
 * @throws Error when `maxCompiledFields` is negative or not a number
 */
export function Jit(options: JitOptions = {}): Plugin {
  const maxFields = options.maxCompiledFields ?? DEFAULT_MAX_COMPILED_FIELDS;
  if (!(typeof maxFields === "number" && maxFields >= 0)) {
    throw new Error(
      `Jit: option maxCompiledFields must be a number >= 0, got ${String(maxFields)}`,
    );
  }
  /** Whether each parsed document runs compiled (documents are cached by Yoga's parser). */
  const compilables = new WeakMap<DocumentNode, boolean>();
  const jit = useGraphQlJit({}, {
    enableIf: ({ schema, document }) => {
      let compilable = compilables.get(document);
      if (compilable === undefined) {
        compilable = operationCount(document) === 1 &&
          documentShape(schema, document).fields <= maxFields &&
          !hasInputObjectVariable(schema, document) && !isSubscription(document);
        compilables.set(document, compilable);
      }
      return compilable;
    },
  }) as Plugin;
  // graphql-jit compiles against `jitSchema`'s copy of the schema (global ids as leaves).
  const compiled = new WeakMap<object, (args: ExecutionArgs) => unknown>();
  const onSchema = (execute: (args: ExecutionArgs) => unknown) => {
    let wrapped = compiled.get(execute);
    if (!wrapped) {
      compiled.set(
        execute,
        wrapped = (args) =>
          handleMaybePromise(
            () => execute({ ...args, schema: jitSchema(args.schema) }),
            withoutStringify,
          ),
      );
      COMPILED.add(wrapped);
    }
    return wrapped;
  };
  return {
    ...jit,
    onExecute: (payload) =>
      jit.onExecute!({
        ...payload,
        setExecuteFn: (execute) => payload.setExecuteFn(onSchema(execute as never) as never),
      }),
  };
}

/** The execute functions of operations graphql-jit compiled (the `Jit` plugin's). */
const COMPILED = new WeakSet<object>();

/**
 * Whether `execute` (an `onExecute` hook's `executeFn`, after the `Jit` plugin's hook) runs a
 * query graphql-jit compiled, rather than graphql-js's `execute`: their answers order fields
 * differently (`resolve/selection_answer.ts`).
 */
export function isCompiledExecute(execute: unknown): boolean {
  return typeof execute === "function" && COMPILED.has(execute);
}

/**
 * `result` without the `stringify` function `@envelop/graphql-jit` puts on it (graphql-jit's
 * serializer: `JSON.stringify` itself, without graphql-jit's `customJSONSerializer` option), which
 * Yoga would call on the same object. A function-valued property sends V8's `JSON.stringify` down
 * its slow path for the whole answer (Q1's 61 KB: 212 µs with it, 90 µs without,
 * `deno task bench:serialisation`); Yoga serialises a result without one with `JSON.stringify`.
 */
function withoutStringify(result: unknown): unknown {
  if (result === null || typeof result !== "object" || !("stringify" in result)) return result;
  const { stringify: _, ...rest } = result as Record<string, unknown>;
  return rest;
}

/**
 * Whether `document` holds a subscription: graphql-jit 0.8.7 hands a subscription field's
 * `subscribe` the operation's variables instead of the field's arguments, so a subscription runs
 * on graphql-js (its events are executed per event there too).
 */
function isSubscription(document: DocumentNode): boolean {
  return document.definitions.some((d) =>
    d.kind === Kind.OPERATION_DEFINITION && d.operation === "subscription"
  );
}

function operationCount(document: DocumentNode): number {
  return document.definitions.filter((d) => d.kind === Kind.OPERATION_DEFINITION).length;
}

function hasInputObjectVariable(schema: GraphQLSchema, document: DocumentNode): boolean {
  for (const definition of document.definitions) {
    if (definition.kind !== Kind.OPERATION_DEFINITION) continue;
    for (const variable of definition.variableDefinitions ?? []) {
      const type = schema.getType(namedTypeOf(variable.type));
      if (!type || isInputObjectType(getNamedType(type))) return true;
    }
  }
  return false;
}

function namedTypeOf(type: TypeNode): string {
  return type.kind === Kind.NAMED_TYPE ? type.name.value : namedTypeOf(type.type);
}
