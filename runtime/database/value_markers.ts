/**
 * Values of SQL text the runtime writes itself, carried to the bound statement. MikroORM renders a
 * raw fragment's values into the text wherever the fragment is an `ORDER BY` key, a selected
 * expression or a condition's key (`platform.formatQuery`): the edge order terms of
 * `plan/order_terms.ts` are such fragments, and under a policy their subqueries hold the read
 * filter's values. So the runtime writes each value as a marker, a SQL comment holding the value
 * (`/*mikrogql.value.<nonce>:<base64url of its JSON>*\/`, which MikroORM leaves alone), and the
 * bound connection (`bound_connection.ts`), where every statement goes out, turns each marker back
 * into a placeholder with its value among the parameters, in text order.
 *
 * The nonce is random per process, so no text of a value (a string literal some other path
 * formatted in) can pass for a marker. Strings, finite numbers, booleans, `null`, dates and bigints
 * get a marker; any other value (a buffer, an object) is formatted in by the caller's formatter.
 *
 * @module
 */
import { base64UrlToText, textToBase64Url } from "../jsutils/base64url.ts";

const NONCE = Array.from(crypto.getRandomValues(new Uint8Array(8)), (b) => b.toString(16))
  .join("");
const OPEN = `/*mikrogql.value.${NONCE}:`;
const CLOSE = "*/";

/** A marked statement's text and values: markers turned into `?` placeholders. */
export interface UnmarkedStatement {
  readonly sql: string;
  readonly params: readonly unknown[];
}

/**
 * `sql` (MikroORM's placeholders: `?` a value, `??` an identifier, `\?` a question mark) with
 * each value placeholder replaced by the marker of its value in `params`; an identifier, or a
 * value no marker carries, is written by `format` (the placeholder, `?` or `??`, and its value:
 * `(token, value) => platform.formatQuery(token, [value])`).
 *
 * @throws Error when `sql` has fewer or more placeholders than `params` has values
 */
export function markValues(
  sql: string,
  params: readonly unknown[],
  format: (placeholder: "?" | "??", value: unknown) => string,
): string {
  let out = "";
  let pos = 0;
  let next = 0;
  for (let at = sql.indexOf("?"); at !== -1; at = sql.indexOf("?", pos)) {
    if (at > 0 && sql[at - 1] === "\\") {
      out += sql.slice(pos, at + 1);
      pos = at + 1;
      continue;
    }
    if (next >= params.length) throw new Error("more placeholders than values in SQL text");
    const identifier = sql[at + 1] === "?";
    const value = params[next++];
    const json = identifier ? undefined : encode(value);
    out += sql.slice(pos, at) +
      (json === undefined
        ? format(identifier ? "??" : "?", value)
        : OPEN + textToBase64Url(json) + CLOSE);
    pos = at + (identifier ? 2 : 1);
  }
  if (next !== params.length) throw new Error("fewer placeholders than values in SQL text");
  return out + sql.slice(pos);
}

/**
 * `sql` and `params` with every marker of {@linkcode markValues} turned into a `?` placeholder
 * and its value put among `params` at its place in text order; `sql` and `params` as they are
 * when the text holds no marker.
 *
 * @throws Error when a marker is not closed or its value is not one `markValues` wrote
 */
export function unmarkValues(sql: string, params: readonly unknown[]): UnmarkedStatement {
  if (!sql.includes(OPEN)) return { sql, params };
  let out = "";
  const values: unknown[] = [];
  let next = 0;
  let pos = 0;
  while (pos < sql.length) {
    const question = sql.indexOf("?", pos);
    const marker = sql.indexOf(OPEN, pos);
    if (marker !== -1 && (question === -1 || marker < question)) {
      const end = sql.indexOf(CLOSE, marker + OPEN.length);
      const json = end === -1 ? undefined : base64UrlToText(sql.slice(marker + OPEN.length, end));
      if (json === undefined) throw new Error("a value marker in SQL text that is not one written");
      out += sql.slice(pos, marker) + "?";
      values.push(decode(json));
      pos = end + CLOSE.length;
      continue;
    }
    if (question === -1) break;
    if (question > 0 && sql[question - 1] === "\\") {
      out += sql.slice(pos, question + 1);
      pos = question + 1;
      continue;
    }
    const identifier = sql[question + 1] === "?";
    out += sql.slice(pos, question + (identifier ? 2 : 1));
    values.push(params[next++]);
    pos = question + (identifier ? 2 : 1);
  }
  return { sql: out + sql.slice(pos), params: values };
}

/** The JSON a marker carries for `value` (dates and bigints tagged), or `undefined`. */
function encode(value: unknown): string | undefined {
  if (
    value === null || typeof value === "string" || typeof value === "boolean" ||
    (typeof value === "number" && Number.isFinite(value))
  ) return JSON.stringify(value);
  if (typeof value === "bigint") return JSON.stringify({ bigint: String(value) });
  if (value instanceof Date && !Number.isNaN(+value)) {
    return JSON.stringify({ date: value.toISOString() });
  }
  return undefined;
}

function decode(json: string): unknown {
  const value = JSON.parse(json);
  if (value === null || typeof value !== "object") return value;
  return "bigint" in value ? BigInt(value.bigint) : new Date(value.date);
}
