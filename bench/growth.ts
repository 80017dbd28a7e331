/**
 * How the cost of a request grows with its work, beside PostGraphile and the limit server: the
 * peer benchmark (`bench/peers.ts`: the same servers, rounds in a seeded random order, medians,
 * req/s, server CPU ms per request, statements per request, the ratios to PostGraphile and to the
 * limit) on its own queries (`GROWTH` of `bench/peers/queries.ts`):
 *
 * - Q1 (`users → posts → comments`) at `first:` 1, 10 and 100 on every level: 3, 1,110 and
 *   11,100 nodes (the data set has 10 posts per user and 10 comments per post);
 * - Q4 (a keyset page of 10 users, `after:` a cursor) after the 1,900th, the 19,000th and the
 *   190,000th user of 200,000: a keyset page reads its rows by key from the index, so a deep page
 *   should cost what an early one does.
 *
 * Our servers run with a `maxCost` over Q1 at 100 per level (1,010,100 nodes as its document
 * bounds them). Measured: `mikrogql` (serve's default log), PostGraphile and the limit;
 * `BENCH_SERVERS` names others (`bench/peers.ts`), `BENCH_SECONDS`, `BENCH_ROUNDS`,
 * `BENCH_SEED` as there.
 *
 * ```sh
 * deno task bench:growth
 * BENCH_SECONDS=5 BENCH_QUERIES=Q4@1900,Q4@190000 deno task bench:growth
 * ```
 *
 * @module
 */
import { runPeers } from "./peers.ts";
import { GROWTH } from "./peers/queries.ts";

await runPeers({
  queries: GROWTH,
  users: 200_000,
  servers: ["limit", "PostGraphile", "mikrogql"],
  maxCost: 2_000_000,
});
