/**
 * Classifies the errors a database gives a write into what the client is told, without the
 * database's text (which quotes the row's values and names constraints):
 *
 * - a value its column cannot hold: SQLSTATE class `22` (data exception), MariaDB/MySQL errno
 *   1264, 1265, 1292, 1366, 1367, 1406, which carry no class-22 SQLSTATE -> `BAD_USER_INPUT`;
 * - PostgreSQL's refusal of a row by a row-level security policy (SQLSTATE `42501`, "new row
 *   violates row-level security policy") -> `FORBIDDEN`;
 * - MikroORM's `ConstraintViolationException`s: unique, foreign key (on a delete: rows still
 *   reference the row; else: a referenced row does not exist), any other -> `BAD_USER_INPUT`.
 *
 * @module
 */
import {
  ConstraintViolationException,
  DriverException,
  ForeignKeyConstraintViolationException,
  UniqueConstraintViolationException,
} from "@mikro-orm/core";
import type { GraphQLError } from "graphql";
import { ErrorCode, gqlError } from "../error_codes.ts";

/** MariaDB errors for a value a column cannot hold that do not carry SQLSTATE class 22. */
const MYSQL_VALUE_ERRNOS = new Set([1265, 1292, 1366, 1367, 1406, 1264]);

/**
 * The error the client gets for `error`, thrown by flushing a `mode` write of a `typeName` node,
 * or `undefined` when `error` is none of the faults above (it goes on as it is).
 *
 * @param error what the flush threw (MikroORM converts driver errors into its exceptions)
 * @param typeName the GraphQL type name, e.g. `"Post"`, quoted in the message
 */
export function writeFault(
  error: unknown,
  typeName: string,
  mode: "create" | "update" | "delete",
): GraphQLError | undefined {
  if (isValueError(error)) {
    return gqlError(
      ErrorCode.BAD_USER_INPUT,
      `cannot ${mode} ${typeName}: a value does not fit its column`,
    );
  }
  if (isPolicyViolation(error)) {
    return gqlError(
      ErrorCode.FORBIDDEN,
      `cannot ${mode} ${typeName}: the database's row-level security refuses this request's row`,
    );
  }
  if (!(error instanceof ConstraintViolationException)) return undefined;
  const why = error instanceof UniqueConstraintViolationException
    ? `another ${typeName} already has the same value of a unique field`
    : error instanceof ForeignKeyConstraintViolationException
    ? mode === "delete"
      ? `other rows still reference this ${typeName}`
      : `a referenced row does not exist`
    : `a value violates a constraint of ${typeName}`;
  return gqlError(ErrorCode.BAD_USER_INPUT, `cannot ${mode} ${typeName}: ${why}`);
}

/** PostgreSQL's refusal of a row by a row-level security policy (SQLSTATE 42501). */
function isPolicyViolation(error: unknown): boolean {
  if (!(error instanceof DriverException)) return false;
  return (error.sqlState ?? error.code) === "42501" && /row-level security/.test(error.message);
}

/** A driver error for a value that does not fit its column (a data exception). */
function isValueError(error: unknown): boolean {
  if (!(error instanceof DriverException)) return false;
  const state = error.sqlState ?? (/^[0-9A-Z]{5}$/.test(error.code ?? "") ? error.code : "");
  return state?.startsWith("22") === true || MYSQL_VALUE_ERRNOS.has(error.errno ?? -1);
}
