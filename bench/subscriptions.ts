/**
 * `deno task bench:subscriptions`: 1,000 concurrent subscribers of the workspace example's
 * `taskChanged` over 2 server processes (PostgreSQL, a Redis of the benchmark's own), half over
 * WebSocket (`graphql-ws`, 10 subscriptions per socket), half over SSE (`graphql-sse`), viewers
 * ann, bob and cat in turn. Prints:
 *
 * - memory per idle subscriber: the servers' RSS after the subscriptions opened, less before,
 *   per subscriber;
 * - delivery latency p50/p99 of `EVENTS` updates (one at a time, from either server, each
 *   delivered to every subscriber before the next): from the mutation's request to the
 *   delivery (an upper bound of commit-to-delivery) and from its response (the commit is
 *   before it: a lower bound);
 * - server CPU per delivered event: both servers' CPU time over the update phase per delivery.
 *
 * `SUBSCRIBERS` and `EVENTS` change the counts.
 *
 * @module
 */
import { createClient } from "graphql-ws/client";
import { encodeGlobalId } from "../runtime/plan/global_id.ts";
import { createTestDatabase } from "../tests/support/databases.ts";
import { figuresOf, startExample } from "../tests/support/example_process.ts";
import {
  startRedis,
  Subscriber,
  subscribeSse,
  TEST_JWT_SECRET,
  testToken,
} from "../tests/support/subscribers.ts";

const SUBSCRIBERS = Number(Deno.env.get("SUBSCRIBERS") ?? 1000);
const EVENTS = Number(Deno.env.get("EVENTS") ?? 40);
const PER_SOCKET = 10;
const FEED = `subscription { taskChanged { operation id node { id title status } } }`;

