/**
 * A real GraphQL Yoga server over `Deno.serve` on 127.0.0.1 (a free port) for tests, and a
 * client that posts operations to it over HTTP.
 *
 * @module
 */
import type { MikroORM } from "@mikro-orm/core";
import type { GraphQLSchema } from "graphql";
import { createYoga, type Plugin, type YogaServerOptions } from "graphql-yoga";
import { BodyLimit, Jit } from "@mikrogql/ext";

/** A GraphQL response as received over HTTP. */
export interface Response<T = Record<string, unknown>> {
  data?: T | null;
  errors?: {
    message: string;
    path?: (string | number)[];
    extensions?: { code?: string };
  }[];
}

/** A running test server. */
export interface TestServer {
  url: string;
  /** Posts an operation; returns the parsed JSON body. */
  query<T = Record<string, unknown>>(
    query: string,
    variables?: Record<string, unknown>,
  ): Promise<Response<T>>;
  close(): Promise<void>;
}

/**
 * Starts Yoga for `schema` with a forked EntityManager per request.
 *
 * @param options more `createYoga` options (`parserAndValidationCache`, ...)
 */
export function startServer(
  orm: MikroORM,
  schema: GraphQLSchema,
  plugins: Plugin[] = [],
  // deno-lint-ignore ban-types
  options: Partial<YogaServerOptions<{}, {}>> = {},
): TestServer {
  const yoga = createYoga({
    schema,
    // Compiled execution first, as in the examples: the other plugins wrap its execute function.
    // The body size is checked by BodyLimit (as in the examples), not by Yoga.
    plugins: [Jit(), BodyLimit(), ...plugins],
    maxRequestBodySize: false,
    context: () => ({ em: orm.em.fork() }),
    logging: false,
    maskedErrors: true,
    ...options,
  });
  const server = Deno.serve({
    hostname: "127.0.0.1",
    port: 0,
    onListen: () => {},
  }, yoga.fetch);
  const url = `http://127.0.0.1:${server.addr.port}/graphql`;
  return {
    url,
    query: async (query, variables) => {
      const response = await fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ query, variables }),
      });
      return await response.json();
    },
    close: () => server.shutdown(),
  };
}
