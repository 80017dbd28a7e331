/**
 * Prometheus metrics for the server helper, opt-in: GraphQL Yoga's `usePrometheus` plugin
 * (`@graphql-yoga/plugin-prometheus`, over `prom-client`) serves them at `/metrics` (operation
 * counts and durations, parse/validate/execute phases, errors by phase, HTTP durations), and a
 * counter of the SQL statements the ORM runs, `mikrogql_sql_statements_total`, by operation name
 * and type.
 *
 * @module
 */
import type { MikroORM } from "@mikro-orm/core";
import type { Plugin } from "graphql-yoga";
import { usePrometheus } from "@graphql-yoga/plugin-prometheus";
import { Counter, Registry } from "prom-client";
import { observeStatements } from "./orm_statements.ts";
import { requestScope } from "./request_scope.ts";

/** Options of the server helper's `metrics`. */
export interface MetricsOptions {
  /** The path; default `/metrics`. Keep it off the public internet (a proxy rule). */
  endpoint?: string;
  /** The `prom-client` registry; default a new one (so two servers in a process do not clash). */
  registry?: Registry;
}

/** The metrics plugin, and the statement counter of `orm` (until `stop` is called). */
export function metrics(
  orm: MikroORM,
  options: MetricsOptions,
): { plugin: Plugin; stop: () => void; registry: Registry } {
  const registry = options.registry ?? new Registry();
  const statements = new Counter({
    name: "mikrogql_sql_statements_total",
    help: "SQL statements run, by the GraphQL operation they were run for",
    labelNames: ["operationName", "operationType"],
    registers: [registry],
  });
  const stop = observeStatements(orm, () => {
    const scope = requestScope.getStore();
    statements.inc({
      operationName: scope?.operationName ?? "",
      operationType: scope?.operationType ?? "",
    });
  });
  const plugin = usePrometheus({
    endpoint: options.endpoint ?? "/metrics",
    registry,
    metrics: {
      graphql_envelop_request: true,
      graphql_envelop_request_duration: true,
      graphql_envelop_phase_parse: true,
      graphql_envelop_phase_validate: true,
      graphql_envelop_phase_execute: true,
      graphql_envelop_error_result: true,
      graphql_yoga_http_duration: true,
    },
  });
  return { plugin, stop, registry };
}
