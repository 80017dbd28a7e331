/**
 * The package's `serve` over real HTTP: `/ready` on PostgreSQL through a TCP proxy that is cut
 * and restored (the shared server is never stopped), CORS off by default and an allow-list,
 * GraphiQL and introspection under `NODE_ENV=production`, a client that goes away before its
 * answer (logged as 499, nothing printed), and the request log's entries (the
 * statement count against MikroORM's own log).
 */
import { assert, assertEquals, assertStringIncludes } from "@std/assert";
import { entities } from "../../examples/blog/entities.ts";
import { seed } from "../../examples/blog/seed.ts";
import { openOrm } from "../../server/open_orm.ts";
import type { MikrogqlServer } from "../../server/serve.ts";
import type { RequestLogEntry } from "../../server/request_log.ts";
import { dialects, openTestOrm } from "../support/databases.ts";
import { startTcpProxy } from "../support/tcp_proxy.ts";
import { underProduction } from "../support/under_production.ts";
import { serveForTest } from "../support/serve_for_test.ts";

const start = serveForTest;

async function post(
  url: string,
  query: string,
  headers: Record<string, string> = {},
): Promise<Response> {
  return await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify({ query }),
  });
}

/** Polls `/ready` until it answers `status`; its last body. */
async function readyBecomes(server: MikrogqlServer, status: number): Promise<string> {
  const ready = new URL("/ready", server.url).href;
  const end = Date.now() + 30_000;
  for (;;) {
    const response = await fetch(ready);
    const body = await response.text();
    if (response.status === status) return body;
    if (Date.now() > end) throw new Error(`/ready stayed ${response.status} (${body})`);
  }
}

if (dialects(["postgresql"]).length > 0) {
  Deno.test({
    name: "/ready fails while the database is down and recovers when it is back (postgresql)",
    sanitizeOps: false,
    sanitizeResources: false,
    fn: async () => {
      const db = await openTestOrm("postgresql", entities);
      const proxy = startTcpProxy({ hostname: "127.0.0.1", port: 5432 });
      const url = new URL(db.db.url);
      url.port = String(proxy.port);
      const server = await start({
        orm: await openOrm({ entities, url: url.href, connectionWaitMs: 1_000 }),
        readyTimeoutMs: 1_000,
        log: () => {},
      });
      try {
        assertEquals(JSON.parse(await readyBecomes(server, 200)), { status: "ready" });
        assertEquals((await fetch(new URL("/health", server.url))).status, 200);
        // The path decides, not a substring of the URL: a query string is not the endpoint.
        const withQuery = await fetch(new URL("/ready?probe=1", server.url));
        assertEquals(await withQuery.json(), { status: "ready" });
        const elsewhere = await fetch(
          new URL(`/graphql?query=${encodeURIComponent("{ __typename }")}&next=/ready`, server.url),
          { headers: { accept: "application/json" } },
        );
        assertEquals(await elsewhere.json(), { data: { __typename: "Query" } });
        assertEquals((await fetch(new URL("/ready/x", server.url))).status, 404);
        proxy.cut();
        const down = JSON.parse(await readyBecomes(server, 503));
        assertEquals(down, { status: "unavailable", reason: "the database is unreachable" });
        // Liveness is not readiness: the process is up.
        assertEquals((await fetch(new URL("/health", server.url))).status, 200);
        proxy.restore();
        assertEquals(JSON.parse(await readyBecomes(server, 200)), { status: "ready" });
        const answer = await (await post(server.url, "{ users(first: 1) { totalCount } }")).json();
        assertEquals(answer.errors, undefined);
      } finally {
        await server.shutdown();
        proxy.close();
        await db.close();
      }
    },
  });
}

Deno.test({
  name:
    "CORS: none by default (a credentialed cross-origin request gets no allowance); an allow-list",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    const closed = await start({ orm: await openOrm({ entities }) });
    const open = await start({
      orm: await openOrm({ entities }),
      cors: { origins: ["https://app.example", "https://admin.example"], credentials: true },
    });
    try {
      for (const server of [closed, open]) {
        const response = await post(server.url, "{ __typename }", {
          origin: "https://evil.example",
          cookie: "session=1",
        });
        assertEquals(response.status, 200);
        await response.body?.cancel();
        const headers = [...response.headers.keys()].filter((k) => k.startsWith("access-control"));
        assertEquals(headers, [], `${server.url} allowed evil.example`);
        const preflight = await fetch(server.url, {
          method: "OPTIONS",
          headers: {
            origin: "https://evil.example",
            "access-control-request-method": "POST",
            "access-control-request-headers": "content-type",
          },
        });
        await preflight.body?.cancel();
        assertEquals(preflight.headers.get("access-control-allow-origin"), null);
      }
      const listed = await post(open.url, "{ __typename }", { origin: "https://admin.example" });
      await listed.body?.cancel();
      assertEquals(listed.headers.get("access-control-allow-origin"), "https://admin.example");
      assertEquals(listed.headers.get("access-control-allow-credentials"), "true");
      assertStringIncludes(listed.headers.get("vary") ?? "", "Origin");
      const preflight = await fetch(open.url, {
        method: "OPTIONS",
        headers: { origin: "https://app.example", "access-control-request-method": "POST" },
      });
      await preflight.body?.cancel();
      assertEquals(preflight.headers.get("access-control-allow-origin"), "https://app.example");
      assertStringIncludes(preflight.headers.get("access-control-allow-methods") ?? "", "POST");
    } finally {
      await closed.shutdown();
      await open.shutdown();
    }
  },
});

