/**
 * A benchmark server process:
 * `deno run -A bench/graphql_server.ts <generated|naive> <database url> [maxCost [maxCells]]`.
 * Serves GraphQL on 127.0.0.1 (a free port, printed as `listening <port>`) and `GET /stats`:
 * `{ requests, statements, rss }` (statements run since start, resident set size in bytes). With
 * `maxCost` (and `maxCells`), the `Limits` plugin is installed with that cost limit (and cell
 * limit; the other limits default).
 *
 * The server is the package's `serve`, as the README's "Getting started" runs it in production
 * (every plugin of `mikrogqlPreset`, `/ready` and `/health`, GraphiQL and introspection off under
 * `NODE_ENV=production`, graceful shutdown), without its request log (`log: false`: a JSON line
 * per request on standard output, which PostGraphile's server does not write either) unless
 * `BENCH_LOG=on` (serve's default log, as the README runs it; `BENCH_LOG=console`: the same JSON
 * line by `console.log`, as serve wrote it before its buffered writer). `BENCH_PERSISTED=<manifest.json>`
 * serves persisted operations only (`serve({ persistedOperations })`). `BENCH_TIMEOUTS=off` serves
 * without serve's default body timeout (`timeouts: false`). `BENCH_STATS=off`: no `/stats` (its
 * route is a Yoga plugin with an `onRequest` hook, which turns serve()'s fast path off), so
 * `serve()` runs as the README runs it; `BENCH_FAST_PATH=off`: `fastPath: false`.
 *
 * @module
 */
import type { Plugin } from "graphql-yoga";
import { serve } from "../server/serve.ts";
import type { RequestLogEntry } from "../server/request_log.ts";
import { createSchema } from "../examples/blog/generated/mod.ts";
import { openBenchOrm } from "./bench_server.ts";
import { naiveSchema } from "./naive_server.ts";

const [kind, url, maxCost, maxCells] = Deno.args;
if ((kind !== "generated" && kind !== "naive") || !url) {
  console.error("usage: graphql_server.ts <generated|naive> <database url> [maxCost [maxCells]]");
  Deno.exit(2);
}
const persisted = Deno.env.get("BENCH_PERSISTED");
const log = Deno.env.get("BENCH_LOG");
const timeoutsOff = Deno.env.get("BENCH_TIMEOUTS") === "off";
const statsOff = Deno.env.get("BENCH_STATS") === "off";
const fastPathOff = Deno.env.get("BENCH_FAST_PATH") === "off";
let requests = 0;
const { orm, statements } = await openBenchOrm(url);
const stats: Plugin = {
  onRequest({ request, endResponse }) {
    // A suffix test, as PostGraphile's server compares `req.url`: no URL parsed per request.
    if (request.url.endsWith("/stats")) {
      endResponse(
        Response.json({ requests, statements: statements(), rss: Deno.memoryUsage().rss }),
      );
    } else requests++;
  },
};
const server = await serve({
  orm,
  schema: kind === "naive" ? naiveSchema() : createSchema(),
  hostname: "127.0.0.1",
  port: 0,
  preset: maxCost
    ? {
      limits: { maxCost: Number(maxCost), ...(maxCells ? { maxCells: Number(maxCells) } : {}) },
    }
    : {},
  plugins: statsOff ? [] : [stats],
  ...(fastPathOff ? { fastPath: false } : {}),
  ...(timeoutsOff ? { timeouts: false as const } : {}),
  ...(log === "on" ? {} : {
    // `console`: the JSON line written with console.log, as serve() did before its buffered writer.
    log: log === "console" ? (entry: RequestLogEntry) => console.log(JSON.stringify(entry)) : false,
  }),
  ...(persisted
    ? { persistedOperations: { manifest: JSON.parse(await Deno.readTextFile(persisted)) } }
    : {}),
});
console.log(`listening ${server.addr.port}`);
