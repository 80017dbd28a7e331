/**
 * A benchmark server process:
 * `deno run -A bench/graphql_server.ts <generated|naive> <database url> [maxCost [maxCells]]`.
 * Serves GraphQL on 127.0.0.1 (a free port) and, on another port, `/stats`: `{ statements, rss }`
 * (statements run since start, resident set size in bytes); prints `listening <port> stats
 * <stats port>`. The benchmarks count requests by their load generator's answers. With
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
 * without serve's default body timeout (`timeouts: false`). `BENCH_FAST_PATH=off`: `fastPath:
 * false`.
 *
 * @module
 */
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
const fastPathOff = Deno.env.get("BENCH_FAST_PATH") === "off";
const { orm, statements } = await openBenchOrm(url);
// `/stats` on a listener of its own: a Yoga plugin answering it (an `onRequest` hook) would turn
// serve()'s fast path off, so the server would not run as the README runs it.
const statsListener = Deno.serve(
  { hostname: "127.0.0.1", port: 0, onListen() {} },
  () => Response.json({ statements: statements(), rss: Deno.memoryUsage().rss }),
);
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
console.log(`listening ${server.addr.port} stats ${statsListener.addr.port}`);
