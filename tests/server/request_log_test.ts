/**
 * The request log's pure parts: `isoTime` (the line's time, its date and second formatted once
 * per second) against `Date.prototype.toISOString` on fixed edges and seeded random times, in
 * and out of order; `requestPath` on URLs with and without a query string or fragment.
 */
import { assertEquals } from "@std/assert";
import { isoTime, requestPath } from "../../server/request_log.ts";
import { testSeed } from "../support/test_seed.ts";
import { random } from "../support/random_data.ts";

const SEED = testSeed("LOG_TIME_SEED", 20_261_129);

Deno.test(`isoTime is toISOString, within a second and across seconds (seed ${SEED})`, () => {
  const edges = [0, 1, 9, 10, 99, 100, 999, 1000, 1001, Date.UTC(2026, 10, 29, 23, 59, 59, 999)];
  const next = random(SEED);
  const times = [...edges];
  let now = Date.UTC(2026, 10, 29, 7, 0, 0, 0);
  for (let i = 0; i < 2_000; i++) {
    // Mostly forward by a few milliseconds, as a server's lines; sometimes back or far away.
    const r = next();
    now = r < 0.8
      ? now + Math.floor(next() * 5)
      : r < 0.9
      ? now - Math.floor(next() * 2_000)
      : Math.floor(next() * Date.UTC(9999, 0, 1));
    times.push(now, now);
  }
  for (const ms of times) assertEquals(isoTime(ms), new Date(ms).toISOString(), `at ${ms}`);
});

Deno.test("requestPath: the path as sent, without the query string or fragment", () => {
  assertEquals(requestPath("http://127.0.0.1:8000/graphql"), "/graphql");
  assertEquals(requestPath("http://h/graphql?query={a}&next=/x"), "/graphql");
  assertEquals(requestPath("http://h/a/b#frag"), "/a/b");
  assertEquals(requestPath("http://h"), "/");
});
