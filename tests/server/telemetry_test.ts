/**
 * The server helper's opt-in telemetry over real HTTP: OpenTelemetry spans of a nested query
 * (the operation, and one child span per SQL statement, as many as MikroORM's own statement
 * log shows) reach an in-process exporter; Prometheus metrics are scraped from `/metrics` after
 * queries (operation count, SQL statements by operation).
 */
import { assert, assertEquals, assertStringIncludes } from "@std/assert";
import { InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { BasicTracerProvider } from "@opentelemetry/sdk-trace-base";
import { entities } from "../../examples/blog/entities.ts";
import { seed } from "../../examples/blog/seed.ts";
import { openOrm } from "../../server/open_orm.ts";
import { serveForTest } from "../support/serve_for_test.ts";

const NESTED = `query Nested { users(first: 2) { edges { node { name
  posts(first: 2) { totalCount edges { node { title comments(first: 1) { edges { node { text } } } } } }
} } } }`;

async function seeded(sql: string[]) {
  const orm = await openOrm({ entities, onQuery: (s) => sql.push(s) });
  await orm.schema.create();
  await seed(orm.em.fork());
  return orm;
}

async function post(url: string, query: string) {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ query }),
  });
  const body = await response.json();
  assertEquals(body.errors, undefined);
  return body;
}

Deno.test({
  name: "tracing: a nested query's operation span and one child span per SQL statement",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    const sql: string[] = [];
    const exporter = new InMemorySpanExporter();
    const tracerProvider = new BasicTracerProvider({
      spanProcessors: [new SimpleSpanProcessor(exporter)],
    });
    const server = await serveForTest({ orm: await seeded(sql), tracing: { tracerProvider } });
    try {
      sql.length = 0;
      await post(server.url, NESTED);
      const spans = exporter.getFinishedSpans();
      const operation = spans.find((s) => s.name === "query.Nested");
      assert(operation, `an operation span: ${spans.map((s) => s.name).join(", ")}`);
      const statements = spans.filter((s) =>
        s.parentSpanId === operation.spanContext().spanId && s.attributes["db.system"]
      );
      assertEquals(statements.length, sql.length, `statements: ${sql.join("\n")}`);
      assert(sql.length >= 3);
      for (const span of statements) {
        assertEquals(span.spanContext().traceId, operation.spanContext().traceId);
        assertEquals(span.attributes["db.system"], "sqlite");
        assertEquals(span.attributes["db.statement"], undefined, "no SQL text unless asked");
        assert(/^SELECT \w+/.test(span.name), span.name);
      }
      assertEquals(
        statements.map((s) => s.name).sort(),
        // the posts' page counts their totalCount in its statement
        ["SELECT comment", "SELECT post", "SELECT user"],
      );
    } finally {
      await server.shutdown();
    }
  },
});

Deno.test({
  name: "metrics: /metrics is scraped with operation counts and SQL statements by operation",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    const sql: string[] = [];
    const server = await serveForTest({ orm: await seeded(sql), metrics: true });
    try {
      sql.length = 0;
      await post(server.url, NESTED);
      await post(server.url, NESTED);
      const statements = sql.length;
      const scrape = await fetch(new URL("/metrics", server.url));
      assertEquals(scrape.status, 200);
      assertStringIncludes(scrape.headers.get("content-type") ?? "", "text/plain");
      const text = await scrape.text();
      assertStringIncludes(
        text,
        `mikrogql_sql_statements_total{operationName="Nested",operationType="query"} ${statements}`,
      );
      assertStringIncludes(
        text,
        'graphql_envelop_request{operationName="Nested",operationType="query"} 2',
      );
      assertStringIncludes(text, "graphql_envelop_phase_execute_bucket");
    } finally {
      await server.shutdown();
    }
  },
});
