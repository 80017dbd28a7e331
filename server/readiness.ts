/**
 * `/ready`: whether the server should get traffic. 200 `{"status":"ready"}` when the database
 * answers `select 1` (a statement of the `/ready` request's own) within the timeout; 503
 * `{"status":"unavailable","reason":...}` when it refuses, fails or is too slow (the driver's own
 * message goes to the server's log, not to the client), unless every connection of the pool was
 * in use meanwhile (`pool_saturation.ts`): then 200 ready, the reason logged, and 503 `{"status":"shutting down"}` once
 * a shutdown has begun, so a load balancer stops sending requests while the in-flight ones
 * finish. `/health` (Yoga's own) stays 200 while the process runs.
 *
 * Not Yoga's `useReadinessCheck`: it tests every request's URL against a `URLPattern`, which cost
 * about 23 µs of CPU per GraphQL request under Deno (half of the whole request of
 * `{ __typename }`); this route compares the path only when the URL contains it.
 *
 * @module
 */
import type { MikroORM } from "@mikro-orm/core";
import { poolSaturation } from "./pool_saturation.ts";

/** Options of {@linkcode readinessRoute}. */
export interface ReadinessOptions {
  /** The path; default `/ready`. */
  endpoint?: string;
  /** How long the database may take to answer, in milliseconds; default 2,000. */
  timeoutMs?: number;
  /** `true` once the server is shutting down. */
  draining: () => boolean;
  /** Told why the database is not ready (the driver's message). */
  onUnavailable?: (reason: string) => void;
  /**
   * Told why the check failed while the pool was saturated (every connection in use), which
   * `/ready` answers 200 ready: a busy pool is not an unreachable database.
   */
  onSaturated?: (reason: string) => void;
}

function json(status: number, body: Record<string, string>): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" },
  });
}

/** Whether `orm`'s database answers within `timeoutMs`; the reason when not. */
export async function databaseReady(
  orm: MikroORM,
  timeoutMs: number,
): Promise<{ ok: true } | { ok: false; reason: string; detail: string }> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<{ ok: false; reason: string; detail: string }>((resolve) => {
    timer = setTimeout(() => {
      const reason = `the database did not answer within ${timeoutMs} ms`;
      resolve({ ok: false, reason, detail: reason });
    }, timeoutMs);
  });
  // A statement rather than orm.checkConnection(), which reports a pool that has not opened a
  // connection yet (MikroORM connects on first use) as not established.
  const check = orm.em.getConnection().execute("select 1").then(
    () => ({ ok: true as const }),
    (error) => ({
      ok: false as const,
      reason: "the database is unreachable",
      detail: String((error as Error)?.message ?? error),
    }),
  );
  try {
    return await Promise.race([check, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The readiness endpoint as a route of the HTTP handler, answered before Yoga sees the request:
 * a readiness probe costs no GraphQL pipeline, and a GraphQL request costs one substring test of
 * its URL (not one more Yoga `onRequest` hook, whose promise plumbing costs more than the test).
 *
 * @returns a function of a request: the endpoint's response (pending while the database check
 *   runs) when the request's path is `endpoint`, else `undefined`
 * @throws Error when `timeoutMs` is not a positive number
 */
export function readinessRoute(
  orm: MikroORM,
  options: ReadinessOptions,
): (request: Request) => Promise<Response> | undefined {
  const timeoutMs = options.timeoutMs ?? 2_000;
  if (!(timeoutMs > 0)) throw new Error(`readiness timeoutMs must be positive, got ${timeoutMs}`);
  const endpoint = options.endpoint ?? "/ready";
  const check = async (): Promise<Response> => {
    if (options.draining()) return json(503, { status: "shutting down" });
    const ready = await databaseReady(orm, timeoutMs);
    if (ready.ok) return json(200, { status: "ready" });
    // A check that waited for a connection while every one was in use says nothing about the
    // database: the server is busy, not broken (an orchestrator would pull a healthy instance).
    const saturated = poolSaturation(orm);
    if (saturated) {
      options.onSaturated?.(`${ready.detail}; the pool is saturated: ${saturated}`);
      return json(200, { status: "ready" });
    }
    options.onUnavailable?.(ready.detail);
    return json(503, { status: "unavailable", reason: ready.reason });
  };
  return (request) =>
    // The substring test first: most requests are not for the endpoint, and parsing is not free.
    request.url.includes(endpoint) && new URL(request.url).pathname === endpoint
      ? check()
      : undefined;
}
