/**
 * A local stand-in for the hosted search API's multi-query endpoint
 * (`POST /1/indexes/*\/queries`): same request and response JSON, answered
 * from MiniSearch full-text indices of DocSearch records, with highlighting
 * (`_highlightResult`) and snippets (`_snippetResult`). Faults can be switched
 * on to test clients: an HTTP error status, or a delay per query.
 *
 * @module
 */
import MiniSearch, { type SearchResult as MiniSearchResult } from "minisearch";
import type { Level } from "../../widget/search.ts";
import type { DocSearchRecord } from "./records.ts";

/** Faults the API can be told to produce; mutable while it serves. */
export interface SearchApiFaults {
  /** Answer every query with this HTTP status (for example 503) and an error body. */
  status?: number;
  /** Wait this many milliseconds before answering a request whose first query is the key. */
  delays?: Record<string, number>;
}

/** One request of a multi-query body. */
interface QueryRequest {
  indexName: string;
  query?: string;
  params?: string;
  hitsPerPage?: number;
  attributesToRetrieve?: string[];
  attributesToSnippet?: string[];
  highlightPreTag?: string;
  highlightPostTag?: string;
  snippetEllipsisText?: string;
  facetFilters?: Array<string | string[]>;
  filters?: string;
}

/** A searchable index of records. */
export interface RecordIndex {
  records: DocSearchRecord[];
  /** All words must match; ranked as DocSearch ranks. */
  search(query: string): MiniSearchResult[];
  /** Any word may match; by relevance (for the assistant's searches). */
  searchAny(query: string): DocSearchRecord[];
}

/** The attributes of a record that are searched, with their boosts. */
const FIELDS: Record<Level | "content", number> = {
  lvl0: 0.5,
  lvl1: 4,
  lvl2: 3,
  lvl3: 2,
  lvl4: 1.5,
  lvl5: 1.5,
  lvl6: 1.5,
  content: 1,
};

/**
 * Builds the full-text index of `records` (prefix and fuzzy matching, all
 * words required). Results are ranked as the hosted DocSearch indices rank
 * them: fewer typos first, then the highest attribute matched, then headings
 * before paragraphs, then text relevance.
 */
export function createRecordIndex(records: DocSearchRecord[]): RecordIndex {
  const byId = new Map(records.map((r) => [r.objectID, r]));
  const index = new MiniSearch<DocSearchRecord>({
    fields: Object.keys(FIELDS),
    idField: "objectID",
    extractField: (record, field) =>
      field === "objectID"
        ? record.objectID
        : field === "content"
        ? record.content ?? ""
        : (byId.get(record.objectID) ?? record).hierarchy?.[field as Level] ?? "",
    searchOptions: {
      prefix: true,
      fuzzy: (term) => term.length > 4 ? 0.2 : false,
      boost: FIELDS,
      combineWith: "AND",
    },
  });
  index.addAll(records);
  const rank = (result: MiniSearchResult) => {
    const fields = Object.values(result.match).flat();
    return Math.min(...fields.map((f) => ATTRIBUTES.indexOf(f as Level | "content")));
  };
  const typos = (result: MiniSearchResult) =>
    result.queryTerms.filter((q) => !result.terms.some((t) => t.startsWith(q))).length;
  return {
    records,
    searchAny: (query) =>
      index.search(query, { combineWith: "OR" }).map((r) => byId.get(r.id as string)!),
    search: (query) =>
      index.search(query).sort((a, b) =>
        typos(a) - typos(b) ||
        rank(a) - rank(b) ||
        typeWeight(byId.get(b.id as string)!) - typeWeight(byId.get(a.id as string)!) ||
        b.score - a.score
      ),
  };
}

/**
 * Searchable attributes in ranking order, as DocSearch configures them: a
 * match in a higher attribute ranks first ("attribute" criterion).
 */
const ATTRIBUTES = Object.keys(FIELDS) as Array<Level | "content">;

