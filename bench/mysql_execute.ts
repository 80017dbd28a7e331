/**
 * MariaDB: what a statement costs sent the two ways mysql2 offers, for statements shaped as the
 * runtime's reads (a filtered page with `LIMIT ?`, a keyset page, `node`/`nodes` keys, a grouped
 * count): `query(sql, values)`, which Kysely's MySQL dialect (and so MikroORM) calls, escaping the
 * values into the text on the client, against `execute(sql, values)`, a server-side prepared
 * statement per text, cached per connection. One connection, statements sent one after another
 * on a 2,000-row table, the two modes alternated per round after a warm-up (which prepares each
 * text once). Prints per mode the median over rounds of the wall time and of the client's CPU
 * (user + system) per statement.
 *
 * ```sh
 * deno task bench:mysql-execute               # 5 rounds of 3,000 statements per mode
 * ROUNDS=9 N=5000 deno task bench:mysql-execute
 * MYSQL_URL=mysql://root@127.0.0.1:3306/ deno task bench:mysql-execute
 * ```
 *
 * It creates (and leaves) the database `mikrogql_mysql_execute` and its table `t`.
 *
 * @module
 */
import mysql from "mysql2/promise";
import process from "node:process";
import { median } from "./median.ts";

const url = new URL(Deno.env.get("MYSQL_URL") ?? "mysql://root@127.0.0.1:3306/");
const N = Number(Deno.env.get("N") ?? 3000);
const ROUNDS = Number(Deno.env.get("ROUNDS") ?? 5);
const DATABASE = "mikrogql_mysql_execute";

const server = {
  host: url.hostname,
  port: Number(url.port || 3306),
  user: decodeURIComponent(url.username || "root"),
  password: decodeURIComponent(url.password),
};
const admin = await mysql.createConnection(server);
await admin.query(`create database if not exists ${DATABASE}`);
await admin.end();
const connection = await mysql.createConnection({ ...server, database: DATABASE });
await connection.query("drop table if exists t");
await connection.query(
  "create table t (id int primary key, name varchar(100), views int, author_id int, key (author_id))",
);
await connection.query("insert into t values ?", [
  Array.from({ length: 2000 }, (_, i) => [i + 1, `name ${i} o'x`, i % 97, i % 50]),
]);

/** The runtime's statement shapes (MikroORM's text) and their values for the i-th run. */
const STATEMENTS: [string, (i: number) => unknown[]][] = [
  [
    "select `e0`.`id`, `e0`.`name`, `e0`.`views` from `t` as `e0` where `e0`.`name` like ? and `e0`.`views` >= ? order by `e0`.`id` asc limit ?",
    (i) => [`%${i % 10}%`, i % 50, 21],
  ],
  [
    "select `e0`.`id`, `e0`.`name` from `t` as `e0` where (`e0`.`id`) > (?) order by `e0`.`id` asc limit ?",
    (i) => [i % 1900, 21],
  ],
  [
    "select `e0`.`id`, `e0`.`name` from `t` as `e0` where `e0`.`id` in (?, ?, ?)",
    (i) => [(i % 2000) + 1, ((i + 7) % 2000) + 1, ((i + 13) % 2000) + 1],
  ],
  [
    "select count(*) as `count`, `e0`.`author_id` from `t` as `e0` where `e0`.`author_id` in (?, ?, ?, ?) group by `e0`.`author_id`",
    (i) => [i % 50, (i + 1) % 50, (i + 2) % 50, (i + 3) % 50],
  ],
];

type Mode = "query" | "execute";

/** Wall and client CPU microseconds per statement of `N` statements sent with `mode`. */
async function run(mode: Mode): Promise<{ wall: number; cpu: number }> {
  const cpu = process.cpuUsage();
  const start = performance.now();
  for (let i = 0; i < N; i++) {
    const [sql, values] = STATEMENTS[i % STATEMENTS.length];
    const params = values(i) as (string | number)[];
    if (mode === "query") await connection.query(sql, params);
    else await connection.execute(sql, params);
  }
  const used = process.cpuUsage(cpu);
  return { wall: ((performance.now() - start) * 1000) / N, cpu: (used.user + used.system) / N };
}

await run("query");
await run("execute");
const results: Record<Mode, { wall: number; cpu: number }[]> = { query: [], execute: [] };
for (let round = 0; round < ROUNDS; round++) {
  const order: Mode[] = round % 2 ? ["execute", "query"] : ["query", "execute"];
  for (const mode of order) results[mode].push(await run(mode));
}
const [load] = Deno.loadavg();
console.log(`MariaDB ${server.host}:${server.port}, load average ${load.toFixed(2)}`);
for (const mode of ["query", "execute"] as const) {
  const wall = median(results[mode].map((r) => r.wall)).toFixed(1);
  const cpu = median(results[mode].map((r) => r.cpu)).toFixed(1);
  console.log(
    `${mode.padEnd(8)} ${wall} µs/statement wall, ${cpu} µs/statement client CPU ` +
      `(medians of ${ROUNDS} rounds of ${N})`,
  );
}
await connection.end();
