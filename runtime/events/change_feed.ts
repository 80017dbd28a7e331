/**
 * The change feed: how committed changes (`change_capture.ts`) travel to subscriptions, through
 * GraphQL Yoga's `createPubSub`, in-process by default, or between server processes over Redis
 * pub/sub (`@graphql-yoga/redis-event-target` on two `ioredis` connections) with `redis`.
 *
 * Each commit is one message per root entity (`changeTopic`), `{ changes: ChangeRecord[] }`. A
 * subscription reads its topic through a queue of at most `maxBufferedEvents` messages; past it
 * the subscription ends with `SLOW_CONSUMER`. While Redis is unreachable the feed is
 * unavailable: open subscriptions end with `SUBSCRIPTIONS_UNAVAILABLE`, new ones are refused with
 * it, and the changes committed meanwhile are not published (the publishing connection keeps no
 * offline queue): nobody receives them, and a client that subscribes again refetches what it
 * shows. Queries and mutations never wait for Redis.
 *
 * @module
 */
import { createPubSub } from "graphql-yoga";
import { createRedisEventTarget } from "@graphql-yoga/redis-event-target";
import { Redis } from "ioredis";
import { ErrorCode, gqlError } from "../error_codes.ts";
import { type ChangeRecord, changeTopic } from "./change_record.ts";

/** Options of {@linkcode createChangeFeed}. */
export interface ChangeFeedOptions {
  /**
   * A Redis URL (`redis://127.0.0.1:6379/0`): events travel between every server process using
   * the same URL and `prefix`. Default: in-process only (one server process).
   */
  redis?: string;
  /** The prefix of the Redis channels; default `mikrogql:`. */
  prefix?: string;
  /** Messages (commits) a subscription may have waiting before it ends with `SLOW_CONSUMER`; default 256. */
  maxBufferedEvents?: number;
}

/** What one message of the feed holds: the records of one commit for one root entity. */
export interface ChangeMessage {
  /** The folded records of the commit (one per row). */
  changes: ChangeRecord[];
}

/** A feed of committed changes, from {@linkcode createChangeFeed}. */
export interface ChangeFeed {
  /** The channel prefix. */
  readonly prefix: string;
  /** Whether subscriptions can be served now (in-process: always; Redis: while connected). */
  readonly available: boolean;
  /** Settles once the feed is available (immediately in-process), or rejects after `timeoutMs`. */
  ready(timeoutMs?: number): Promise<void>;
  /** Publishes the records of one commit, by root entity class name (never throws). */
  publish(changes: Map<string, ChangeRecord[]>): void;
  /**
   * The messages of a root entity's topic from now on, until `return()` or `signal`: listening
   * before it returns. Throws `SUBSCRIPTIONS_UNAVAILABLE` when the feed is unavailable (now or
   * later), `SLOW_CONSUMER` when its queue overflows.
   */
  subscribe(root: string, signal?: AbortSignal): AsyncIterableIterator<ChangeRecord[]>;
  /** Completes every subscription (graceful shutdown) and closes the Redis connections. */
  close(): Promise<void>;
}

type Message = CustomEvent<ChangeMessage | null>;

/**
 * Creates a change feed: in-process, or over Redis pub/sub with `redis`.
 *
 * @example Two server processes sharing their events
 * ```ts
 * import { createChangeFeed } from "@mikrogql/ext";
 *
 * const changes = createChangeFeed({ redis: "redis://127.0.0.1:6379", prefix: "blog:" });
 * await changes.ready(2_000);
 * // serve({ orm, schema, changes })
 * ```
 *
 * @throws Error for a `maxBufferedEvents` below 1
 */
export function createChangeFeed(options: ChangeFeedOptions = {}): ChangeFeed {
  const max = options.maxBufferedEvents ?? 256;
  if (!(max >= 1)) throw new Error(`maxBufferedEvents must be at least 1, got ${max}`);
  return new Feed(options.prefix ?? "mikrogql:", max, options.redis);
}

class Feed implements ChangeFeed {
  readonly #pubsub: ReturnType<typeof createPubSub<Record<string, [ChangeMessage]>>>;
  readonly #target: EventTarget;
  readonly #clients: Redis[] = [];
  /** Listeners told when the feed becomes unavailable (its open subscriptions). */
  readonly #onDown = new Set<(error?: Error) => void>();
  #available: boolean;
  #waiting = new Set<() => void>();

