/**
 * The `PlannedReads` plugin for GraphQL Yoga: runs a planned operation (a `node(id)` query of a
 * generated schema without policies, `resolve/planned_operations.ts`) from its plan instead of
 * executing it, and every other operation as before. Install it right after `Jit`: the plugins
 * after it (`Limits`' cost check, the `Transactioner`, `ReadRetry`, `Deadline`, the request log's
 * recorder) wrap the planned run as they wrap execution; where the plan does not answer, the run
 * calls the execute function it replaced (graphql-jit's or graphql-js's).
 *
 * @module
 */
import type { ExecutionArgs } from "graphql";
import type { Plugin } from "graphql-yoga";
import { plannedOperation } from "../resolve/planned_operations.ts";
import { isCompiledExecute } from "./jit.ts";

/**
 * The planned reads plugin (see the module documentation); the preset installs it right after
 * `Jit` unless `plannedReads: false`.
 *
 * @example Installed after Jit, before the plugins that wrap execution
 * ```ts
 * import { MikroORM } from "@mikro-orm/core";
 * import { createYoga } from "graphql-yoga";
 * import { Deadline, Jit, Limits, PlannedReads } from "@mikrogql/ext";
 * import config from "./mikro-orm.config.ts";
 * import { createSchema } from "./generated/mod.ts";
 *
 * const orm = await MikroORM.init(config);
 * const yoga = createYoga({
 *   schema: createSchema(),
 *   context: () => ({ em: orm.em.fork() }),
 *   plugins: [Jit(), PlannedReads(), Limits(), Deadline()],
 * });
 * ```
 *
 * @returns a Yoga/envelop plugin
 */
export function PlannedReads(): Plugin {
  return {
    onExecute({ args, executeFn, setExecuteFn }) {
      // The answer follows the field order of the executor it stands in for.
      const executor = isCompiledExecute(executeFn) ? "graphql-jit" : "graphql-js";
      if (!plannedOperation(args as ExecutionArgs, executor)) return;
      const execute = executeFn as (args: ExecutionArgs) => unknown;
      // Decided again for the arguments of each call (a plugin wrapping it may pass others).
      setExecuteFn(
        ((args: ExecutionArgs) => {
          const run = plannedOperation(args, executor);
          return run ? run(execute) : execute(args);
        }) as never,
      );
    },
  };
}
