/**
 * `serve()` as a test runs it: the blog's schema unless the test names another, a free port of
 * 127.0.0.1's, no request log, no signal handlers and no exit on shutdown (the test calls
 * `shutdown()` itself).
 *
 * @module
 */
import type { GraphQLSchema } from "graphql";
import { createSchema } from "../../examples/blog/generated/mod.ts";
import { type MikrogqlServer, serve, type ServeOptions } from "../../server/serve.ts";

/** Starts `serve(options)` with the defaults above; `options` override any of them. */
export async function serveForTest(
  options: Omit<ServeOptions, "schema"> & { schema?: GraphQLSchema },
): Promise<MikrogqlServer> {
  return await serve({
    schema: options.schema ?? createSchema(),
    port: 0,
    log: false,
    shutdown: { signals: [], exit: false },
    ...options,
  } as ServeOptions);
}
