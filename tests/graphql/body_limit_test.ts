/**
 * The `BodyLimit` plugin against GraphQL Yoga's own `maxRequestBodySize`, over HTTP on SQLite:
 * the same answers (status, code, message) for bodies within and beyond the limit, with and
 * without `Content-Length` (a streamed body is sent chunked), and for a malformed
 * `Content-Length` (in-process: an HTTP client cannot send one); and the server behaviour the
 * plugin relies on: `Deno.serve` reads no more than `Content-Length` and refuses a request that
 * also has `Transfer-Encoding`. `serve()`, which runs the same checks (and the `Csrf` plugin's)
 * in its HTTP handler instead of as Yoga hooks (`server/http_checks.ts`), answers the same.
 */
import { assertEquals, assertThrows } from "@std/assert";
import { createYoga } from "graphql-yoga";
import { BodyLimit } from "../../mod.ts";
import { createSchema } from "../../examples/blog/generated/mod.ts";
import { entities } from "../../examples/blog/entities.ts";
import { seed } from "../../examples/blog/seed.ts";
import { openTestOrm } from "../support/databases.ts";
import { startServer } from "../support/server.ts";
import { httpChecks } from "../../server/http_checks.ts";
import { serveForTest } from "../support/serve_for_test.ts";

const LIMIT = 2_000;
const QUERY = `{ users(first: 1) { totalCount } }`;

/** A JSON body of `bytes` bytes (padded with spaces) running `QUERY`. */
function body(bytes: number): string {
  const json = JSON.stringify({ query: QUERY });
  return json.slice(0, -1) + " ".repeat(bytes - json.length) + "}";
}

/** `text` as a stream of 500-byte chunks: fetch sends it without `Content-Length`. */
function chunked(text: string): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  let at = 0;
  return new ReadableStream({
    pull(controller) {
      if (at >= bytes.length) return controller.close();
      controller.enqueue(bytes.slice(at, at += 500));
    },
  });
}

/** Status, error code and message (or data) of a response. */
async function answer(response: Response): Promise<unknown> {
  const json = await response.json();
  return [response.status, json.errors?.[0]?.extensions?.code, json.errors?.[0]?.message ?? json];
}

