/**
 * `serve()`'s subscription budgets and lifecycle on the workspace example (SQLite, in-process
 * change feed): auth on connect (a bad token: 4403), a `where` argument,
 * operations per connection and per client, a selection costed as a query's, the WebSocket
 * upgrade's origin checked against CORS, and a graceful shutdown that completes open streams.
 */
import { assert, assertEquals } from "@std/assert";
import { createClient } from "graphql-ws/client";
import { signToken, viewerOf } from "../../examples/workspace/auth.ts";
import { entities } from "../../examples/workspace/entities.ts";
import { workspaceSchema } from "../../examples/workspace/schema.ts";
import { seed } from "../../examples/workspace/seed.ts";
import { encodeGlobalId } from "../../runtime/plan/global_id.ts";
import { openOrm } from "../../server/open_orm.ts";
import { serveForTest } from "../support/serve_for_test.ts";
import { type Subscriber, subscribeSse, subscribeWs } from "../support/subscribers.ts";

const FEED = `subscription { taskChanged { operation id node { title } } }`;

async function start() {
  const orm = await openOrm({ entities, url: "sqlite::memory:" });
  await orm.schema.create();
  await seed(orm.em.fork());
  return await serveForTest({
    orm,
    schema: workspaceSchema(),
    graphiql: false,
    context: async ({ request }) => ({ viewer: await viewerOf(request) }),
    preset: { limits: { maxCost: 500 } },
    subscriptions: { maxSubscriptionsPerConnection: 2, maxSubscriptionsPerClient: 3 },
  });
}

const codeOf = (s: Subscriber) =>
  s.received.at(-1)?.errors?.[0]?.extensions?.code ??
    (s.ended as { extensions?: { code?: string } }[] | null)?.[0]?.extensions?.code;

Deno.test({
  name: "subscription limits, auth on connect, where, origin, graceful shutdown",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const server = await start();
    const ann = `Bearer ${await signToken("ann")}`;
    const subscribers: Subscriber[] = [];
    const track = (s: Subscriber) => (subscribers.push(s), s);
    try {
      // The selection is costed: 1,000 comments per event is over maxCost = 500.
      const costly = track(subscribeWs(
        server.url,
        `subscription { taskChanged { node { comments(first: 1000) { edges { node { body } } } } } }`,
        ann,
      ));
      await costly.until(() => costly.ended !== undefined);
      assertEquals(codeOf(costly), "QUERY_TOO_COMPLEX");

      // Per connection: the third operation on one socket is refused.
      const client = createClient({
        url: server.url.replace(/^http/, "ws"),
        webSocketImpl: WebSocket,
        connectionParams: { authorization: ann },
        retryAttempts: 0,
      });
      const iterate = () => client.iterate({ query: FEED })[Symbol.asyncIterator]();
      const first = iterate();
      const second = iterate();
      const third = iterate();
      const refused = await third.next().then(() => undefined, (errors) => errors);
      assertEquals(refused?.[0]?.extensions?.code, "QUERY_TOO_COMPLEX");
      assert(String(refused?.[0]?.message).includes("maxSubscriptionsPerConnection"));

      // Per client: two on that socket, one SSE stream (`where`), then a fourth is refused.
      const where = track(subscribeSse(
        server.url,
        `subscription { taskChanged(where: { status: DONE }) { operation node { title status } } }`,
        ann,
      ));
      // The `where` argument: a change of a task it does not select is no event.
      const update = (id: number, input: Record<string, unknown>) =>
        fetch(server.url, {
          method: "POST",
          headers: { "content-type": "application/json", authorization: ann },
          body: JSON.stringify({
            query:
              `mutation($id: ID!, $in: UpdateTaskInput!) { updateTask(id: $id, input: $in) { id } }`,
            variables: { id: encodeGlobalId("Task", id), in: input },
          }),
        }).then((r) => r.json());
      let round = 0;
      for (;;) {
        await update(1, { title: `todo ${round}` }); // DOING: not selected
        await update(4, { title: `done ${round}` }); // DONE: selected
        try {
          await where.until(() => where.received.length > 0, 500);
          break;
        } catch {
          if (++round > 40) throw new Error("the where subscription never listened");
        }
      }
      const titles = where.events("taskChanged").map((e) => e.node?.title);
      assert(
        titles.every((t) => String(t).startsWith("done")),
        JSON.stringify(where.received),
      );
      // The `where` stream holds the client's third subscription once it has had an event: a
      // fourth, started only then (not raced against it), is refused.
      const fourth = track(subscribeSse(server.url, FEED, ann));
      await fourth.until(() => fourth.ended !== undefined || fourth.received.length > 0);
      assertEquals(codeOf(fourth), "QUERY_TOO_COMPLEX");

      // Auth on connect: a bad token closes the socket with 4403.
      const forged = track(subscribeWs(server.url, FEED, "Bearer x.y.z"));
      await forged.until(() => forged.ended !== undefined);
      assertEquals((forged.ended as { code?: number }).code, 4403);

      // Origin: a cross-site upgrade is refused (403) before any protocol.
      const socket = await Deno.connect({ hostname: "127.0.0.1", port: server.addr.port });
      await socket.write(new TextEncoder().encode(
        "GET /graphql HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n" +
          "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n" +
          "Sec-WebSocket-Protocol: graphql-transport-ws\r\nOrigin: https://evil.example\r\n\r\n",
      ));
      const buffer = new Uint8Array(64);
      const read = await socket.read(buffer);
      socket.close();
      assert(new TextDecoder().decode(buffer.subarray(0, read ?? 0)).startsWith("HTTP/1.1 403"));

      // Graceful shutdown completes the open streams (WebSocket and SSE).
      const stream = track(subscribeWs(server.url, FEED, ann));
      await update(4, { title: "warm" });
      const result = server.shutdown();
      await where.until(() => where.ended !== undefined);
      assertEquals(where.ended, null);
      await stream.until(() => stream.ended !== undefined);
      const done = await Promise.all(
        [first.next(), second.next()].map((p) =>
          p.then((r) => r.done ? "completed" : "event", () => "failed")
        ),
      );
      assert(done.every((d) => d !== "failed"), String(done));
      assertEquals((await result).abandoned, 0);
      await client.dispose();
    } finally {
      for (const s of subscribers) s.stop();
      await server.shutdown();
    }
  },
});
