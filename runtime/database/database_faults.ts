/**
 * Classifies database errors into the faults a client may be told about, without their text:
 * a statement cancelled for the request's time budget (`QUERY_TIMEOUT`), and a database that
 * cannot be reached or dropped the connection (`DATABASE_UNAVAILABLE`).
 *
 * Recognized: PostgreSQL SQLSTATE `57014` (statement timeout or cancel), `57P01`–`57P03`
 * (backend terminated, server shutting down), class `08` (connection exception); MariaDB/MySQL
 * errno 1969/3024 (`max_statement_time`), 1317 (query interrupted), 1927/1053/2006/2013
 * (connection killed or lost); MikroORM's `ConnectionException`; socket errors (`ECONNRESET`,
 * `ECONNREFUSED`, `EPIPE`, `ETIMEDOUT`), node-postgres' and mysql2's closed-connection and pool
 * wait timeout errors; and aborts (`AbortError`, `TimeoutError`).
 *
 * Apart from those, {@linkcode isTransactionConflict} tells a transaction that lost to a
 * concurrent one (worth running again from the start): PostgreSQL SQLSTATE `40P01` (deadlock
 * detected) and `40001` (serialization failure); MariaDB/MySQL errno 1213 (deadlock) and 1205
 * (lock wait timeout), SQLSTATE `40001`; MikroORM's `DeadlockException` and
 * `LockWaitTimeoutException`.
 *
 * @module
 */
import { ConnectionException, DeadlockException, LockWaitTimeoutException } from "@mikro-orm/core";
import type { GraphQLError } from "graphql";
import { ErrorCode, gqlError } from "../error_codes.ts";

/** What a database error means for the client. */
export type DatabaseFault = "timeout" | "unavailable";

const TIMEOUT_STATES = new Set(["57014"]);
const TIMEOUT_ERRNOS = new Set([1969, 3024, 1317]);
const UNAVAILABLE_STATES = /^(57P0[123]|08...)$/;
const UNAVAILABLE_ERRNOS = new Set([1927, 1053, 2006, 2013]);
const UNAVAILABLE_CODES = new Set([
  "ECONNRESET",
  "ECONNREFUSED",
  "EPIPE",
  "ETIMEDOUT",
  "PROTOCOL_CONNECTION_LOST",
  "PROTOCOL_SEQUENCE_TIMEOUT",
  "POOL_CLOSED",
]);
const UNAVAILABLE_MESSAGES =
  /Connection terminated|not queryable|timeout exceeded when trying to connect|Connection lost|connection is in closed state|Can't add new command when connection is in closed state|server closed the connection/i;

/**
 * The fault `error` (or an error it wraps, through `cause` and `originalError`) stands for;
 * `undefined` for any other error.
 */
export function databaseFault(error: unknown): DatabaseFault | undefined {
  for (const e of wrapped(error)) {
    const fault = ownFault(e);
    if (fault) return fault;
  }
  return undefined;
}

/** `error` and the errors it wraps (`originalError`, else `cause`), at most 5 in all. */
function* wrapped(error: unknown): Generator<unknown> {
  for (let e = error, depth = 0; e && depth < 5; depth++) {
    yield e;
    const next = e as { cause?: unknown; originalError?: unknown };
    e = next.originalError ?? next.cause;
  }
}

function ownFault(error: unknown): DatabaseFault | undefined {
  if (typeof error !== "object" || error === null) return undefined;
  const e = error as {
    name?: string;
    code?: unknown;
    sqlState?: string;
    errno?: number;
    message?: string;
  };
  const state = e.sqlState ?? (typeof e.code === "string" ? e.code : "");
  if (e.name === "AbortError" || e.name === "TimeoutError") return "timeout";
  if (TIMEOUT_STATES.has(state) || TIMEOUT_ERRNOS.has(e.errno ?? -1)) return "timeout";
  if (error instanceof ConnectionException) return "unavailable";
  if (UNAVAILABLE_STATES.test(state) || UNAVAILABLE_ERRNOS.has(e.errno ?? -1)) {
    return "unavailable";
  }
  if (typeof e.code === "string" && UNAVAILABLE_CODES.has(e.code)) return "unavailable";
  if (typeof e.message === "string" && UNAVAILABLE_MESSAGES.test(e.message)) return "unavailable";
  return undefined;
}

const CONFLICT_STATES = new Set(["40P01", "40001"]);
const CONFLICT_ERRNOS = new Set([1213, 1205]);

/**
 * Whether `error` (or an error it wraps, through `cause` and `originalError`) is a transaction
 * that lost to a concurrent one: a deadlock or a serialization failure (see the module
 * documentation). The transaction is then aborted, and running it again may succeed.
 */
export function isTransactionConflict(error: unknown): boolean {
  for (const e of wrapped(error)) {
    if (e instanceof DeadlockException || e instanceof LockWaitTimeoutException) return true;
    if (typeof e !== "object" || e === null) continue;
    const { code, sqlState, errno } = e as { code?: unknown; sqlState?: string; errno?: number };
    const state = sqlState ?? (typeof code === "string" ? code : "");
    if (CONFLICT_STATES.has(state) || CONFLICT_ERRNOS.has(errno ?? -1)) return true;
  }
  return false;
}

/**
 * Whether `error` (or an error it wraps) is a pool that had no connection free in time
 * (node-postgres `connectionTimeoutMillis`), rather than a lost connection.
 */
export function isPoolWait(error: unknown): boolean {
  for (const e of wrapped(error)) {
    if (
      /timeout exceeded when trying to connect/i.test((e as { message?: string }).message ?? "")
    ) {
      return true;
    }
  }
  return false;
}

/** The `DATABASE_UNAVAILABLE` error. */
export function unavailable(): GraphQLError {
  return gqlError(
    ErrorCode.DATABASE_UNAVAILABLE,
    "the database is unavailable (connection lost or none free in time); try again",
  );
}
