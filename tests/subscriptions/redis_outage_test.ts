/**
 * Redis stopped and restarted under a running server (the workspace example with `REDIS_URL`
 * on a Redis of the test's own, never the machine's shared one): open subscriptions (WebSocket
 * and SSE) end with `SUBSCRIPTIONS_UNAVAILABLE`, a mutation still commits, a new subscription
 * is refused with the same code, and once Redis is back on its port subscriptions work again
 * (what was committed meanwhile is not delivered: docs/subscriptions.md).
 */
import { assertEquals } from "@std/assert";
import { encodeGlobalId } from "../../runtime/plan/global_id.ts";
import { startExample } from "../support/example_process.ts";
import {
  startRedis,
  type Subscriber,
  subscribeSse,
  subscribeWs,
  TEST_JWT_SECRET,
  testToken,
} from "../support/subscribers.ts";

const FEED = `subscription { taskChanged { operation id node { title } } }`;

Deno.test({
  name: "Redis down: subscriptions end with SUBSCRIPTIONS_UNAVAILABLE, writes go on, resumes",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    let redis = await startRedis();
    const server = await startExample("workspace", "sqlite::memory:", {
      REDIS_URL: redis.url,
      REDIS_PREFIX: `h37:${crypto.randomUUID()}:`,
      JWT_SECRET: TEST_JWT_SECRET,
    });
    const ann = await testToken("ann");
    const subscribers: Subscriber[] = [];
    let round = 0;
    const touch = async () => {
      const title = `touch ${++round}`;
      const response = await fetch(server.url, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${ann}` },
        body: JSON.stringify({
          query:
            `mutation($id: ID!, $t: String!) { updateTask(id: $id, input: { title: $t }) { title } }`,
          variables: { id: encodeGlobalId("Task", 4), t: title },
        }),
      });
      return { title, answer: await response.json() };
    };
    /** Subscribes (both transports) until each receives an event of a touch. */
    const listening = async () => {
      for (let attempt = 0;; attempt++) {
        const pair = [
          subscribeWs(server.url, FEED, `Bearer ${ann}`),
          subscribeSse(server.url, FEED, `Bearer ${ann}`),
        ];
        subscribers.push(...pair);
        try {
          for (let warm = 0; warm < 10; warm++) {
            const { title } = await touch();
            const got = (s: Subscriber) =>
              s.events("taskChanged").some((e) => e.node?.title === title);
            try {
              await Promise.all(
                pair.map((s) => s.until(() => got(s) || s.ended !== undefined, 500)),
              );
            } catch { /* not yet */ }
            if (pair.every(got)) return pair;
            if (pair.some((s) => s.ended !== undefined)) break;
          }
        } finally {
          // a pair that failed is dropped
        }
        for (const s of pair) s.stop();
        if (attempt > 40) throw new Error("subscriptions never resumed");
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    };
    try {
      const [ws, sse] = await listening();
      await redis.stop();
      const code = (s: Subscriber) =>
        s.received.at(-1)?.errors?.[0]?.extensions?.code ??
          (s.ended as { [k: number]: { extensions?: { code?: string } } } | null)?.[0]?.extensions
            ?.code;
      for (const s of [ws, sse]) {
        await s.until(() => s.ended !== undefined);
        assertEquals(code(s), "SUBSCRIPTIONS_UNAVAILABLE", JSON.stringify(s.received.at(-1)));
      }
      // Writes go on while Redis is down.
      const { title, answer } = await touch();
      assertEquals(answer, { data: { updateTask: { title } } });
      // A new subscription is refused with the same code.
      const refused = subscribeWs(server.url, FEED, `Bearer ${ann}`);
      subscribers.push(refused);
      await refused.until(() => refused.ended !== undefined);
      assertEquals(code(refused), "SUBSCRIPTIONS_UNAVAILABLE", String(refused.ended));
      // Back on the same port: subscriptions work again.
      redis = await startRedis(redis.port);
      await listening();
    } catch (error) {
      console.log(server.output.slice(-30).join("\n"));
      throw error;
    } finally {
      for (const s of subscribers) s.stop();
      await server.stop();
      await redis.stop();
    }
  },
});
