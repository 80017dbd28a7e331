/**
 * `serve()`'s connection timeouts over real sockets (`Deno.connect`): 200 connections that
 * trickle their headers, 200 that trickle a body and 200 idle keep-alive connections are each
 * closed by the server (header and body ones answered 408 first), while an ordinary client is
 * answered meanwhile; a WebSocket outlives the idle timeout. No timing is asserted beyond "closed within a generous bound"; the
 * timeouts are short so the test is quick: idle 1 s, headers and body 3 s (they end when the
 * handler is called and when Yoga has parsed the body: on a machine loaded 12 times over, with 200
 * trickling connections, the ordinary client's request once waited over 1 s for its handler, and
 * was answered 408). The body timeout reads no request's `body` (which makes Deno read the JSON
 * through a stream built for it).
 */
import { assert, assertEquals, assertStringIncludes } from "@std/assert";
import { entities } from "../../examples/blog/entities.ts";
import { guardConnections, resolveTimeouts } from "../../server/connection_timeouts.ts";
import { openTestOrm } from "../support/databases.ts";
import { serveForTest } from "../support/serve_for_test.ts";

const CONNECTIONS = 200;
/** How long a connection may stay open before the test gives up on the server closing it. */
const BOUND_MS = 60_000;
const encoder = new TextEncoder();

/**
 * Opens a connection, sends `first`, then `trickle` every 200 ms until the server closes it;
 * resolves with what the server sent, or rejects after {@linkcode BOUND_MS}.
 */
async function heldOpen(port: number, first: string, trickle?: string): Promise<string> {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port });
  await conn.write(encoder.encode(first));
  const timer = trickle === undefined ? undefined : setInterval(() => {
    conn.write(encoder.encode(trickle)).catch(() => {});
  }, 200);
  let bounded = false;
  const bound = setTimeout(() => {
    bounded = true;
    conn.close();
  }, BOUND_MS);
  let received = "";
  try {
    const buffer = new Uint8Array(4096);
    for (;;) {
      const read = await conn.read(buffer);
      if (read === null) break;
      received += new TextDecoder().decode(buffer.subarray(0, read));
    }
  } catch {
    /* reset by the server: closed too (or by the bound, below) */
  } finally {
    clearInterval(timer);
    clearTimeout(bound);
  }
  if (bounded) throw new Error(`still open after ${BOUND_MS} ms`);
  try {
    conn.close();
  } catch { /* closed */ }
  return received;
}

/**
 * Answers of an ordinary client while `held` are pending: at least one, all 200. A new connection
 * each (no pool): a pooled connection the idle timeout closes as it is reused fails the request,
 * as with any server that closes idle connections (clients retry or keep their idle time shorter).
 */
async function answeredMeanwhile(url: string, held: Promise<unknown>): Promise<number> {
  let done = false;
  held.then(() => done = true, () => done = true);
  let answered = 0;
  using client = Deno.createHttpClient({ poolMaxIdlePerHost: 0 });
  while (!done || answered === 0) {
    const sent = performance.now();
    const response = await fetch(url, {
      client,
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ query: "{ __typename }" }),
    });
    assertEquals(
      response.status,
      200,
      `${await response.clone().text()} after ${Math.round(performance.now() - sent)} ms`,
    );
    assertEquals(await response.json(), { data: { __typename: "Query" } });
    answered++;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return answered;
}

Deno.test({
  name: "serve closes connections that trickle headers or a body, or sit idle",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async (t) => {
    const test = await openTestOrm("sqlite", entities);
    const server = await serveForTest({
      orm: test.orm,
      timeouts: { headers: 3_000, body: 3_000, idle: 1_000 },
    });
    const { port } = server.addr;
    const cases = [
      { name: "headers", first: "POST /graphql HTTP/1.1\r\nHost: x\r\n", trickle: "X-A: b\r\n" },
      {
        name: "body",
        first: "POST /graphql HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n" +
          "Content-Length: 100000\r\n\r\n{",
        trickle: " ",
      },
      { name: "idle", first: "GET /health HTTP/1.1\r\nHost: x\r\n\r\n" },
      { name: "silent", first: "" },
    ];
    try {
      await t.step("a WebSocket outlives the idle timeout", async () => {
        const socket = new WebSocket(server.url.replace("http:", "ws:"), "graphql-transport-ws");
        const messages: string[] = [];
        const closed = Promise.withResolvers<never>();
        socket.onclose = () => closed.reject(new Error(`closed after ${messages.join(", ")}`));
        closed.promise.catch(() => {});
        const next = () =>
          Promise.race([
            new Promise<string>((resolve) => socket.onmessage = (e) => resolve(String(e.data))),
            closed.promise,
          ]);
        await new Promise((resolve) => socket.onopen = resolve);
        socket.send(JSON.stringify({ type: "connection_init" }));
        messages.push(await next());
        // Three idle timeouts without a byte either way.
        await new Promise((resolve) => setTimeout(resolve, 3_000));
        socket.send(JSON.stringify({ type: "ping" }));
        messages.push(await next());
        assertEquals(messages.map((m) => JSON.parse(m).type), ["connection_ack", "pong"]);
        const ended = new Promise((resolve) => socket.onclose = resolve);
        socket.close();
        await ended;
      });
      for (const { name, first, trickle } of cases) {
        await t.step(`${CONNECTIONS} connections: ${name}`, async () => {
          const held = Promise.all(
            Array.from({ length: CONNECTIONS }, () => heldOpen(port, first, trickle)),
          );
          const answered = await answeredMeanwhile(server.url, held);
          const received = await held;
          console.log(`${name}: ${CONNECTIONS} closed; ${answered} requests answered meanwhile`);
          for (const text of received) {
            if (name === "idle") assert(text.startsWith("HTTP/1.1 200"), text);
            else assertStringIncludes(text, "HTTP/1.1 408", name);
          }
          if (name === "body") assertStringIncludes(received[0], "REQUEST_TIMEOUT");
        });
      }
    } finally {
      await server.shutdown();
      await test.close();
    }
  },
});