/** DocSearch's `weight.level`: pages and headings before paragraphs. */
const typeWeight = (record: DocSearchRecord) =>
  record.type === "content" ? 0 : 100 - 10 * Number(record.type.slice(3));

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

function highlighter(terms: string[], pre: string, post: string) {
  const pattern = terms.length
    ? new RegExp(
      `(?<![\\p{L}\\p{N}])(${terms.map(escapeRegExp).join("|")})(?![\\p{L}\\p{N}])`,
      "giu",
    )
    : null;
  return (value: string) => {
    const matched = pattern ? [...value.matchAll(pattern)].map((m) => m[1].toLowerCase()) : [];
    const matchedWords = [...new Set(matched)];
    return {
      value: pattern ? value.replace(pattern, `${pre}$1${post}`) : value,
      matchLevel: matchedWords.length === 0
        ? "none"
        : matchedWords.length >= terms.length
        ? "full"
        : "partial",
      matchedWords,
    };
  };
}

function snippet(
  value: string,
  words: number,
  highlight: ReturnType<typeof highlighter>,
  ellipsis: string,
) {
  const parts = value.split(/\s+/);
  if (parts.length <= words) return highlight(value);
  const first = Math.max(
    0,
    parts.findIndex((w) => highlight(w).matchLevel !== "none"),
  );
  const start = Math.max(
    0,
    Math.min(first - Math.floor(words / 4), parts.length - words),
  );
  const text = parts.slice(start, start + words).join(" ");
  const result = highlight(text);
  return {
    ...result,
    value: `${start > 0 ? ellipsis : ""}${result.value}${
      start + words < parts.length ? ellipsis : ""
    }`,
  };
}

function attributeValue(record: DocSearchRecord, attribute: string): unknown {
  return attribute.split(".").reduce<unknown>(
    (value, key) => (value as Record<string, unknown> | null)?.[key],
    record,
  );
}

function matchesFilter(record: DocSearchRecord, filter: string): boolean {
  const [attribute, ...rest] = filter.replace(/^"|"$/g, "").split(":");
  const expected = rest.join(":").replace(/^"|"$/g, "");
  const value = attributeValue(record, attribute.trim());
  return Array.isArray(value) ? value.map(String).includes(expected) : String(value) === expected;
}

/** `facetFilters` (AND of entries, OR inside nested arrays) and `filters` (`a:b AND c:d`). */
function matchesFilters(
  record: DocSearchRecord,
  request: QueryRequest,
): boolean {
  const facets = (request.facetFilters ?? []).every((entry) =>
    Array.isArray(entry)
      ? entry.some((f) => matchesFilter(record, f))
      : matchesFilter(record, entry)
  );
  const filters = (request.filters ?? "").split(/\s+AND\s+/).filter(Boolean)
    .every((f) => matchesFilter(record, f));
  return facets && filters;
}

function project(
  record: DocSearchRecord,
  attributes: string[] | undefined,
): Record<string, unknown> {
  if (!attributes || attributes.includes("*")) return structuredClone(record);
  const hit: Record<string, unknown> = { objectID: record.objectID };
  for (const attribute of attributes) {
    const [head, sub] = attribute.split(".");
    const value = attributeValue(record, attribute);
    if (value === undefined) continue;
    if (sub) hit[head] = { ...(hit[head] as object), [sub]: value };
    else hit[head] = value;
  }
  return hit;
}

