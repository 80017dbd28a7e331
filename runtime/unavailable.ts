/**
 * Errors of an unreachable database as GraphQL errors with code `DATABASE_UNAVAILABLE`: a
 * refused or dropped connection, a server shutting down or starting up. Without this, GraphQL
 * Yoga masks them as `INTERNAL_SERVER_ERROR` ("Unexpected error.") and a client cannot tell a
 * database outage from a bug.
 *
 * ```ts
 * createYoga({ schema, plugins: [Transactioner({ txOpener: orm }), DatabaseUnavailable()] });
 * ```
 *
 * @module
 */
import { GraphQLError } from "graphql";
import type { Plugin } from "graphql-yoga";
import { ErrorCode } from "./errors.ts";

/** Error codes of `pg`/Node sockets and SQLSTATEs that mean "the server cannot be reached". */
const UNREACHABLE = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENOTFOUND",
  "57P01", // admin_shutdown
  "57P02", // crash_shutdown
  "57P03", // cannot_connect_now (starting up, shutting down)
]);

/**
 * Whether `error` (or an error in its `cause` chain) says the database server is unreachable:
 * a refused, reset or timed-out connection, a server shutting down or starting up, a SQLSTATE of
 * class `08` (connection exception), rather than a bad statement.
 */
export function isUnreachable(error: unknown): boolean {
  for (let e = error, depth = 0; e instanceof Error && depth < 8; e = e.cause, depth++) {
    const code = String((e as { code?: unknown }).code ?? "");
    if (UNREACHABLE.has(code) || code.startsWith("08")) return true;
    if (/connection terminated|connection timeout|server closed the connection/i.test(e.message)) {
      return true;
    }
  }
  return false;
}

/**
 * A GraphQL Yoga plugin: every error of a result whose original error is
 * {@linkcode isUnreachable} becomes `the database is unavailable` with code
 * `DATABASE_UNAVAILABLE` (same path and locations; the driver's message, which names hosts and
 * ports, is not sent to the client).
 */
export function DatabaseUnavailable(): Plugin {
  return {
    onExecute() {
      return {
        onExecuteDone({ result, setResult }) {
          if (Symbol.asyncIterator in result || !result.errors?.length) return;
          if (!result.errors.some((e) => isUnreachable(e.originalError))) return;
          setResult({
            ...result,
            errors: result.errors.map((e) =>
              isUnreachable(e.originalError)
                ? new GraphQLError("the database is unavailable", {
                  nodes: e.nodes,
                  source: e.source,
                  positions: e.positions,
                  path: e.path,
                  extensions: { code: ErrorCode.DATABASE_UNAVAILABLE },
                })
                : e
            ),
          });
        },
      };
    },
  };
}
