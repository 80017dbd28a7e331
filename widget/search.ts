/**
 * Keyword search requests: one multi-index request per keystroke through the
 * `algoliasearch/lite` v5 client, indices in priority order, stale answers
 * dropped.
 *
 * @module
 */
import { liteClient } from "algoliasearch/lite";

/** Hierarchy levels of a DocSearch record. */
export type Level =
  | "lvl0"
  | "lvl1"
  | "lvl2"
  | "lvl3"
  | "lvl4"
  | "lvl5"
  | "lvl6";

/** The `type` of a DocSearch record: the level it stands for, or `content`. */
export type HitType = Level | "content";

/** One highlighted or snippeted attribute: `value` holds `<mark>` tags around matches. */
export interface HighlightValue {
  /** The attribute's text with `<mark>`/`</mark>` around matched words. */
  value: string;
  /** How many of the query's words matched. */
  matchLevel?: "none" | "partial" | "full";
  /** The query's words that matched. */
  matchedWords?: string[];
}

/** Highlighted (or snippeted) attributes of a hit, in the shape of the hit. */
export interface HighlightResult {
  /** The paragraph text. */
  content?: HighlightValue;
  /** The headings. */
  hierarchy?: Partial<Record<Level, HighlightValue>>;
}

/**
 * A DocSearch record as the search API returns it: a page (`lvl1`), a section
 * heading (`lvl2`-`lvl6`) or a paragraph (`content`).
 */
export interface DocSearchHit {
  /** Unique id of the record. */
  objectID: string;
  /** Where the hit leads, with the anchor of its section. */
  url: string;
  /** The section's anchor, when it has one. */
  anchor?: string | null;
  /** What the record stands for: a page or heading level, or a paragraph. */
  type: HitType;
  /** The paragraph text of a `content` record. */
  content: string | null;
  /** The headings above the record: lvl0 (section of the site), lvl1 (page), lvl2-lvl6. */
  hierarchy: Partial<Record<Level, string | null>>;
  /** The attributes with `<mark>` around matches. */
  _highlightResult?: HighlightResult;
  /** The snippeted attributes (15 words around matches) with `<mark>` around matches. */
  _snippetResult?: HighlightResult;
  /** Any other attribute of the record. */
  [attribute: string]: unknown;
}

/** An entry of the `indices` option, in object form. */
export interface IndexEntry {
  /** The index name. */
  name: string;
  /** Search parameters of this index's request; they override {@link DEFAULT_SEARCH_PARAMETERS}. */
  searchParameters?: Record<string, unknown>;
}

/** One request of a multi-index search: the index, the query and its parameters. */
export interface SearchRequest extends Record<string, unknown> {
  /** The index searched. */
  indexName: string;
  /** The query text (at most {@link MAX_QUERY_LENGTH} characters). */
  query: string;
}

/** One index's answer to a multi-index search. */
export interface SearchResult {
  /** The hits of this page of results. */
  hits: DocSearchHit[];
  /** The number of hits in total. */
  nbHits?: number;
  /** Any other field of the answer (`processingTimeMS`, `page`, ...). */
  [field: string]: unknown;
}

/**
 * What the search box needs of a search client: the v5 `search({requests})`
 * method. `liteClient` from `algoliasearch/lite` is one; `transformSearchClient`
 * may wrap it.
 */
export interface SearchClient {
  /** One request per index; the results in the same order. */
  search(
    params: { requests: SearchRequest[] },
  ): Promise<{ results: unknown[] }>;
}

/** `hierarchy.lvl0` to `hierarchy.lvl6`. */
const HIERARCHY = [0, 1, 2, 3, 4, 5, 6].map((level) => `hierarchy.lvl${level}`);

/**
 * The parameters every request carries unless its index entry overrides them: DocSearch's
 * attributes (the hierarchy, content, type, url), snippets of 15 words of `lvl1`-`lvl6` and
 * content, `<mark>` highlighting, 20 hits.
 */
export const DEFAULT_SEARCH_PARAMETERS: Readonly<Record<string, unknown>> = {
  attributesToRetrieve: [...HIERARCHY, "content", "type", "url"],
  attributesToSnippet: [...HIERARCHY.slice(1), "content"].map((name) => `${name}:15`),
  snippetEllipsisText: "…",
  highlightPreTag: "<mark>",
  highlightPostTag: "</mark>",
  hitsPerPage: 20,
};

/** Queries longer than this many UTF-16 code units are cut to it. */
export const MAX_QUERY_LENGTH = 512;

/** Creates the `algoliasearch/lite` client for `appId` and the search-only `apiKey`. */
export function createSearchClient(
  appId: string,
  apiKey: string,
): SearchClient {
  return liteClient(appId, apiKey) as unknown as SearchClient;
}

/** The requests of one multi-index search: one per index, in priority order. */
export function buildRequests(
  indices: IndexEntry[],
  query: string,
): SearchRequest[] {
  const text = query.slice(0, MAX_QUERY_LENGTH);
  return indices.map((index) => ({
    indexName: index.name,
    query: text,
    ...DEFAULT_SEARCH_PARAMETERS,
    ...index.searchParameters,
  }));
}

/**
 * Returns a search function that sends one multi-index request per call and
 * resolves to `null` when a later call was made before this one's answer came
 * (a stale answer, or a stale failure, is dropped). An empty query sends
 * nothing and resolves to `null`; it only makes pending answers stale.
 *
 * @throws the client's error (network failure, HTTP 4xx/5xx) for the latest call.
 */
export function createLatestSearch(
  client: SearchClient,
  indices: IndexEntry[],
): (query: string) => Promise<SearchResult[] | null> {
  let latest = 0;
  return async (query) => {
    const id = ++latest;
    if (query === "") return null;
    try {
      const { results } = await client.search({
        requests: buildRequests(indices, query),
      });
      return id === latest ? results as SearchResult[] : null;
    } catch (error) {
      if (id === latest) throw error;
      return null;
    }
  };
}
