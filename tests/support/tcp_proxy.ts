/**
 * A TCP proxy on 127.0.0.1 that a test can cut and restore, to play a database that goes away
 * and comes back without touching the shared database server.
 *
 * @module
 */

/** A running proxy. */
export interface TcpProxy {
  /** The local port to connect to instead of the target's. */
  port: number;
  /** Closes every open connection and refuses new ones until {@linkcode TcpProxy.restore}. */
  cut(): void;
  /** Forwards new connections again. */
  restore(): void;
  /** Stops listening and closes every connection. */
  close(): void;
}

/** Proxies `127.0.0.1:<port>` to `target`. */
export function startTcpProxy(target: { hostname: string; port: number }): TcpProxy {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const open = new Set<Deno.Conn>();
  let down = false;
  const closeAll = () => {
    for (const conn of open) {
      try {
        conn.close();
      } catch {
        // already closed
      }
    }
    open.clear();
  };
  (async () => {
    for await (const client of listener) {
      if (down) {
        client.close();
        continue;
      }
      let server: Deno.Conn;
      try {
        server = await Deno.connect(target);
      } catch {
        client.close();
        continue;
      }
      open.add(client).add(server);
      const end = () => {
        for (const conn of [client, server]) {
          if (!open.delete(conn)) continue;
          try {
            conn.close();
          } catch {
            // already closed
          }
        }
      };
      client.readable.pipeTo(server.writable, { preventClose: true }).catch(() => {}).finally(end);
      server.readable.pipeTo(client.writable, { preventClose: true }).catch(() => {}).finally(end);
    }
  })().catch(() => {});
  return {
    port: (listener.addr as Deno.NetAddr).port,
    cut: () => {
      down = true;
      closeAll();
    },
    restore: () => {
      down = false;
    },
    close: () => {
      down = true;
      listener.close();
      closeAll();
    },
  };
}
