/**
 * `deno task docs`: serves the repository's documentation (README.md, docs/,
 * ARCHITECTURE.md) as a site, searchable with the search box from `dist/`
 * (built by `deno task bundle`), on http://127.0.0.1:8000 (`PORT` overrides).
 *
 * @module
 */
import { fromFileUrl } from "@std/path";
import { serveDocsSite } from "./server.ts";

const site = await serveDocsSite({
  content: "project",
  port: Number(Deno.env.get("PORT") ?? 8000),
  distDir: fromFileUrl(new URL("../../dist", import.meta.url)),
});
console.log(`docs site: ${site.url}/`);
