/**
 * A real GraphQL Yoga server over `Deno.serve` on 127.0.0.1 (a free port) for tests, and a
 * client that posts operations to it over HTTP.
 *
 * @module
 */
import type { MikroORM } from "@mikro-orm/core";
import type { GraphQLSchema } from "graphql";
import { createYoga, type Plugin, type YogaServerOptions } from "graphql-yoga";
import { BodyLimit, Jit, mikrogqlPreset, type PresetOptions } from "@mikrogql/ext";

/** A GraphQL response as received over HTTP. */
export interface Response<T = Record<string, unknown>> {
  data?: T | null;
  errors?: {
    message: string;
    path?: (string | number)[];
    locations?: { line: number; column: number }[];
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

/** Options of {@linkcode startServer}: `createYoga` options, and the preset's. */
// deno-lint-ignore ban-types
export interface ServerOptions extends Partial<YogaServerOptions<{}, {}>> {
  /**
   * Options of `mikrogqlPreset` (`txOpener` defaults to the server's ORM), installed as a user's
   * server installs it (the examples, `serve`); `false` only for a test of what happens without
   * the preset's plugins (then `Jit` and `BodyLimit` alone, and the `plugins` given).
   */
  preset?: Partial<PresetOptions> | false;
}

/**
 * Starts Yoga for `schema` with a forked EntityManager per request and the preset's plugins, so
 * no test runs with fewer limits than a user gets.
 *
 * @param plugins plugins of the test's own, after the preset's
 * @param options more `createYoga` options (`parserAndValidationCache`, ...), and the preset's
 */
export function startServer(
  orm: MikroORM,
  schema: GraphQLSchema,
  plugins: Plugin[] = [],
  { preset: presetOptions = {}, ...options }: ServerOptions = {},
): TestServer {
  const preset = presetOptions === false
    // Compiled execution first: the other plugins wrap its execute function. The body size is
    // checked by BodyLimit, not by Yoga.
    ? { plugins: [Jit(), BodyLimit()], maxRequestBodySize: false as const }
    : mikrogqlPreset({ txOpener: orm, ...presetOptions });
  const yoga = createYoga({
    schema,
    ...preset,
    plugins: [...preset.plugins, ...plugins],
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
