/**
 * The `ClientErrors` plugin for GraphQL Yoga: the errors of every response in the shape a client
 * may see. Each message is cut so that no quoted user input in it is longer than
 * `MAX_QUOTED_INPUT` (100) characters (graphql-js quotes the offending value in its coercion and
 * validation errors), and a variable graphql-js cannot coerce (a bad enum value, date or number)
 * gets the code `BAD_USER_INPUT`, which graphql-js leaves without one. Under
 * `NODE_ENV=production` (or with `suggestions: false`) graphql-js's suggestions ("Did you mean
 * ...?") are cut from every message: they name fields, types, arguments and enum values, which
 * a server that turns introspection off does not want to tell.
 *
 * @module
 */
import { GraphQLError } from "graphql";
import type { Plugin } from "graphql-yoga";
import { clipMessage, ErrorCode } from "../error_codes.ts";

/** Options of {@linkcode ClientErrors}. */
export interface ClientErrorsOptions {
  /**
   * Keep graphql-js's "Did you mean ...?" suggestions in messages; default: unless
   * `NODE_ENV=production`.
   */
  suggestions?: boolean;
}

/**
 * The client errors plugin (see the module documentation).
 *
 * @example
 * ```ts
 * import { createYoga } from "graphql-yoga";
 * import { ClientErrors } from "@mikrogql/ext";
 * import { createSchema } from "./generated/mod.ts";
 *
 * const yoga = createYoga({ schema: createSchema(), plugins: [ClientErrors()] });
 * ```
 *
 * @returns a Yoga/envelop plugin
 */
export function ClientErrors(options: ClientErrorsOptions = {}): Plugin {
  const suggestions = options.suggestions ?? Deno.env.get("NODE_ENV") !== "production";
  return {
    onResultProcess({ result }) {
      for (const one of [result].flat()) {
        if (!one || Symbol.asyncIterator in one || !one.errors) continue;
        (one as { errors: readonly GraphQLError[] }).errors = one.errors.map((error) =>
          cleanError(error, suggestions)
        );
      }
    },
  };
}

/** graphql-js's suggestion at the end of a message (`didYouMean`): ` Did you mean "a" or "b"?`. */
const SUGGESTION = / Did you mean [^]*\?$/;

/**
 * `error` with its message clipped (`clipMessage`), its suggestion cut unless `suggestions`, and
 * the code `BAD_USER_INPUT` on a variable graphql-js could not coerce, which carries none.
 */
function cleanError(error: GraphQLError, suggestions: boolean): GraphQLError {
  const told = suggestions ? error.message : error.message.replace(SUGGESTION, "");
  const message = clipMessage(told);
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