const redis = await startRedis();
const db = await createTestDatabase("postgresql");
const env = {
  REDIS_URL: redis.url,
  REDIS_PREFIX: `bench:${crypto.randomUUID()}:`,
  SUBSCRIPTIONS_PER_CLIENT: String(SUBSCRIBERS),
  JWT_SECRET: TEST_JWT_SECRET,
};
const a = await startExample("workspace", db.url, env);
const b = await startExample("workspace", db.url, env);
const servers = [a, b];
const tokens = await Promise.all(["ann", "bob", "cat"].map((u) => testToken(u)));
const subscribers: Subscriber[] = [];
const disposers: (() => unknown)[] = [];
try {
  await new Promise((resolve) => setTimeout(resolve, 500)); // let both settle before measuring
  const before = await Promise.all(servers.map((s) => figuresOf(s.pid)));
  // Half over WebSocket, 10 per socket; half over SSE; alternating servers and viewers.
  const wsCount = Math.floor(SUBSCRIBERS / 2);
  for (let i = 0; i < wsCount; i += PER_SOCKET) {
    const server = servers[(i / PER_SOCKET) % 2];
    const client = createClient({
      url: server.url.replace(/^http/, "ws"),
      webSocketImpl: WebSocket,
      connectionParams: { authorization: `Bearer ${tokens[(i / PER_SOCKET) % 3]}` },
      retryAttempts: 0,
    });
    disposers.push(() => client.dispose());
    for (let j = i; j < Math.min(i + PER_SOCKET, wsCount); j++) {
      subscribers.push(new Subscriber(client.iterate({ query: FEED }) as never));
    }
  }
  for (let i = wsCount; i < SUBSCRIBERS; i++) {
    subscribers.push(subscribeSse(servers[i % 2].url, FEED, `Bearer ${tokens[i % 3]}`));
  }
  // Every subscriber listens once it has received a warm-up update (task 4 all three read).
  let round = 0;
  const update = async (server: typeof a) => {
    const title = `bench ${++round}`;
    const started = performance.now();
    const response = await fetch(server.url, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${tokens[0]}` },
      body: JSON.stringify({
        query:
          `mutation($id: ID!, $t: String!) { updateTask(id: $id, input: { title: $t }) { id } }`,
        variables: { id: encodeGlobalId("Task", 4), t: title },
      }),
    });
    await response.body?.cancel();
    return { title, started, answered: performance.now() };
  };
  const indexOf = (s: Subscriber, title: string) =>
    s.received.findIndex((r) =>
      (r.data?.taskChanged as { node?: { title?: string } })?.node?.title === title
    );
  for (;;) {
    await update(servers[round % 2]);
    const waiting = () => subscribers.filter((s) => s.received.length === 0);
    try {
      await Promise.all(waiting().map((s) => s.until(() => s.received.length > 0, 10_000)));
      break;
    } catch {
      const ended = subscribers.filter((s) => s.ended !== undefined);
      console.log(
        `warm-up ${round}: ${waiting().length} not listening yet, ${ended.length} ended (${
          ended.filter((s) => subscribers.indexOf(s) < Math.floor(SUBSCRIBERS / 2)).length
        } of them WebSocket; codes ${
          JSON.stringify([
            ...new Set(ended.map((s) => s.received.at(-1)?.errors?.[0]?.extensions?.code)),
          ])
        }; ${
          String((ended[0]?.ended as { message?: string })?.message ?? ended[0]?.ended ?? "")
            .slice(0, 200)
        })`,
      );
      if (round > 20 || ended.length > 0) {
        for (const server of servers) {
          console.log(
            server.output.filter((l) => !l.includes('"status":200')).slice(-8).join("\n"),
          );
        }
        throw new Error("subscribers never all listened");
      }
    }
  }
  const failed = subscribers.filter((s) => s.received.some((r) => r.errors));
  if (failed.length > 0) {
    throw new Error(
      `${failed.length} subscriptions failed: ${JSON.stringify(failed[0].received.at(-1))}`,
    );
  }
  await new Promise((resolve) => setTimeout(resolve, 1_000)); // idle
  const idle = await Promise.all(servers.map((s) => figuresOf(s.pid)));
  const idleBytes = idle.reduce((n, f, i) => n + f.rss - before[i].rss, 0);

  const cpuBefore = idle.reduce((n, f) => n + f.cpuMs, 0);
  const fromRequest: number[] = [];
  const fromResponse: number[] = [];
  for (let e = 0; e < EVENTS; e++) {
    const { title, started, answered } = await update(servers[e % 2]);
    await Promise.all(subscribers.map((s) => s.until(() => indexOf(s, title) >= 0)));
    for (const s of subscribers) {
      const at = s.times[indexOf(s, title)];
      fromRequest.push(at - started);
      fromResponse.push(at - answered);
    }
  }
  const after = await Promise.all(servers.map((s) => figuresOf(s.pid)));
  const cpu = after.reduce((n, f) => n + f.cpuMs, 0) - cpuBefore;
  const deliveries = fromRequest.length;
  const pct = (list: number[], p: number) => {
    const sorted = [...list].sort((x, y) => x - y);
    return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))].toFixed(1);
  };
  console.log(
    `${SUBSCRIBERS} subscribers (${wsCount} WebSocket, ${
      SUBSCRIBERS - wsCount
    } SSE) over 2 server processes, Redis pub/sub, PostgreSQL`,
  );
  console.log(
    `memory per idle subscriber: ${(idleBytes / SUBSCRIBERS / 1024).toFixed(1)} KiB (RSS ${
      (idle.reduce((n, f) => n + f.rss, 0) / 2 ** 20).toFixed(0)
    } MiB over 2 servers)`,
  );
  console.log(
    `delivery latency, ${EVENTS} updates x ${SUBSCRIBERS} subscribers: from the mutation's request p50 ${
      pct(fromRequest, 0.5)
    } ms, p99 ${pct(fromRequest, 0.99)} ms; from its response p50 ${
      pct(fromResponse, 0.5)
    } ms, p99 ${pct(fromResponse, 0.99)} ms`,
  );
  console.log(
    `server CPU per delivered event: ${(cpu * 1000 / deliveries).toFixed(0)} µs (${
      cpu.toFixed(0)
    } ms CPU for ${deliveries} deliveries, both servers)`,
  );
} finally {
  for (const s of subscribers) s.stop();
  await Promise.all(disposers.map((d) => d()));
  await a.stop();
  await b.stop();
  await redis.stop();
  await db.drop();
}
