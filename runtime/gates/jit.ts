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
 * @module
 */
import { useGraphQlJit } from "@envelop/graphql-jit";
import {
  type DocumentNode,
  getNamedType,
  type GraphQLSchema,
  isInputObjectType,
  Kind,
  type TypeNode,
} from "graphql";
import type { Plugin } from "graphql-yoga";

/** Whether each parsed document can run compiled (documents are cached by Yoga's parser). */
const COMPILABLE = new WeakMap<DocumentNode, boolean>();

/**
 * The `Jit` plugin: graphql-jit execution for operations without input-object variables.
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
 * @returns a Yoga/envelop plugin
 */
export function Jit(): Plugin {
  return useGraphQlJit({}, {
    enableIf: ({ schema, document }) => {
      let compilable = COMPILABLE.get(document);
      if (compilable === undefined) {
        compilable = !hasInputObjectVariable(schema, document);
        COMPILABLE.set(document, compilable);
      }
      return compilable;
    },
  }) as Plugin;
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
