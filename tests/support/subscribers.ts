/**
 * Subscription clients for tests: `graphql-ws`'s client over WebSocket and `graphql-sse`'s over
 * SSE, each collecting what it receives and waiting for events, and a Redis server of the test's
 * own on a free port (never the machine's shared one).
 *
 * @module
 */
import { createClient as createWsClient } from "graphql-ws/client";
import { createClient as createSseClient } from "graphql-sse";
import { signToken } from "../../examples/workspace/auth.ts";

/** One received result of a subscription. */
export type Received = {
  data?: Record<string, unknown> | null;
  errors?: { message: string; extensions?: { code?: string } }[];
};

/** A running subscription: what it received, and how it ended. */
export class Subscriber {
  readonly received: Received[] = [];
  /** When each result arrived (`performance.now()`, ms). */
  readonly times: number[] = [];
  /** Set once the stream ended: `null` completed, else the error (a result's or the transport's). */
  ended: unknown = undefined;
  #wake: (() => void) | undefined;
  #stop: () => void;

  constructor(iterator: AsyncIterableIterator<Received>) {
    this.#stop = () => void iterator.return?.();
    (async () => {
      try {
        for await (const result of iterator) {
          this.received.push(result);
          this.times.push(performance.now());
          this.#notify();
        }
        this.ended = null;
      } catch (error) {
        this.ended = error;
      }
      this.#notify();
    })();
  }

  #notify(): void {
    const wake = this.#wake;
    this.#wake = undefined;
    wake?.();
  }

  /**
   * Waits until `done()` holds after an event or the end (a hang guard of `guardMs` fails the
   * test instead of hanging it; it asserts no timing).
   */
  async until(done: () => boolean, guardMs = 20_000): Promise<void> {
    const guard = Date.now() + guardMs;
    while (!done()) {
      if (Date.now() > guard) throw new Error(`gave up waiting after ${guardMs} ms`);
      await Promise.race([
        new Promise<void>((resolve) => this.#wake = resolve),
        new Promise((resolve) => setTimeout(resolve, 100)),
      ]);
    }
  }

  /** The change events received so far (`<field>` of each result's data). */
  events(field: string): { operation: string; id: string; node: Record<string, unknown> | null }[] {
    return this.received.flatMap((r) => r.data?.[field] ? [r.data[field] as never] : []);
  }

  stop(): void {
    this.#stop();
  }
}

/** Subscribes over WebSocket (`graphql-transport-ws`) with `authorization` as connection params. */
export function subscribeWs(url: string, query: string, authorization?: string): Subscriber {
  const client = createWsClient({
    url: url.replace(/^http/, "ws"),
    webSocketImpl: WebSocket,
    connectionParams: authorization ? { authorization } : undefined,
    retryAttempts: 0,
    lazy: true,
  });
  const iterator = client.iterate<Record<string, unknown>>({ query });
  const subscriber = new Subscriber(iterator as AsyncIterableIterator<Received>);
  const stop = subscriber.stop.bind(subscriber);
  subscriber.stop = () => {
    stop();
    void client.dispose();
  };
  return subscriber;
}

/** Subscribes over SSE (GraphQL over SSE, distinct connections), `authorization` as a header. */
export function subscribeSse(url: string, query: string, authorization?: string): Subscriber {
  const client = createSseClient({
    url,
    headers: authorization ? { authorization } : {},
    retryAttempts: 0,
  });
  const iterator = client.iterate<Record<string, unknown>>({ query });
  const subscriber = new Subscriber(iterator as AsyncIterableIterator<Received>);
  const stop = subscriber.stop.bind(subscriber);
  subscriber.stop = () => {
    stop();
    client.dispose();
  };
  return subscriber;
}

/** A free TCP port on 127.0.0.1. */
export function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return port;
}

/** A `redis-server` of the test's own on `port` (no persistence); `stop()` kills it. */
export async function startRedis(port = freePort()) {
  const child = new Deno.Command("redis-server", {
    args: ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
    stdout: "null",
    stderr: "null",
  }).spawn();
  // Ready once it accepts a connection.
  for (let attempt = 0;; attempt++) {
    try {
      (await Deno.connect({ hostname: "127.0.0.1", port })).close();
      break;
    } catch (error) {
      if (attempt > 200) throw error;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    async stop() {
      try {
        child.kill("SIGKILL");
      } catch { /* exited */ }
      await child.status;
    },
  };
}

/** The workspace example's `JWT_SECRET` in these tests (a production server refuses the development one). */
export const TEST_JWT_SECRET = "h37-subscriptions-test-secret";

/** A token for `username` signed with {@linkcode TEST_JWT_SECRET}. */
export function testToken(username: string): Promise<string> {
  return signToken(username, new TextEncoder().encode(TEST_JWT_SECRET));
}
