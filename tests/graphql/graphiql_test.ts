/**
 * The example servers' GraphiQL comes from a package, not a CDN: in real
 * Chromium with every request to another host than the server refused, the page renders
 * GraphiQL and loads the schema by introspection.
 */
import { assertEquals, assertStringIncludes } from "@std/assert";
import { launchBrowser } from "../support/browser.ts";
import { serveExample } from "../../examples/serve.ts";
import { entities } from "../../examples/todo/entities.ts";
import { createSchema } from "../../examples/todo/generated/mod.ts";
import { seed } from "../../examples/todo/seed.ts";

Deno.test({
  name: "GraphiQL of an example server works offline (no request leaves 127.0.0.1)",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    Deno.env.set("PORT", "0");
    const server = await serveExample({ entities, schema: createSchema, seed, sample: "{}" });
    const origin = `http://127.0.0.1:${(server.addr as Deno.NetAddr).port}`;
    const browser = await launchBrowser();
    const refused: string[] = [];
    try {
      const page = await browser.newPage();
      await page.route("**/*", (route) => {
        const url = route.request().url();
        if (url.startsWith(origin) || url.startsWith("data:") || url.startsWith("blob:")) {
          return route.continue();
        }
        refused.push(url);
        return route.abort();
      });
      const introspection = page.waitForResponse((r) =>
        r.url().startsWith(`${origin}/graphql`) && r.request().method() === "POST" &&
        (r.request().postData() ?? "").includes("__schema")
      );
      await page.goto(`${origin}/graphql`);
      await page.locator(".graphiql-container").first().waitFor();
      const response = await introspection;
      assertEquals(response.status(), 200);
      assertStringIncludes(JSON.stringify(await response.json()), '"name":"TodoConnection"');
      assertEquals(refused, []);
    } finally {
      await browser.close();
      await server.shutdown();
    }
  },
});
