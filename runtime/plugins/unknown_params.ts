/**
 * The `UnknownParams` plugin for GraphQL Yoga: a request body's properties the server does not
 * understand are ignored, as the GraphQL over HTTP specification says a server must ("the server
 * SHOULD NOT fail... unknown entries MUST be ignored"), where Yoga answers 400 "Unexpected
 * parameter". Kept: `query`, `variables`, `operationName`, `extensions`, `documentId` and `doc_id`
 * (persisted documents: the GraphQL over HTTP draft's and Relay's names) and the names given.
 *
 * @module
 */
import type { Plugin } from "graphql-yoga";

const KNOWN = ["query", "variables", "operationName", "extensions", "documentId", "doc_id"];

/**
 * The unknown parameters plugin (see the module documentation).
 *
 * @example
 * ```ts
 * import { createYoga } from "graphql-yoga";
 * import { UnknownParams } from "@mikrogql/ext";
 * import { createSchema } from "./generated/mod.ts";
 *
 * // { "query": "{ __typename }", "clientVersion": 3 } is answered, clientVersion ignored
 * const yoga = createYoga({ schema: createSchema(), plugins: [UnknownParams()] });
 * ```
 *
 * @param keep more parameter names to pass on (those of Yoga's `extraParamNames`)
 * @returns a Yoga/envelop plugin
 */
export function UnknownParams(keep: readonly string[] = []): Plugin {
  const known = new Set([...KNOWN, ...keep]);
  const strip = (params: unknown): unknown => {
    if (params === null || typeof params !== "object" || Array.isArray(params)) return params;
    let unknown = false;
    for (const key in params) if (!known.has(key)) unknown = true;
    if (!unknown) return params;
    return Object.fromEntries(Object.entries(params).filter(([key]) => known.has(key)));
  };
  return {
    onRequestParse() {
      return {
        onRequestParseDone({ requestParserResult, setRequestParserResult }) {
          const stripped = Array.isArray(requestParserResult)
            ? requestParserResult.map(strip)
            : strip(requestParserResult);
          if (stripped !== requestParserResult) setRequestParserResult(stripped as never);
        },
      };
    },
  };
}
