/**
 * A TCP proxy on 127.0.0.1 that delays every chunk by a fixed time in each direction, to measure
 * the servers as if the database sat across a network instead of on loopback. Order is kept per
 * direction. Timers are coarse: any delay > 0 gives a measured round trip of about 4.5 ms on this
 * machine (0.25 ms without a delay), so use it for databases a few milliseconds away and read the
 * round trip the benchmark prints, not the delay asked for.
 *
 * @module
 */
import { delay } from "@std/async/delay";

/** A running proxy. */
export interface LatencyProxy {
  /** The local port to connect to instead of the target's. */
  port: number;
  /** Stops accepting and closes every open connection. */
  close(): void;
}

async function pipe(from: Deno.Conn, to: Deno.Conn, delayMs: number): Promise<void> {
  let queue = Promise.resolve();
  const buffer = new Uint8Array(64 * 1024);
  try {
    for (;;) {
      const n = await from.read(buffer);
      if (n === null) break;
      const chunk = buffer.slice(0, n);
      // The timer starts here, in the I/O callback: started inside the write chain it would be a
      // nested timer, which the runtime clamps to 4 ms.
      const due = delayMs > 0 ? delay(delayMs) : undefined;
      queue = Promise.all([queue, due]).then(() => to.write(chunk)).then(() => {});
    }
    await queue;
  } catch {
    // a side closed: the other side is closed below
  } finally {
    try {
      await to.closeWrite();
    } catch {
      // already closed
    }
  }
}

/**
 * Proxies `127.0.0.1:<port>` to `target`, delaying each direction by `delayMs`.
 */
export function startLatencyProxy(
  target: { hostname: string; port: number },
  delayMs: number,
): LatencyProxy {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const open = new Set<Deno.Conn>();
  (async () => {
    for await (const client of listener) {
      const server = await Deno.connect(target);
      open.add(client).add(server);
      Promise.all([pipe(client, server, delayMs), pipe(server, client, delayMs)]).finally(() => {
        for (const conn of [client, server]) {
          open.delete(conn);
          try {
            conn.close();
          } catch {
            // already closed
          }
        }
      });
    }
  })().catch(() => {});
  return {
    port: (listener.addr as Deno.NetAddr).port,
    close: () => {
      listener.close();
      for (const conn of open) {
        try {
          conn.close();
        } catch {
          // already closed
        }
      }
    },
  };
}
