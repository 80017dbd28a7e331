/**
 * graphql-http's audit of the GraphQL over HTTP specification (`serverAudits`, the audits its
 * maintainers run against servers) against `serve` on the blog example, in development and
 * under `NODE_ENV=production` (GraphiQL, the landing page and introspection off): every MUST
 * and SHOULD audit passes (none answers `error`); the warnings are printed. The audits' variable
 * cases query `__type(name: $name)`, so the production run turns introspection on (the one
 * production default changed).
 */
import { assertEquals } from "@std/assert";
import { serverAudits } from "graphql-http";
import { entities } from "../../examples/blog/entities.ts";
import { openTestOrm } from "../support/databases.ts";
import { underProduction } from "../support/under_production.ts";
import { serveForTest } from "../support/serve_for_test.ts";

/**
 * Runs graphql-http's audits against `serve` on the blog example (in the environment's
 * `NODE_ENV`); throws listing the audits that answered `error`, prints the warnings.
 */
export async function auditServe(): Promise<void> {
  const mode = Deno.env.get("NODE_ENV") ?? "development";
  const test = await openTestOrm("sqlite", entities);
  const server = await serveForTest({ orm: test.orm, introspection: true });
  try {
    const url = new URL("/graphql", server.url).href;
    const failed: string[] = [];
    const warned: string[] = [];
    for (const audit of serverAudits({ url })) {
      const result = await audit.fn();
      if (result.status === "error") failed.push(`${audit.name}: ${result.reason}`);
      if (result.status === "warn") warned.push(`${audit.name}: ${result.reason}`);
    }
    if (warned.length) console.log(`warnings (${mode}):\n  ${warned.join("\n  ")}`);
    assertEquals(failed, [], failed.join("\n"));
  } finally {
    await server.shutdown();
    await test.close();
  }
}

Deno.test("graphql-http's server audits pass on serve (development)", auditServe);

Deno.test("graphql-http's server audits pass on serve (production)", async () => {
  await underProduction(import.meta.url, "auditServe");
});
