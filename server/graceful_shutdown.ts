/**
 * Graceful shutdown of a `Deno.serve` server: stop accepting connections, let the requests in
 * flight finish within a grace period, then run the closers (the ORM's pools) and report how it
 * went. Started by a signal (SIGTERM, SIGINT) or by a call; a second signal during the grace
 * period gives up waiting.
 *
 * @module
 */

/** Options of {@linkcode gracefulShutdown}. */
export interface ShutdownOptions {
  /** The signals that start a shutdown; default `["SIGTERM", "SIGINT"]` (`[]`: none). */
  signals?: Deno.Signal[];
  /** How long requests in flight may take to finish, in milliseconds; default 10,000. */
  graceMs?: number;
}

/** How a shutdown ended. */
export interface ShutdownResult {
  /** What started it: a signal's name, or `"call"`. */
  cause: string;
  /** Requests still running when the grace period ended or a second signal came (0: clean). */
  abandoned: number;
}

/** A shutdown controller for one server. */
export interface GracefulShutdown {
  /** Starts the shutdown (again: the same promise). */
  shutdown(cause?: string): Promise<ShutdownResult>;
  /** `true` once a shutdown has started. */
  readonly draining: boolean;
  /** Settles when a shutdown has finished, whatever started it. */
  readonly finished: Promise<ShutdownResult>;
}

/**
 * Watches the signals for `server` and shuts it down on the first.
 *
 * @param inFlight the number of requests being answered now
 * @param steps `draining()` is called first (log it), `close()` after the requests finished
 *   (awaited) or were abandoned (not awaited: it would wait for their statements)
 * @throws Error when `graceMs` is negative or not a number
 */
export function gracefulShutdown(
  server: Pick<Deno.HttpServer, "shutdown" | "finished">,
  inFlight: () => number,
  steps: { draining(cause: string): void; close(): Promise<void> },
  options: ShutdownOptions = {},
): GracefulShutdown {
  const graceMs = options.graceMs ?? 10_000;
  if (!(graceMs >= 0)) throw new Error(`shutdown graceMs must be 0 or more, got ${graceMs}`);
  const signals = options.signals ?? ["SIGTERM", "SIGINT"];
  let started: Promise<ShutdownResult> | undefined;
  let giveUp: () => void = () => {};
  let resolveFinished: (result: ShutdownResult) => void = () => {};
  const finished = new Promise<ShutdownResult>((resolve) => resolveFinished = resolve);
  const onSignal: Record<string, () => void> = {};
  const removeSignals = () => {
    for (const [signal, listener] of Object.entries(onSignal)) {
      Deno.removeSignalListener(signal as Deno.Signal, listener);
    }
  };
  const shutdown = (cause = "call"): Promise<ShutdownResult> => {
    if (started) return started;
    started = (async () => {
      // The listener closes first, so whoever reads the draining log finds the port closed.
      const stopped = server.shutdown().then(() => "done" as const);
      steps.draining(cause);
      let timer: ReturnType<typeof setTimeout> | undefined;
      const gaveUp = new Promise<"gave up">((resolve) => {
        giveUp = () => resolve("gave up");
        timer = setTimeout(giveUp, graceMs);
      });
      const ended = await Promise.race([stopped, gaveUp]);
      clearTimeout(timer);
      const abandoned = ended === "done" ? 0 : inFlight();
      removeSignals();
      // With requests abandoned, closing the pools would wait for their statements: close
      // without waiting (the process exits next, or the statements end by their deadline).
      if (abandoned) steps.close().catch(() => {});
      else await steps.close();
      const result = { cause, abandoned };
      resolveFinished(result);
      return result;
    })();
    return started;
  };
  for (const signal of signals) {
    onSignal[signal] = () => started ? giveUp() : void shutdown(signal);
    Deno.addSignalListener(signal, onSignal[signal]);
  }
  // A server stopped some other way (its signal option) stops watching signals too.
  server.finished.then(() => {
    if (!started) removeSignals();
  });
  return {
    shutdown,
    get draining() {
      return started !== undefined;
    },
    finished,
  };
}
