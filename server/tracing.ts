/**
 * OpenTelemetry tracing for the server helper, opt-in: envelop's `useOpenTelemetry` plugin
 * (`@envelop/opentelemetry`) makes one span per GraphQL operation (`query.Nested`), and every SQL
 * statement the ORM runs while it executes becomes a child span of it (`SELECT post`, kind
 * CLIENT, with its measured start and end). The spans go to the `TracerProvider` you give
 * (`@opentelemetry/sdk-trace-base`'s `BasicTracerProvider` with your exporter); the statements
 * find their operation through OpenTelemetry's context, carried by an `AsyncLocalStorage`
 * context manager that is registered when none is.
 *
 * @module
 */
import type { MikroORM } from "@mikro-orm/core";
import { context, SpanKind, trace, type TracerProvider } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { useOpenTelemetry } from "@envelop/opentelemetry";
import type { Plugin } from "graphql-yoga";
import { observeStatements, type StatementEvent } from "./orm_statements.ts";

/** Options of the server helper's `tracing`. */
export interface TracingOptions {
  /** Where the spans go: a provider with your exporter and span processor. */
  tracerProvider: TracerProvider;
  /**
   * Record each statement's SQL text as `db.statement`; default `false`. The runtime's reads
   * carry placeholders (their values are bound parameters), but MikroORM inlines the values of
   * its own statements (mutations), so the text holds user data (names, e-mail addresses): turn
   * it on only where the traces may hold that.
   */
  statementText?: boolean;
  /** The tracer's name; default `mikrogql`. */
  serviceName?: string;
}

/** `SELECT post` for a statement: its verb and first table, or the verb alone. */
export function statementSpanName(sql: string): string {
  const text = sql.replace(/^\s*(?:\/\*[\s\S]*?\*\/\s*)*/, "");
  const verb = /^\w+/.exec(text)?.[0]?.toUpperCase() ?? "SQL";
  const table = /\b(?:from|into|update|join)\s+[`"]?([\w.]+)/i.exec(text)?.[1];
  return table ? `${verb} ${table}` : verb;
}

/**
 * The tracing plugin, and the statement spans of `orm` (until the returned `stop` is called).
 *
 * @param database `db.system` of the statement spans (`sqlite`, `postgresql`, `mariadb`)
 */
export function tracing(
  orm: MikroORM,
  database: string,
  options: TracingOptions,
): { plugin: Plugin; stop: () => void } {
  // No-op when the application registered its own context manager already.
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  const tracer = options.tracerProvider.getTracer(options.serviceName ?? "mikrogql");
  const stop = observeStatements(orm, (event: StatementEvent) => {
    const parent = context.active();
    if (!trace.getSpan(parent)) return; // a statement outside any traced operation
    const end = Date.now();
    const span = tracer.startSpan(statementSpanName(event.sql), {
      kind: SpanKind.CLIENT,
      startTime: end - event.tookMs,
      attributes: {
        "db.system": database,
        "db.operation": statementSpanName(event.sql).split(" ")[0],
        ...(options.statementText ? { "db.statement": event.sql } : {}),
        ...(event.connectionType ? { "db.mikro_orm.connection": event.connectionType } : {}),
      },
    }, parent);
    if (event.failed) span.setStatus({ code: 2 /* ERROR */ });
    span.end(end);
  });
  const plugin = useOpenTelemetry(
    { resolvers: false, variables: false, result: false, document: true },
    options.tracerProvider,
    SpanKind.SERVER,
    {},
    options.serviceName ?? "mikrogql",
  ) as unknown as Plugin;
  return { plugin, stop };
}
