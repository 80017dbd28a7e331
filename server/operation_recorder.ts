/**
 * A Yoga plugin that writes the executed operation's name and type, and the codes of the
 * response's errors, into the request's {@linkcode requestScope} for the request log line.
 *
 * @module
 */
import { getOperationAST, type GraphQLError } from "graphql";
import type { Plugin } from "graphql-yoga";
import { requestScope } from "./request_scope.ts";

/** The `extensions.code` of an error of a result, `INTERNAL_SERVER_ERROR` when it has none. */
function codeOf(error: GraphQLError | { extensions?: { code?: unknown } }): string {
  const code = error.extensions?.code;
  return typeof code === "string" ? code : "INTERNAL_SERVER_ERROR";
}

/** Records the operation and its errors in the request scope (a no-op outside one). */
export function OperationRecorder(): Plugin {
  return {
    onExecute({ args }) {
      const scope = requestScope.getStore();
      if (!scope) return;
      const operation = getOperationAST(args.document, args.operationName);
      scope.operationName = operation?.name?.value ?? args.operationName ?? undefined;
      scope.operationType = operation?.operation;
    },
    onResultProcess({ result }) {
      const scope = requestScope.getStore();
      if (!scope) return;
      const results = Array.isArray(result) ? result : [result];
      for (const r of results) {
        const errors = (r as { errors?: readonly GraphQLError[] }).errors;
        for (const error of errors ?? []) scope.errorCodes.push(codeOf(error));
      }
    },
  };
}
