/**
 * How many subscriptions one client (a remote address) may hold open at once, over all its
 * WebSocket connections and SSE streams; `serve()` counts them here.
 *
 * @module
 */
import type { GraphQLError } from "graphql";
import type { Plugin } from "graphql-yoga";
import { ErrorCode, gqlError } from "../runtime/error_codes.ts";

/** Counts the open subscriptions of each client address. */
export class SubscriptionBudget {
  readonly #open = new Map<string, number>();

  /** @param max subscriptions a client may hold at once */
  constructor(readonly max: number) {}

  /**
   * Takes one subscription for `client`: the function that gives it back (call it once), or the
   * `QUERY_TOO_COMPLEX` error when the client already holds `max`.
   */
  acquire(client: string): (() => void) | GraphQLError {
    const open = this.#open.get(client) ?? 0;
    if (open >= this.max) {
      return gqlError(
        ErrorCode.QUERY_TOO_COMPLEX,
        `at most ${this.max} subscriptions per client; the limit is maxSubscriptionsPerClient`,
      );
    }
    this.#open.set(client, open + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.#open.get(client) ?? 1) - 1;
      if (left === 0) this.#open.delete(client);
      else this.#open.set(client, left);
    };
  }
}

/**
 * Where `serve()` notes each request's connection (`Deno.serve`'s handler info), for
 * {@linkcode SubscriptionLimit}: its client address is read only for a subscription (reading it
 * is a call into Deno's HTTP server, which most requests need not pay).
 */
export const clientAddresses: WeakMap<Request, { readonly remoteAddr: Deno.NetAddr }> =
  new WeakMap();

/**
 * The Yoga plugin counting SSE subscriptions against `budget` (WebSocket operations are counted
 * by `websocket.ts`, which marks their context `countedSubscription`).
 */
export function SubscriptionLimit(budget: SubscriptionBudget): Plugin {
  return {
    onSubscribe({ args, setResultAndStopExecution }) {
      const ctx = args.contextValue as { request?: Request; countedSubscription?: boolean };
      if (ctx.countedSubscription || !ctx.request) return;
      const release = budget.acquire(
        clientAddresses.get(ctx.request)?.remoteAddr.hostname ?? "unknown",
      );
      if (typeof release !== "function") {
        setResultAndStopExecution({ errors: [release] });
        return;
      }
      return {
        onSubscribeError: () => release(),
        onSubscribeResult: () => ({ onEnd: () => release() }),
      };
    },
  };
}
