/**
 * A buffered, non-blocking line writer for the request log: `write(line)` appends to a bounded
 * in-memory buffer and returns; the buffer is written to the sink (standard output) by one
 * asynchronous write at a time, each carrying every line buffered since the last, and at most one
 * write per `intervalMs` (default 25 ms): a line after a quiet spell goes out at once, the lines of
 * a busy server in one write per interval. A request never waits for its line, and a sink that
 * stops reading (a full pipe, a stalled log collector) never stalls the server: once the buffer
 * holds `maxBytes`, further lines are dropped and counted, and a line saying how many were dropped
 * is written when there is room again.
 *
 * `console.log` per line, as before, cost 12–14 µs of CPU per request (a synchronous write
 * system call per line); writing with `Deno.stdout.writeSync` per line hung the example server
 * when its stdout pipe was full (the write spins on a full non-blocking pipe). Deno's
 * asynchronous `write` waits for a full pipe off the event loop, but each one costs some 45 µs of
 * CPU (measured on a pipe: the hand-off to the thread that writes), which a write per request or
 * two paid under load (the floor's log line cost 30 µs of CPU per request); one write per
 * interval costs well under 1 µs per line at a thousand requests a second.
 *
 * @module
 */
/** Where the lines go: `Deno.stdout` (any `Deno.Writer`). */
export interface LineSink {
  /** Writes some of `bytes`; resolves to how many were written. */
  write(bytes: Uint8Array): Promise<number>;
}

/** A line writer (see the module documentation). */
export interface LogWriter {
  /** Buffers `line` (a newline is added); drops it when the buffer is full. Never blocks. */
  write(line: string): void;
  /** Lines dropped so far because the buffer was full (or the sink failed). */
  readonly dropped: number;
  /**
   * Resolves once every line buffered so far is written (or dropped), or after `timeoutMs`
   * (default 2,000) when the sink does not take them: before the process exits.
   */
  flush(timeoutMs?: number): Promise<void>;
}

/** The buffer's default bound: 1 MiB of pending lines (about 6,000 JSON request lines). */
export const DEFAULT_LOG_BUFFER_BYTES = 1 << 20;

/** The default least time between two writes to the sink, in milliseconds: 25. */
export const DEFAULT_LOG_INTERVAL_MS = 25;

/**
 * A {@linkcode LogWriter} on `sink`.
 *
 * @example
 * ```ts
 * import { bufferedLogWriter } from "./log_writer.ts";
 *
 * const log = bufferedLogWriter(Deno.stdout);
 * log.write(JSON.stringify({ event: "listening" }));
 * await log.flush();
 * ```
 *
 * @param maxBytes the most pending text (UTF-16 code units, newlines included) held; default
 *   {@linkcode DEFAULT_LOG_BUFFER_BYTES}
 * @param dropNote the line written after drops, given their count; default a JSON event line
 * @param intervalMs the least time between two writes, in milliseconds (`flush` cuts it short);
 *   default {@linkcode DEFAULT_LOG_INTERVAL_MS}
 * @throws Error when `maxBytes` is not a positive number or `intervalMs` is negative
 */
export function bufferedLogWriter(
  sink: LineSink,
  maxBytes: number = DEFAULT_LOG_BUFFER_BYTES,
  dropNote: (count: number) => string = (count) =>
    JSON.stringify({ time: new Date().toISOString(), event: "log lines dropped", count }),
  intervalMs: number = DEFAULT_LOG_INTERVAL_MS,
): LogWriter {
  if (!(maxBytes > 0)) throw new Error(`log buffer: maxBytes must be > 0, got ${maxBytes}`);
  if (!(intervalMs >= 0)) throw new Error(`log buffer: intervalMs must be >= 0, got ${intervalMs}`);
  const encoder = new TextEncoder();
  let pending: string[] = [];
  let pendingLength = 0;
  let dropped = 0;
  /** Drops not yet reported by a note line. */
  let unreported = 0;
  let broken = false;
  let writing: Promise<void> | undefined;
  /** Ends the pause between two writes early (`flush`), while one is pending. */
  let hurry: (() => void) | undefined;
  let hurried = false;

  const append = (text: string) => {
    pending.push(text);
    pendingLength += text.length;
  };
  const drain = async () => {
    while (pending.length && !broken) {
      const text = pending.join("");
      pending = [];
      pendingLength = 0;
      let bytes = encoder.encode(text);
      try {
        while (bytes.length) bytes = bytes.subarray(await sink.write(bytes));
      } catch {
        // The reader is gone (a closed pipe): nothing written from now on.
        broken = true;
        dropped += text.split("\n").length - 1 + pending.length;
        pending = [];
        pendingLength = 0;
      }
      if (unreported && !broken) {
        append(`${dropNote(unreported)}\n`);
        unreported = 0;
      }
      // The lines that come meanwhile go out together, in one write after the pause.
      if (!hurried && !broken && intervalMs > 0) await pause();
    }
    writing = undefined;
    hurried = false;
  };
  const pause = () =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(end, intervalMs);
      function end() {
        clearTimeout(timer);
        hurry = undefined;
        resolve();
      }
      hurry = end;
    });
  return {
    write(line) {
      if (broken || pendingLength + line.length + 1 > maxBytes) {
        dropped++;
        unreported++;
        return;
      }
      append(`${line}\n`);
      writing ??= Promise.resolve().then(drain);
    },
    get dropped() {
      return dropped;
    },
    async flush(timeoutMs = 2_000) {
      if (!writing) return;
      hurried = true;
      hurry?.();
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([
        writing,
        new Promise<void>((resolve) => timer = setTimeout(resolve, timeoutMs)),
      ]);
      clearTimeout(timer);
    },
  };
}
