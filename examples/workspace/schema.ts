/**
 * The workspace's schema: the generated API with the policies of `policies.ts`, the viewer read
 * from the context (`ctx.viewer`, set by the server from the request's JWT, `auth.ts`).
 *
 * @module
 */
import type { GraphQLSchema } from "graphql";
import { createSchema } from "./generated/mod.ts";
import { policies } from "./policies.ts";

/** The executable schema of the workspace, with its policies. */
export function workspaceSchema(): GraphQLSchema {
  return createSchema({ policies });
}
