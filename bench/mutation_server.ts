/**
 * A benchmark server process: `deno run -A bench/mutation_server.ts <tx|plain> <database url>`.
 * Serves the generated blog schema on 127.0.0.1 (a free port, printed as `listening <port>`),
 * with the Transactioner (`tx`) or without it (`plain`).
 *
 * @module
 */
import { createYoga } from "graphql-yoga";
import { Transactioner } from "@mikrogql/ext";
import { openOrm } from "../server/open_orm.ts";
import { createSchema } from "../examples/blog/generated/mod.ts";
import { entities } from "../examples/blog/entities.ts";

const [mode, url] = Deno.args;
if ((mode !== "tx" && mode !== "plain") || !url) {
  console.error("usage: mutation_server.ts <tx|plain> <database url>");
  Deno.exit(2);
}
const orm = await openOrm({ entities, url, extra: { pool: { min: 2, max: 10 } } });
const yoga = createYoga({
  schema: createSchema(),
  context: () => ({ em: orm.em.fork() }),
  plugins: mode === "tx" ? [Transactioner({ txOpener: orm })] : [],
  logging: false,
});
Deno.serve({
  hostname: "127.0.0.1",
  port: 0,
  onListen: ({ port }) => console.log(`listening ${port}`),
}, yoga.fetch);
