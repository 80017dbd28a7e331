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
  value: string;
  matchLevel?: "none" | "partial" | "full";
  matchedWords?: string[];
}

/** Highlighted (or snippeted) attributes of a hit, in the shape of the hit. */
export interface HighlightResult {
  content?: HighlightValue;
  hierarchy?: Partial<Record<Level, HighlightValue>>;
}

/**
 * A DocSearch record as the search API returns it: a page (`lvl1`), a section
 * heading (`lvl2`-`lvl6`) or a paragraph (`content`).
 */
export interface DocSearchHit {
  objectID: string;
  url: string;
  anchor?: string | null;
  type: HitType;
  content: string | null;
  hierarchy: Partial<Record<Level, string | null>>;
  _highlightResult?: HighlightResult;
  _snippetResult?: HighlightResult;
  [attribute: string]: unknown;
}

/** An entry of the `indices` option, in object form. */
export interface IndexEntry {
  name: string;
  /** Search parameters of this index's request; they override {@link DEFAULT_SEARCH_PARAMETERS}. */
  searchParameters?: Record<string, unknown>;
}

/** One request of a multi-index search: the index, the query and its parameters. */
export interface SearchRequest extends Record<string, unknown> {
  indexName: string;
  query: string;
}

/** One index's answer to a multi-index search. */
export interface SearchResult {
  hits: DocSearchHit[];
  nbHits?: number;
  [field: string]: unknown;
}

/**
 * What the search box needs of a search client: the v5 `search({requests})`
 * method. `liteClient` from `algoliasearch/lite` is one; `transformSearchClient`
 * may wrap it.
 */
export interface SearchClient {
  search(
    params: { requests: SearchRequest[] },
  ): Promise<{ results: unknown[] }>;
}

/** Queries longer than this many UTF-16 code units are cut to it. */
export const MAX_QUERY_LENGTH = 512;

/** The parameters every request carries unless its index entry overrides them. */
export const DEFAULT_SEARCH_PARAMETERS: Readonly<Record<string, unknown>> = {
  attributesToRetrieve: [
    "hierarchy.lvl0",
    "hierarchy.lvl1",
    "hierarchy.lvl2",
    "hierarchy.lvl3",
    "hierarchy.lvl4",
    "hierarchy.lvl5",
    "hierarchy.lvl6",
    "content",
    "type",
    "url",
  ],
  attributesToSnippet: [
    "hierarchy.lvl1:15",
    "hierarchy.lvl2:15",
    "hierarchy.lvl3:15",
    "hierarchy.lvl4:15",
    "hierarchy.lvl5:15",
    "hierarchy.lvl6:15",
    "content:15",
  ],
  snippetEllipsisText: "…",
  highlightPreTag: "<mark>",
  highlightPostTag: "</mark>",
  hitsPerPage: 20,
};

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
