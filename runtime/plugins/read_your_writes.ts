/**
 * Read-your-writes over read replicas for the Transactioner: a client's mutation response carries
 * a cookie (and a response header of the same name) holding the time until which the client's
 * reads go to the primary; a query that sends it back (as a cookie, or as a request header for
 * clients without a cookie jar) within that time reads from the primary, so it sees the write
 * even when the replica lags.
 *
 * The value is the end of the window in Unix milliseconds. The server checks it against its own
 * clock and the configured window, so a client can shorten it but not stretch it.
 *
 * @module
 */
import { getCookies } from "@std/http/cookie";
import type { ReadFrom } from "../database/read_from.ts";

/** Options of the Transactioner's `readYourWrites`. */
export interface ReadYourWritesOptions {
  /** How long after its mutation a client reads from the primary, in seconds (> 0). */
  seconds: number;
  /** Name of the cookie and of the header. Default {@linkcode READ_PRIMARY_UNTIL}. */
  name?: string;
}

/** Default name of the read-your-writes cookie and header. */
export const READ_PRIMARY_UNTIL = "mikrogql-read-primary-until";

/** The context fields read and written here (Yoga's context holds the `request`). */
interface Context {
  request?: Request;
  readFrom?: ReadFrom;
}

const writers = new WeakSet<Request>();

/** Records that the request ran a mutation operation, for {@linkcode stampWriter}. */
export function wrote(ctx: Context): void {
  if (ctx.request) writers.add(ctx.request);
}

/** Puts the cookie and header on the response of a request that ran a mutation operation. */
export function stampWriter(
  request: Request,
  response: Response,
  options: ReadYourWritesOptions,
): void {
  if (!writers.has(request)) return;
  const seconds = options.seconds;
  const name = options.name ?? READ_PRIMARY_UNTIL;
  const until = String(Date.now() + Math.round(seconds * 1000));
  response.headers.set(name, until);
  response.headers.append(
    "set-cookie",
    `${name}=${until}; Max-Age=${Math.ceil(seconds)}; Path=/; HttpOnly; SameSite=Lax`,
  );
}

/** Sets `ctx.readFrom = "primary"` when the request carries a current read-your-writes stamp. */
export function pinRecentWriter(ctx: Context, options: ReadYourWritesOptions): void {
  const request = ctx.request;
  if (!request) return;
  const name = options.name ?? READ_PRIMARY_UNTIL;
  const until = Number(request.headers.get(name) ?? getCookies(request.headers)[name]);
  const now = Date.now();
  if (until > now && until <= now + options.seconds * 1000) ctx.readFrom = "primary";
}

/**
 * Checks the options.
 *
 * @throws Error naming `readYourWrites.seconds` when it is not a positive, finite number
 */
export function checkReadYourWrites(options: ReadYourWritesOptions): void {
  if (!(options.seconds > 0) || !Number.isFinite(options.seconds)) {
    throw new Error(
      `readYourWrites.seconds must be a positive number of seconds, got ${
        JSON.stringify(options.seconds)
      }`,
    );
  }
}