/**
 * `serve`'s defaults in the environment's `NODE_ENV` (run under production by
 * `underProduction`): no GraphiQL and no introspection unless asked for.
 */
export async function productionDefaults(): Promise<void> {
  const servers: MikrogqlServer[] = [];
  try {
    const locked = await start({ orm: await openOrm({ entities }) });
    servers.push(locked);
    const asked = await start({
      orm: await openOrm({ entities }),
      graphiql: true,
      introspection: true,
    });
    servers.push(asked);
    const introspect = "{ __schema { queryType { name } } }";
    const page = (url: string) => fetch(url, { headers: { accept: "text/html" } });
    const refused = await (await post(locked.url, introspect)).json();
    assertEquals(refused.data, undefined);
    assertStringIncludes(refused.errors[0].message, "introspection");
    const typename = await (await post(locked.url, "{ __typename }")).json();
    assertEquals(typename.data, { __typename: "Query" });
    const noPage = await page(locked.url);
    assert(!(await noPage.text()).includes("graphiql"), "GraphiQL served in production");
    const allowed = await (await post(asked.url, introspect)).json();
    assertEquals(allowed.data.__schema.queryType.name, "Query");
    const withPage = await page(asked.url);
    assertEquals(withPage.status, 200);
    assertStringIncludes(await withPage.text(), "graphiql");
  } finally {
    for (const s of servers) await s.shutdown();
  }
}

Deno.test("NODE_ENV=production: no GraphiQL, no introspection, unless asked for", async () => {
  await underProduction(import.meta.url, "productionDefaults");
});

Deno.test({
  name: "a client that goes away before its answer: logged as 499, no error printed",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    const orm = await openOrm({ entities });
    await orm.schema.create();
    const arrived = Promise.withResolvers<void>();
    const gate = Promise.withResolvers<void>();
    const entries: RequestLogEntry[] = [];
    const logged = Promise.withResolvers<void>();
    const printed: unknown[] = [];
    const consoleError = console.error;
    console.error = (...args: unknown[]) => printed.push(args);
    const server = await start({
      orm,
      context: async () => {
        arrived.resolve();
        await gate.promise;
        return {};
      },
      log: (entry) => {
        entries.push(entry);
        logged.resolve();
      },
    });
    try {
      const client = new AbortController();
      const answer = fetch(server.url, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ query: "{ __typename }" }),
        signal: client.signal,
      }).catch((error) => error);
      await arrived.promise;
      client.abort();
      assertEquals((await answer).name, "AbortError");
      await logged.promise;
      assertEquals(entries.map((e) => e.status), [499]);
      assertEquals(printed, []);
    } finally {
      gate.resolve();
      console.error = consoleError;
      await server.shutdown();
    }
  },
});

Deno.test({
  name: "request log: one entry per request with operation, status, duration and statements",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    const sql: string[] = [];
    const orm = await openOrm({ entities, onQuery: (s) => sql.push(s) });
    await orm.schema.create();
    await seed(orm.em.fork());
    const entries: RequestLogEntry[] = [];
    const server = await start({ orm, log: (e) => entries.push(e) });
    try {
      sql.length = 0;
      const nested = await post(
        server.url,
        "query Nested { users(first: 3) { edges { node { posts(first: 2) { totalCount edges { node { comments(first: 1) { edges { node { text } } } } } } } } } }",
      );
      await nested.body?.cancel();
      const statements = sql.length;
      assert(statements >= 3, `${statements} statements`);
      const tooDeep = await post(server.url, `{ users(first: 1, after: "nope") { totalCount } }`);
      await tooDeep.body?.cancel();
      await (await fetch(new URL("/health", server.url))).body?.cancel();
      // A GET's query string holds the operation: the logged path leaves it out.
      const get = new URL(server.url);
      get.searchParams.set("query", "query Probe { __typename }");
      get.hash = "#x";
      await (await fetch(get)).body?.cancel();
      assertEquals(entries.length, 4);
      const [first, second, third, fourth] = entries;
      assertEquals(
        { ...first, time: "", durationMs: 0 },
        {
          time: "",
          method: "POST",
          path: "/graphql",
          status: 200,
          operation: "Nested",
          operationType: "query",
          durationMs: 0,
          statements,
        },
      );
      assert(first.durationMs > 0);
      assertEquals(second.errors, ["INVALID_CURSOR"]);
      assertEquals(second.operation, undefined);
      assertEquals(second.operationType, "query");
      assertEquals(second.statements, 0);
      assertEquals({ path: third.path, status: third.status }, { path: "/health", status: 200 });
      assertEquals(
        { method: fourth.method, path: fourth.path, status: fourth.status, op: fourth.operation },
        { method: "GET", path: "/graphql", status: 200, op: "Probe" },
      );
    } finally {
      await server.shutdown();
    }
  },
});
