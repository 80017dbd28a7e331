/**
 * A benchmark server process:
 * `deno run -A bench/graphql_server.ts <generated|naive> <database url> [maxCost]`.
 * Serves GraphQL on 127.0.0.1 (a free port, printed as `listening <port>`) and `GET /stats`:
 * `{ requests, statements, rss }` (statements run since start, resident set size in bytes). With
 * `maxCost`, the `Limits` plugin is installed with that cost limit (the other limits default).
 *
 * @module
 */
import { openBenchServer } from "./bench_server.ts";

const [kind, url, maxCost] = Deno.args;
if ((kind !== "generated" && kind !== "naive") || !url) {
  console.error("usage: graphql_server.ts <generated|naive> <database url> [maxCost]");
  Deno.exit(2);
}
let requests = 0;
const { yoga, statements } = await openBenchServer(url, {
  naive: kind === "naive",
  maxCost: maxCost ? Number(maxCost) : undefined,
});
Deno.serve({
  hostname: "127.0.0.1",
  port: 0,
  onListen: ({ port }) => console.log(`listening ${port}`),
}, (request, info) => {
  // A suffix test, as PostGraphile's server compares `req.url`: no URL parsed per request.
  if (request.url.endsWith("/stats")) {
    return Response.json({ requests, statements: statements(), rss: Deno.memoryUsage().rss });
  }
  requests++;
  return yoga.fetch(request, info);
});
