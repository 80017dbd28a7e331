/**
 * One HTTP request's record while the server helper answers it: what the request log line and
 * the statement spans need to know about it, kept in an `AsyncLocalStorage` so that code deep
 * below (MikroORM's query logger) finds the request it works for without a parameter.
 *
 * @module
 */
import { AsyncLocalStorage } from "node:async_hooks";

/** What is known about the request being answered. */
export interface RequestScope {
  /** SQL statements run for it so far (MikroORM's query log, failed ones included). */
  statements: number;
  /** The executed operation's name, when it has one. */
  operationName?: string;
  /** `query`, `mutation` or `subscription`, once the operation is known. */
  operationType?: string;
  /** `extensions.code` of each error in the response (`INTERNAL_SERVER_ERROR` when none). */
  errorCodes: string[];
}

/** The scope of the request whose code is running, or `undefined` outside any. */
export const requestScope: AsyncLocalStorage<RequestScope> = new AsyncLocalStorage();