Deno.test("serve's timeouts: defaults, false, and refused values", () => {
  assertEquals(resolveTimeouts(undefined), { headers: 0, body: 30_000, idle: 0 });
  assertEquals(resolveTimeouts({ idle: 5_000 }), { headers: 0, body: 30_000, idle: 5_000 });
  assertEquals(resolveTimeouts(false), { headers: 0, body: 0, idle: 0 });
  for (const bad of [-1, Number.NaN, Infinity, "5" as unknown as number]) {
    let thrown = false;
    try {
      resolveTimeouts({ headers: bad });
    } catch {
      thrown = true;
    }
    assert(thrown, String(bad));
  }
});

Deno.test({
  name:
    "the default body timeout never reads request.body (Deno then reads the JSON through a stream)",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    const db = await openTestOrm("sqlite", entities);
    const body = Object.getOwnPropertyDescriptor(Request.prototype, "body")!;
    let reads = 0;
    Object.defineProperty(Request.prototype, "body", {
      ...body,
      get() {
        reads++;
        return body.get!.call(this);
      },
    });
    const server = await serveForTest({ orm: db.orm });
    try {
      for (let i = 0; i < 3; i++) {
        const response = await fetch(server.url, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ query: "{ __typename }" }),
        });
        assertEquals(await response.json(), { data: { __typename: "Query" } });
      }
      // The client's fetch reads its own request's body to send it: count the server's only.
      reads = 0;
      const conn = await Deno.connect({ hostname: "127.0.0.1", port: server.addr.port });
      const json = JSON.stringify({ query: "{ __typename }" });
      await conn.write(encoder.encode(
        `POST /graphql HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${json.length}\r\nConnection: close\r\n\r\n${json}`,
      ));
      let answer = "";
      const buffer = new Uint8Array(4096);
      for (let n = await conn.read(buffer); n !== null; n = await conn.read(buffer)) {
        answer += new TextDecoder().decode(buffer.subarray(0, n));
      }
      conn.close();
      assertStringIncludes(answer, `{"data":{"__typename":"Query"}}`);
      assertEquals(reads, 0);
    } finally {
      Object.defineProperty(Request.prototype, "body", body);
      await server.shutdown();
      await db.db.drop();
    }
  },
});

Deno.test("the relay: an answer that reaches it after the idle time is relayed, then the idle time runs", async () => {
  // On a loaded machine a request's `completed` can settle before its answer has passed through
  // the relay; the idle timeout once closed such a connection unanswered ("connection closed
  // before message completed"). Here the HTTP server reports the request ended, then answers
  // three idle times later.
  const upstream = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const guard = guardConnections({ hostname: "127.0.0.1", port: 0 }, {
    headers: 0,
    body: 0,
    idle: 200,
  });
  guard.start(upstream.addr);
  const client = await Deno.connect({ hostname: "127.0.0.1", port: guard.addr.port });
  try {
    await client.write(encoder.encode("GET / HTTP/1.1\r\nHost: x\r\n\r\n"));
    const server = await upstream.accept();
    await server.read(new Uint8Array(1024));
    guard.connectionOf(server.remoteAddr)!.requestStarted(Promise.resolve());
    await new Promise((resolve) => setTimeout(resolve, 600));
    await server.write(encoder.encode("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"));
    let received = "";
    const buffer = new Uint8Array(1024);
    for (let read = await client.read(buffer); read !== null; read = await client.read(buffer)) {
      received += new TextDecoder().decode(buffer.subarray(0, read));
    }
    // answered, and then closed by the idle timeout (the loop above ended)
    assertStringIncludes(received, "HTTP/1.1 200 OK");
    assert(received.endsWith("ok"), received);
    server.close();
  } finally {
    try {
      client.close();
    } catch { /* closed by the relay */ }
    guard.close();
    upstream.close();
  }
});