Deno.test("BodyLimit answers as Yoga's maxRequestBodySize", async (t) => {
  const test = await openTestOrm("sqlite", entities);
  await seed(test.orm.em.fork());
  const schema = createSchema();
  // The test server installs BodyLimit() (2 MB) with maxRequestBodySize: false: the smaller
  // limit added here is the one that answers.
  const ours = startServer(test.orm, schema, [], { preset: { maxBodyBytes: LIMIT } });
  const yogas = startServer(test.orm, schema, [], { maxRequestBodySize: LIMIT });
  const servedOrm = await openTestOrm("sqlite", entities);
  await seed(servedOrm.orm.em.fork());
  const served = await serveForTest({
    orm: servedOrm.orm,
    schema,
    preset: { maxBodyBytes: LIMIT },
  });
  try {
    const post = (url: string, payload: BodyInit) =>
      fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: payload,
      }).then(answer);
    for (const bytes of [LIMIT, LIMIT + 1, 10 * LIMIT]) {
      await t.step(`${bytes} bytes with Content-Length`, async () => {
        const expected = await post(yogas.url, body(bytes));
        assertEquals(await post(ours.url, body(bytes)), expected);
        assertEquals(await post(served.url, body(bytes)), expected);
        assertEquals((expected as unknown[])[0], bytes > LIMIT ? 413 : 200);
      });
      await t.step(`${bytes} bytes chunked`, async () => {
        const expected = await post(yogas.url, chunked(body(bytes)));
        assertEquals(await post(ours.url, chunked(body(bytes))), expected);
        assertEquals(await post(served.url, chunked(body(bytes))), expected);
        assertEquals((expected as unknown[])[0], bytes > LIMIT ? 413 : 200);
      });
    }
    await t.step(
      "Deno.serve reads no more than Content-Length, which BodyLimit trusts",
      async () => {
        const { port } = new URL(ours.url);
        /** The status line of a raw HTTP/1.1 POST with `headers` and `payload`. */
        const status = async (headers: string, payload: string) => {
          const conn = await Deno.connect({ hostname: "127.0.0.1", port: Number(port) });
          await conn.write(new TextEncoder().encode(
            `POST /graphql HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n` +
              `Connection: close\r\n${headers}\r\n${payload}`,
          ));
          const reply = new Uint8Array(256);
          const n = await conn.read(reply);
          conn.close();
          return new TextDecoder().decode(reply.subarray(0, n ?? 0)).split("\r\n")[0];
        };
        const long = body(10 * LIMIT);
        const chunk = `${long.length.toString(16)}\r\n${long}\r\n0\r\n\r\n`;
        // A small Content-Length beside a chunked body is refused by the server itself.
        assertEquals(
          await status("Content-Length: 10\r\nTransfer-Encoding: chunked\r\n", chunk),
          "HTTP/1.1 400 Bad Request",
        );
        assertEquals(
          await status("Transfer-Encoding: chunked\r\nContent-Length: 10\r\n", chunk),
          "HTTP/1.1 400 Bad Request",
        );
        // A body longer than its Content-Length is cut there: ten bytes are no JSON document.
        assertEquals(await status("Content-Length: 10\r\n", long), "HTTP/1.1 400 Bad Request");
        assertEquals(
          await status(`Content-Length: ${long.length}\r\n`, long),
          "HTTP/1.1 413 Payload Too Large",
        );
      },
    );
    await t.step("a malformed Content-Length is refused (400)", async () => {
      const request = () =>
        new Request("http://127.0.0.1/graphql", {
          method: "POST",
          headers: { "content-type": "application/json", "content-length": "1, 2" },
          body: body(100),
        });
      const plugin = createYoga({
        schema,
        maxRequestBodySize: false,
        plugins: [BodyLimit(LIMIT)],
        context: () => ({ em: test.orm.em.fork() }),
        logging: false,
      });
      const yoga = createYoga({
        schema,
        maxRequestBodySize: LIMIT,
        context: () => ({ em: test.orm.em.fork() }),
        logging: false,
      });
      const expected = await answer(await yoga.fetch(request()));
      assertEquals(await answer(await plugin.fetch(request())), expected);
      assertEquals(
        await answer(httpChecks({ maxBodyBytes: LIMIT })(request()) as Response),
        expected,
      );
      assertEquals((expected as unknown[])[0], 400);
    });
    await t.step("serve(): cross-site POSTs refused as the Csrf plugin refuses them", async () => {
      const query = JSON.stringify({ query: QUERY });
      const multipart = () => {
        const form = new FormData();
        form.set("operations", query);
        return form;
      };
      for (
        const [type, payload] of [
          ["application/x-www-form-urlencoded", () => new URLSearchParams({ query: QUERY })],
          ["text/plain", () => query],
          [undefined, multipart],
          ["application/graphql+json; charset=utf-8", () => query],
        ] as const
      ) {
        const send = (url: string) =>
          fetch(url, {
            method: "POST",
            headers: type ? { "content-type": type } : {},
            body: payload(),
          }).then(answer);
        const expected = await send(ours.url);
        assertEquals(await send(served.url), expected, type);
        assertEquals(
          (expected as unknown[])[0],
          type?.startsWith("application/graphql") ? 200 : 415,
        );
      }
    });
  } finally {
    await ours.close();
    await yogas.close();
    await served.shutdown();
    await servedOrm.close();
    await test.close();
  }
});

Deno.test("BodyLimit refuses a limit that is not a positive number", () => {
  assertThrows(() => BodyLimit(0), Error, "maxBytes must be a positive number");
  assertThrows(() => BodyLimit(Number.NaN), Error, "maxBytes must be a positive number");
});
