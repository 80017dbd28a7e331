/**
 * Read-your-writes, a `Request` in and a `Response` out: a writer's response carries the header
 * and a `Set-Cookie` (read back with `@std/http`'s cookie parser, as a browser's cookie jar
 * would keep it) whose value pins the client's later reads to the primary, as a cookie or as the
 * header; a value from the past, or one further ahead than the configured window (a client
 * stretching it), pins nothing.
 */
import { assert, assertEquals, assertThrows } from "@std/assert";
import { getSetCookies } from "@std/http/cookie";
import {
  checkReadYourWrites,
  pinRecentWriter,
  READ_PRIMARY_UNTIL,
  stampWriter,
  wrote,
} from "../../../runtime/plugins/read_your_writes.ts";

const OPTIONS = { seconds: 5 };

function readFrom(headers: HeadersInit, options = OPTIONS): string | undefined {
  const ctx: { request: Request; readFrom?: "replica" | "primary" } = {
    request: new Request("http://127.0.0.1/graphql", { headers }),
  };
  pinRecentWriter(ctx, options);
  return ctx.readFrom;
}

Deno.test("read-your-writes: a writer's response is stamped; a reader's is not", () => {
  const writer = new Request("http://127.0.0.1/graphql", { method: "POST" });
  const reader = new Request("http://127.0.0.1/graphql", { method: "POST" });
  wrote({ request: writer });
  const before = Date.now();
  const stamped = new Response("{}");
  stampWriter(writer, stamped, OPTIONS);
  const untouched = new Response("{}");
  stampWriter(reader, untouched, OPTIONS);
  assertEquals([...untouched.headers], [["content-type", "text/plain;charset=UTF-8"]]);

  const until = Number(stamped.headers.get(READ_PRIMARY_UNTIL));
  assert(until >= before + 5_000 && until <= Date.now() + 5_000, String(until));
  const [cookie] = getSetCookies(stamped.headers);
  assertEquals(cookie.name, "mikrogql-read-primary-until");
  assertEquals(cookie.value, String(until));
  assertEquals([cookie.maxAge, cookie.path, cookie.httpOnly, cookie.sameSite], [
    5,
    "/",
    true,
    "Lax",
  ]);
  // The client sends it back: as a cookie, or as the header.
  assertEquals(readFrom({ cookie: `${cookie.name}=${cookie.value}; other=1` }), "primary");
  assertEquals(readFrom({ [READ_PRIMARY_UNTIL]: String(until) }), "primary");
  assertEquals(readFrom({}), undefined);
});

Deno.test("read-your-writes: an expired or stretched stamp pins nothing", () => {
  const now = Date.now();
  assertEquals(readFrom({ [READ_PRIMARY_UNTIL]: String(now - 1) }), undefined);
  assertEquals(readFrom({ [READ_PRIMARY_UNTIL]: String(now + 60_000) }), undefined); // > 5 s ahead
  assertEquals(readFrom({ [READ_PRIMARY_UNTIL]: "soon" }), undefined);
  assertEquals(readFrom({ cookie: `${READ_PRIMARY_UNTIL}=${now + 4_000}` }), "primary");
  // A name of one's own
  const named = { seconds: 2, name: "rw" };
  assertEquals(readFrom({ rw: String(now + 1_000) }, named), "primary");
  assertEquals(readFrom({ [READ_PRIMARY_UNTIL]: String(now + 1_000) }, named), undefined);
  const response = new Response("{}");
  const writer = new Request("http://127.0.0.1/graphql");
  wrote({ request: writer });
  stampWriter(writer, response, named);
  assertEquals(getSetCookies(response.headers).map((c) => [c.name, c.maxAge]), [["rw", 2]]);
});

Deno.test("read-your-writes: seconds must be a positive, finite number", () => {
  checkReadYourWrites({ seconds: 0.5 });
  for (const seconds of [0, -1, Infinity, NaN]) {
    assertThrows(
      () => checkReadYourWrites({ seconds }),
      Error,
      "readYourWrites.seconds must be a positive number of seconds",
    );
  }
});