  constructor(readonly prefix: string, readonly max: number, redis?: string) {
    if (redis === undefined) {
      this.#target = new EventTarget();
      this.#available = true;
    } else {
      // The publisher keeps no offline queue: a commit while Redis is down is not sent later.
      const publishClient = new Redis(redis, { enableOfflineQueue: false, lazyConnect: false });
      const subscribeClient = new Redis(redis, { lazyConnect: false });
      this.#clients.push(publishClient, subscribeClient);
      for (const client of this.#clients) client.on("error", () => {});
      subscribeClient.on("ready", () => this.#up());
      subscribeClient.on("close", () => this.#down());
      // redis-event-target drops PUBLISH's promise: its rejection while Redis is down (the
      // documented loss) is caught here, never an unhandled rejection.
      const publisher = {
        publish: (channel: string, message: string) =>
          publishClient.publish(channel, message).catch(() => 0),
      } as unknown as Redis;
      this.#target = createRedisEventTarget<Message>({
        publishClient: publisher,
        subscribeClient,
      }) as unknown as EventTarget;
      this.#available = false;
    }
    this.#pubsub = createPubSub({ eventTarget: this.#target as never });
  }

  get available(): boolean {
    return this.#available;
  }

  ready(timeoutMs = 5_000): Promise<void> {
    if (this.#available) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const done = () => {
        clearTimeout(timer);
        this.#waiting.delete(done);
        resolve();
      };
      const timer = setTimeout(() => {
        this.#waiting.delete(done);
        reject(unavailableError());
      }, timeoutMs);
      this.#waiting.add(done);
    });
  }

  #up(): void {
    this.#available = true;
    for (const done of [...this.#waiting]) done();
  }

  #down(): void {
    if (!this.#available) return;
    this.#available = false;
    const error = unavailableError();
    for (const end of [...this.#onDown]) end(error);
  }

  publish(changes: Map<string, ChangeRecord[]>): void {
    for (const [root, records] of changes) {
      if (records.length === 0) continue;
      this.#pubsub.publish(changeTopic(this.prefix, root), { changes: records });
    }
  }

  subscribe(root: string, signal?: AbortSignal): AsyncIterableIterator<ChangeRecord[]> {
    if (!this.#available) throw unavailableError();
    const topic = changeTopic(this.prefix, root);
    const queue: ChangeRecord[][] = [];
    let failure: Error | undefined;
    let finished = false;
    let wake: (() => void) | undefined;
    const notify = () => {
      const w = wake;
      wake = undefined;
      w?.();
    };
    const listener = (event: Event) => {
      const detail = (event as Message).detail;
      if (finished || !detail) return;
      if (queue.length >= this.max) {
        failure ??= gqlError(
          ErrorCode.SLOW_CONSUMER,
          `more than ${this.max} events waited for this subscription: subscribe again and refetch`,
        );
      } else queue.push(detail.changes);
      notify();
    };
    // An error ends the subscription with it; none (shutdown) completes it.
    const onDown = (error?: Error) => {
      if (error) failure ??= error;
      else stop();
      notify();
    };
    const stop = () => {
      if (finished) return;
      finished = true;
      this.#target.removeEventListener(topic, listener);
      this.#onDown.delete(onDown);
      signal?.removeEventListener("abort", abort);
      notify();
    };
    const abort = () => stop();
    this.#target.addEventListener(topic, listener);
    this.#onDown.add(onDown);
    signal?.addEventListener("abort", abort, { once: true });
    const iterator: AsyncIterableIterator<ChangeRecord[]> = {
      next: async (): Promise<IteratorResult<ChangeRecord[]>> => {
        while (true) {
          if (failure) {
            const error = failure;
            stop();
            throw error;
          }
          if (queue.length > 0) return { value: queue.shift()!, done: false };
          if (finished) return { value: undefined, done: true };
          await new Promise<void>((resolve) => wake = resolve);
        }
      },
      return: () => {
        stop();
        queue.length = 0;
        return Promise.resolve({ value: undefined, done: true });
      },
      [Symbol.asyncIterator]: () => iterator,
    };
    return iterator;
  }

  async close(): Promise<void> {
    for (const end of [...this.#onDown]) end();
    await Promise.all(this.#clients.map((c) => c.quit().catch(() => c.disconnect())));
  }
}

function unavailableError(): Error {
  return gqlError(
    ErrorCode.SUBSCRIPTIONS_UNAVAILABLE,
    "subscriptions are unavailable: the change feed's broker (Redis) is unreachable; queries and mutations still work, subscribe again later",
  );
}
