/**
 * The `Csrf` plugin for GraphQL Yoga: a POST is served only when its body is `application/json`
 * (or `application/graphql+json`, which Yoga parses alike), content types a cross-site HTML form
 * cannot send without a CORS preflight. Form-encoded, multipart and `text/plain` POSTs are refused
 * with HTTP 415 and the code `BAD_REQUEST`; GraphQL Yoga itself refuses mutations over GET
 * (HTTP 405).
 *
 * @module
 */
import type { Plugin } from "graphql-yoga";
import { ErrorCode } from "../error_codes.ts";

const ALLOWED = new Set(["application/json", "application/graphql+json"]);

/**
 * The CSRF plugin (see the module documentation).
 *
 * @example
 * ```ts
 * import { createYoga } from "graphql-yoga";
 * import { Csrf } from "@mikrogql/ext";
 * import { createSchema } from "./generated/mod.ts";
 *
 * const yoga = createYoga({ schema: createSchema(), plugins: [Csrf()] });
 * ```
 *
 * @returns a Yoga/envelop plugin
 */
export function Csrf(): Plugin {
  return {
    onRequestParse({ request, endResponse }) {
      const refusal = refuseCrossSite(request);
      if (refusal) endResponse(refusal);
    },
  };
}

/**
 * The refusal of `request`, or `undefined` when it may be served.
 * Exported for an HTTP handler before GraphQL Yoga: `serve()` runs it instead of the plugin.
 *
 * @returns a 415 response with a GraphQL error body (`extensions.code` `BAD_REQUEST`)
 */
export function refuseCrossSite(request: Request): Response | undefined {
  if (request.method !== "POST") return undefined;
  const type = (request.headers.get("content-type") ?? "").split(";")[0].trim().toLowerCase();
  if (ALLOWED.has(type)) return undefined;
  const message = `a POST must be application/json (got ${
    JSON.stringify(type.slice(0, 100) || "no content type")
  }); form and text bodies are refused against cross-site requests`;
  return Response.json({ errors: [{ message, extensions: { code: ErrorCode.BAD_REQUEST } }] }, {
    status: 415,
  });
}