/** Answers one request of a multi-query body as the hosted API does. */
export function answer(
  index: RecordIndex,
  request: QueryRequest,
): Record<string, unknown> {
  const started = performance.now();
  const params = new URLSearchParams(request.params ?? "");
  const query = request.query ?? params.get("query") ?? "";
  const hitsPerPage = request.hitsPerPage ??
    Number(params.get("hitsPerPage") ?? 20);
  const found = query.trim()
    ? index.search(query).map((r) => ({
      record: index.records.find((x) => x.objectID === r.id)!,
      terms: r.terms,
    }))
    : index.records.map((record) => ({ record, terms: [] as string[] }));
  const matching = found.filter(({ record }) => matchesFilters(record, request));
  const pre = request.highlightPreTag ?? "<em>";
  const post = request.highlightPostTag ?? "</em>";
  const ellipsis = request.snippetEllipsisText ?? "…";
  const snippets = new Map(
    (request.attributesToSnippet ?? []).map((s) => {
      const [attribute, words] = s.split(":");
      return [attribute, Number(words ?? 10)];
    }),
  );
  const hits = matching.slice(0, hitsPerPage).map(({ record, terms }) => {
    const highlight = highlighter(terms, pre, post);
    const _highlightResult: Record<string, unknown> = {
      hierarchy: {},
      content: record.content === null ? undefined : highlight(record.content),
    };
    const _snippetResult: Record<string, unknown> = { hierarchy: {} };
    for (const level of Object.keys(record.hierarchy ?? {}) as Level[]) {
      const value = record.hierarchy[level];
      if (value === null) continue;
      (_highlightResult.hierarchy as Record<string, unknown>)[level] = highlight(value);
      const words = snippets.get(`hierarchy.${level}`);
      if (words) {
        (_snippetResult.hierarchy as Record<string, unknown>)[level] = snippet(
          value,
          words,
          highlight,
          ellipsis,
        );
      }
    }
    const contentWords = snippets.get("content");
    if (contentWords && record.content !== null) {
      _snippetResult.content = snippet(
        record.content,
        contentWords,
        highlight,
        ellipsis,
      );
    }
    return {
      ...project(record, request.attributesToRetrieve),
      _highlightResult,
      _snippetResult,
    };
  });
  return {
    hits,
    nbHits: matching.length,
    page: 0,
    nbPages: Math.ceil(matching.length / hitsPerPage),
    hitsPerPage,
    exhaustiveNbHits: true,
    query,
    params: params.toString(),
    index: request.indexName,
    processingTimeMS: Math.round(performance.now() - started),
  };
}

/** CORS headers: the API is called from pages of any origin, as the hosted one is. */
export const CORS_HEADERS: Record<string, string> = {
  "access-control-allow-origin": "*",
  "access-control-allow-headers": "*",
  "access-control-allow-methods": "GET, POST, OPTIONS",
};

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), {
    status,
    headers: {
      ...CORS_HEADERS,
      "content-type": "application/json; charset=utf-8",
    },
  });

/**
 * The HTTP handler of the search API for the named indices; answers `null`
 * for paths it does not serve, so it can be combined with other handlers.
 */
export function createSearchApi(
  indices: Record<string, RecordIndex>,
  faults: SearchApiFaults = {},
): (request: Request) => Promise<Response | null> {
  return async (request) => {
    const { pathname } = new URL(request.url);
    if (!pathname.startsWith("/1/indexes/")) return null;
    if (request.method === "OPTIONS") {
      return new Response(null, { status: 204, headers: CORS_HEADERS });
    }
    if (request.method !== "POST" || !pathname.endsWith("/queries")) {
      return json({ message: "Method not allowed", status: 405 }, 405);
    }
    let body: { requests?: QueryRequest[] };
    try {
      body = JSON.parse(await request.text());
    } catch {
      return json({ message: "Invalid JSON body", status: 400 }, 400);
    }
    const requests = body.requests ?? [];
    const delay = faults.delays?.[requests[0]?.query ?? ""];
    if (delay) await new Promise((resolve) => setTimeout(resolve, delay));
    if (faults.status) {
      return json(
        { message: "Service unavailable", status: faults.status },
        faults.status,
      );
    }
    const missing = requests.find((r) => !indices[r.indexName]);
    if (missing) {
      return json({
        message: `Index ${missing.indexName} does not exist`,
        status: 404,
      }, 404);
    }
    return json({
      results: requests.map((r) => answer(indices[r.indexName], r)),
    });
  };
}
