/**
 * The request log: one line per HTTP request the server helper answers, as JSON (one object per
 * line, for log collectors) or as text with colours (for a person at a terminal).
 *
 * @module
 */
import { bold, cyan, dim, green, red, yellow } from "@std/fmt/colors";

/** What one request log line says. */
export interface RequestLogEntry {
  /** When the request arrived (ISO 8601). */
  time: string;
  /** HTTP method. */
  method: string;
  /** URL path (no query string: it may hold an operation's variables). */
  path: string;
  /** HTTP status of the response; 499 when the client closed its connection before it. */
  status: number;
  /** The operation's name, when it has one and got as far as execution. */
  operation?: string;
  /** `query`, `mutation` or `subscription`, when the operation was executed. */
  operationType?: string;
  /** From the request's arrival to the response's headers, in milliseconds (0.1 ms steps). */
  durationMs: number;
  /** SQL statements run for the request. */
  statements: number;
  /** `extensions.code` of each error of the response, in order (absent when none). */
  errors?: string[];
}

/**
 * How request lines are written: `"json"` (one JSON object per line), `"text"` (a readable line,
 * coloured unless `NO_COLOR` is set), or a function of your own that gets each entry.
 */
export type RequestLogFormat = "json" | "text" | ((entry: RequestLogEntry) => void);

/**
 * The path of an absolute request URL as the request gave it, without its query string or
 * fragment: `http://host/graphql?query=...` is `/graphql`. A slice of the text, not a parse by
 * `new URL` (which costs more than the rest of a log line), so dot segments and percent-encoding
 * are not normalised.
 */
export function requestPath(url: string): string {
  const authority = url.indexOf("//");
  const start = url.indexOf("/", authority < 0 ? 0 : authority + 2);
  if (start < 0) return "/";
  let end = url.length;
  for (let i = start; i < url.length; i++) {
    const c = url.charCodeAt(i);
    if (c === 63 /* ? */ || c === 35 /* # */) {
      end = i;
      break;
    }
  }
  return url.slice(start, end);
}

/** The ISO 8601 text of the second last formatted by {@linkcode isoTime}, and that second. */
let lastSecond = NaN;
let lastPrefix = "";

/**
 * `new Date(ms).toISOString()` for a whole number of milliseconds since 1970 (before 10000), the date and time up to
 * the second formatted once per second: a busy server's lines share it (`Date` and
 * `toISOString` per line cost some 1 µs, a fifth of a log line).
 */
export function isoTime(ms: number): string {
  const second = Math.floor(ms / 1000);
  if (second !== lastSecond) {
    lastSecond = second;
    lastPrefix = new Date(second * 1000).toISOString().slice(0, 20);
  }
  const millis = ms - second * 1000;
  return `${lastPrefix}${millis < 10 ? "00" : millis < 100 ? "0" : ""}${millis}Z`;
}

/** `"text"` when standard output is a terminal, else `"json"`. */
export function defaultLogFormat(): "json" | "text" {
  return Deno.stdout.isTerminal() ? "text" : "json";
}

/** The entry as one line of the format (no newline). */
export function formatRequestLog(entry: RequestLogEntry, format: "json" | "text"): string {
  if (format === "json") return JSON.stringify(entry);
  const status = entry.status >= 500
    ? red(String(entry.status))
    : entry.status >= 400
    ? yellow(String(entry.status))
    : green(String(entry.status));
  const operation = entry.operationType
    ? ` ${entry.operationType} ${bold(entry.operation ?? "(anonymous)")}`
    : "";
  const statements = `${entry.statements} statement${entry.statements === 1 ? "" : "s"}`;
  const errors = entry.errors?.length ? ` ${red(`errors: ${entry.errors.join(", ")}`)}` : "";
  return `${dim(entry.time.slice(11, 23))} ${entry.method} ${
    cyan(entry.path)
  } ${status}${operation} ` +
    `${entry.durationMs} ms ${dim(statements)}${errors}`;
}
