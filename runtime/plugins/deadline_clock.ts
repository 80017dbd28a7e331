/**
 * One timer for many deadlines of the same length: the `Deadline` plugin's clock. Deadlines of one
 * length expire in the order they start, so they wait in a queue, oldest first, and one timer,
 * armed for the oldest, serves them all: a request arms no timer of its own (a `setTimeout` and
 * its `clearTimeout` cost some 4 µs of CPU per request under Deno's Node-compatible timers, a
 * tenth of a `{ __typename }` request). A deadline that ends before its time is marked and
 * dropped once it reaches the front; the timer, when it fires early for a dropped one, is armed
 * again for the new front. When the queue empties the timer is cleared, so an idle server holds
 * none.
 *
 * @module
 */

/** A deadline waiting in a {@linkcode DeadlineClock}. */
export interface ClockEntry {
  /** When it expires, in `performance.now()` milliseconds. */
  readonly expiresAt: number;
  /** Set by the clock when it is no longer waited on (expired or ended). */
  waiting: boolean;
  /** Called once when the deadline expires before it was ended. */
  expire(): void;
}

/** Deadlines of one length, served by one timer (see the module documentation). */
export class DeadlineClock {
  #queue: (ClockEntry | undefined)[] = [];
  #head = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;

  /** Starts waiting for `entry` (whose `expiresAt` is no earlier than any waiting one's). */
  add(entry: ClockEntry): void {
    entry.waiting = true;
    this.#queue.push(entry);
    if (this.#timer === undefined) this.#arm(entry.expiresAt);
  }

  /** Stops waiting for `entry` (it ended before its time, or it already expired). */
  remove(entry: ClockEntry): void {
    if (!entry.waiting) return;
    entry.waiting = false;
    this.#dropEnded();
    if (this.#head === this.#queue.length && this.#timer !== undefined) {
      clearTimeout(this.#timer);
      this.#timer = undefined;
    }
  }

  /** Drops the ended entries at the front of the queue, compacting it once half is dropped. */
  #dropEnded(): void {
    const queue = this.#queue;
    while (this.#head < queue.length && !queue[this.#head]!.waiting) {
      queue[this.#head++] = undefined;
    }
    if (this.#head === queue.length) {
      queue.length = 0;
      this.#head = 0;
    } else if (this.#head > 1024 && this.#head * 2 > queue.length) {
      this.#queue = queue.slice(this.#head);
      this.#head = 0;
    }
  }

  #arm(at: number): void {
    this.#timer = setTimeout(() => this.#fire(), Math.max(0, at - performance.now()));
  }

  /** Expires every entry whose time has come, then arms the timer for the new front. */
  #fire(): void {
    this.#timer = undefined;
    const now = performance.now();
    const queue = this.#queue;
    while (this.#head < queue.length) {
      const entry = queue[this.#head]!;
      if (entry.waiting && entry.expiresAt > now) break;
      queue[this.#head++] = undefined;
      if (entry.waiting) {
        entry.waiting = false;
        entry.expire();
      }
    }
    this.#dropEnded();
    if (this.#head < this.#queue.length) this.#arm(this.#queue[this.#head]!.expiresAt);
  }
}
