/**
 * Values of SQL text the runtime writes itself, carried to the bound statement. MikroORM renders a
 * raw fragment's values into the text wherever the fragment is an `ORDER BY` key, a selected
 * expression or a condition's key (`platform.formatQuery`): the edge order terms of
 * `plan/order_terms.ts` are such fragments, and under a policy their subqueries hold the read
 * filter's values. So the runtime writes each value as a marker, a SQL comment holding the value
 * (`/*mikrogql.value:<base64url of its JSON>*\/`, which MikroORM leaves alone), and the bound
 * connection (`bound_connection.ts`), where every statement goes out, turns each marker back into
 * a placeholder with its value among the parameters, in text order.
 *
 * Only values JSON keeps as they are get a marker (strings, finite numbers, booleans, `null`);
 * a fragment with any other value (a date, a bigint, a buffer) is formatted into the text as
 * MikroORM would.
 *
 * @module
 */
import { base64UrlToText, textToBase64Url } from "../plan/base64url.ts";

const OPEN = "/*mikrogql.value:";
const CLOSE = "*/";

/** A marked statement's text and values: markers turned into `?` placeholders. */
export interface UnmarkedStatement {
  readonly sql: string;
  readonly params: readonly unknown[];
}

/**
 * `sql` (MikroORM's placeholders: `?` a value, `??` an identifier, `\?` a question mark) with
 * each value placeholder replaced by the marker of its value in `params`; `undefined` when a
 * value is not a string, finite number, boolean or `null` (or an identifier placeholder is
 * present), for the caller to format the values in.
 */
export function markValues(sql: string, params: readonly unknown[]): string | undefined {
  if (!params.every(markable)) return undefined;
  let out = "";
  let pos = 0;
  let next = 0;
  for (let at = sql.indexOf("?"); at !== -1; at = sql.indexOf("?", pos)) {
    if (at > 0 && sql[at - 1] === "\\") {
      out += sql.slice(pos, at + 1);
      pos = at + 1;
      continue;
    }
    if (sql[at + 1] === "?" || next >= params.length) return undefined;
    out += sql.slice(pos, at) + OPEN + textToBase64Url(JSON.stringify(params[next++])) + CLOSE;
    pos = at + 1;
  }
  return next === params.length ? out + sql.slice(pos) : undefined;
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
      if (end === -1) throw new Error("an unclosed value marker in SQL text");
      const json = base64UrlToText(sql.slice(marker + OPEN.length, end));
      if (json === undefined) throw new Error("a value marker in SQL text that is not base64url");
      out += sql.slice(pos, marker) + "?";
      values.push(JSON.parse(json));
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

function markable(value: unknown): boolean {
  return value === null || typeof value === "string" || typeof value === "boolean" ||
    (typeof value === "number" && Number.isFinite(value));
}
