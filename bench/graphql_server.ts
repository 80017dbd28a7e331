/**
 * A benchmark server process:
 * `deno run -A bench/graphql_server.ts <generated|naive> <database url> [maxCost]`.
 * Serves GraphQL on 127.0.0.1 (a free port, printed as `listening <port>`) and `GET /stats`:
 * `{ requests, statements, rss }` (statements run since start, resident set size in bytes). With
 * `maxCost`, the `Limits` plugin is installed with that cost limit (the other limits default).
 *
 * @module
 */
import { createYoga } from "graphql-yoga";
import { BodyLimit, Jit, Limits } from "@mikrogql/ext";
import { openDatabase } from "../examples/database.ts";
import { createSchema } from "../examples/blog/generated/mod.ts";
import { entities } from "../examples/blog/entities.ts";
import { naiveSchema } from "./naive_server.ts";

const [kind, url, maxCost] = Deno.args;
if ((kind !== "generated" && kind !== "naive") || !url) {
  console.error("usage: graphql_server.ts <generated|naive> <database url> [maxCost]");
  Deno.exit(2);
}
let statements = 0;
let requests = 0;
const orm = await openDatabase({
  entities,
  url,
  // MikroORM's onQuery hook (not its debug logger, which formats a log line per statement).
  extra: {
    pool: { min: 2, max: 10 },
    onQuery: (sql: string) => {
      statements++;
      return sql;
    },
  },
});
const yoga = createYoga({
  schema: kind === "generated" ? createSchema() : naiveSchema(),
  context: () => ({ em: orm.em.fork() }),
  maxRequestBodySize: false,
  plugins: [Jit(), BodyLimit(), ...(maxCost ? [Limits({ maxCost: Number(maxCost) })] : [])],
  logging: false,
});
Deno.serve({
  hostname: "127.0.0.1",
  port: 0,
  onListen: ({ port }) => console.log(`listening ${port}`),
}, (request, info) => {
  if (new URL(request.url).pathname === "/stats") {
    return Response.json({ requests, statements, rss: Deno.memoryUsage().rss });
  }
  requests++;
  return yoga.fetch(request, info);
});
