/**
 * The `ReadRetry` plugin for GraphQL Yoga: a query (never a mutation) that failed for a lost
 * database connection runs again, up to 4 times in all. A read is safe to run again, and the pool
 * may have handed out connections that died while idle (node-postgres notices only when one is
 * used, and then drops it). A starved pool (a pool wait that timed out) is not retried: its wait
 * is already the bound. Under the `Deadline` plugin, installed after this one, every attempt runs
 * within the request's one time budget, and none starts once it is spent.
 *
 * @module
 */
import { type ExecutionArgs, type ExecutionResult, getOperationAST } from "graphql";
import type { Plugin } from "graphql-yoga";
import { isPromise } from "@whatwg-node/promise-helpers";
import type { MikroContext } from "../request/context.ts";
import { databaseFault, isPoolWait } from "../database/database_faults.ts";
import { deadlineOf } from "./deadline.ts";

/** How often a query that ends `DATABASE_UNAVAILABLE` is run at most. */
const READ_ATTEMPTS = 4;

type Execute = (args: ExecutionArgs) => Promise<ExecutionResult> | ExecutionResult;

/**
 * The read retry plugin (see the module documentation). Install it after the Transactioner and
 * before the `Deadline` plugin.
 *
 * @example
 * ```ts
 * import { createYoga } from "graphql-yoga";
 * import { Deadline, ReadRetry } from "@mikrogql/ext";
 * import { createSchema } from "./generated/mod.ts";
 *
 * const yoga = createYoga({ schema: createSchema(), plugins: [ReadRetry(), Deadline()] });
 * ```
 *
 * @returns a Yoga/envelop plugin
 */
export function ReadRetry(): Plugin {
  return {
    onExecute({ args, executeFn, setExecuteFn }) {
      if (getOperationAST(args.document, args.operationName)?.operation !== "query") return;
      // A result given synchronously read nothing: it is passed on as it is, not as a promise, so
      // the Deadline plugin after this one does not wait for it.
      const execute: Execute = (args) => {
        const first = (executeFn as Execute)(args);
        return isPromise(first) ? retried(first, executeFn as Execute, args) : first;
      };
      setExecuteFn(execute as never);
    },
  };
}

/** `first` and, while it failed for a lost connection, the operation run again. */
async function retried(
  first: Promise<ExecutionResult>,
  executeFn: Execute,
  args: ExecutionArgs,
): Promise<ExecutionResult> {
  let result = await first;
  const ctx = args.contextValue as MikroContext;
  for (let i = 1; i < READ_ATTEMPTS && lostConnection(result); i++) {
    if (deadlineOf(ctx)?.signal.aborted) break;
    ctx.em?.clear();
    result = await executeFn(args);
  }
  return result;
}

/** Whether `result` failed for a lost connection, as opposed to a pool that had none free in time. */
function lostConnection(result: ExecutionResult): boolean {
  return !(Symbol.asyncIterator in result) &&
    !!result.errors?.some((e) => {
      const error = e.originalError ?? e;
      return databaseFault(error) === "unavailable" && !isPoolWait(error);
    });
}
