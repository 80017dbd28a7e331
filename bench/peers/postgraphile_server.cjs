// PostGraphile v5 server of the peer benchmark (issue 12), run by the Node 22 that
// bench/peers/install.ts puts in the bench-local folder:
//   node postgraphile_server.cjs <peers folder> <database url>
// Amber + Relay presets, grafserv on node:http on 127.0.0.1 (a free port, printed as
// `listening <port>`), GraphQL at /graphql, and GET /stats: { requests, statements, rss } like
// bench/graphql_server.ts (statements counted on pg's Client.query).
"use strict";
const { createServer } = require("node:http");
const { createRequire } = require("node:module");
const { join } = require("node:path");

const [folder, url] = process.argv.slice(2);
if (!folder || !url) {
  console.error("usage: postgraphile_server.cjs <peers folder> <database url>");
  process.exit(2);
}
const peers = createRequire(join(folder, "package.json"));
const pg = peers("pg");
const { postgraphile } = peers("postgraphile");
const { PostGraphileAmberPreset } = peers("postgraphile/presets/amber");
const { PostGraphileRelayPreset } = peers("postgraphile/presets/relay");
const { makePgService } = peers("postgraphile/adaptors/pg");
const { grafserv } = peers("postgraphile/grafserv/node");

let statements = 0;
let requests = 0;
const query = pg.Client.prototype.query;
pg.Client.prototype.query = function (...args) {
  statements++;
  return query.apply(this, args);
};

const pgl = postgraphile({
  extends: [PostGraphileAmberPreset, PostGraphileRelayPreset],
  pgServices: [
    makePgService({ connectionString: url, schemas: ["public"], poolConfig: { max: 10 } }),
  ],
  grafserv: { graphqlPath: "/graphql", graphiql: false, watch: false },
  grafast: { explain: false },
});
const handler = pgl.createServ(grafserv).createHandler();
const server = createServer((req, res) => {
  if (req.url === "/stats") {
    res.setHeader("content-type", "application/json");
    res.end(JSON.stringify({ requests, statements, rss: process.memoryUsage().rss }));
    return;
  }
  requests++;
  handler(req, res);
});
server.listen(0, "127.0.0.1", () => console.log(`listening ${server.address().port}`));
