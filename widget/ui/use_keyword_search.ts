/**
 * The modal's keyword search: the query (at most `MAX_QUERY_LENGTH`
 * characters), the search it runs on every change, its grouped results and
 * its status: `"stalled"` when an answer takes more than
 * {@link STALLED_DELAY_MS}, `"error"` when the search fails. Stale answers
 * (the search resolves `null`) are ignored.
 *
 * @module
 */
import { useEffect, useRef, useState } from "preact/hooks";
import { type Group, groupHits } from "../groups.ts";
import type { ResolvedOptions } from "../options.ts";
import { MAX_QUERY_LENGTH, type SearchResult } from "../search.ts";

/** Delay before a pending search shows the loading indicator, in milliseconds. */
export const STALLED_DELAY_MS = 300;

/** The grouped results of one query. */
export interface KeywordResults {
  query: string;
  groups: Group[];
  /** Hits of all indices, as the search engine counts them. */
  nbHits: number;
}

/**
 * State of {@link useKeywordSearch}: the query; its setter; the status; the last answered results
 * (kept while the next query is pending); the group titles of the last
 * results that had any (the no-results screen's suggestions).
 */
export type KeywordSearch = [
  query: string,
  setQuery: (query: string) => void,
  status: "idle" | "stalled" | "error",
  results: KeywordResults | null,
  suggestions: string[],
];

/**
 * Searches the query with `search` on every change (an empty query only
 * cancels the pending one) and calls `onResults` when an answer arrives.
 * `initialQuery` is cut to `MAX_QUERY_LENGTH` characters; the setter takes
 * the query as given.
 */
export function useKeywordSearch(
  options: ResolvedOptions,
  search: (query: string) => Promise<SearchResult[] | null>,
  initialQuery: string,
  onResults: () => void,
): KeywordSearch {
  const env = options.environment;
  const [query, setQuery] = useState(initialQuery.slice(0, MAX_QUERY_LENGTH));
  const [status, setStatus] = useState<KeywordSearch[2]>("idle");
  const [results, setResults] = useState<KeywordResults | null>(null);
  const suggestions = useRef<string[]>([]);

  useEffect(() => {
    if (query === "") {
      setStatus("idle");
      search(query);
      return;
    }
    const timer = env.setTimeout(() => setStatus("stalled"), STALLED_DELAY_MS);
    search(query).then((answer) => {
      if (!answer) return;
      env.clearTimeout(timer);
      const hits = options.transformItems(answer.flatMap((r) => r?.hits ?? []));
      const groups = groupHits(hits, options.maxResultsPerGroup);
      if (groups.length > 0) suggestions.current = groups.map((g) => g.title).filter(Boolean);
      const nbHits = answer.reduce((n, r) => n + (r?.nbHits ?? r?.hits?.length ?? 0), 0);
      setResults({ query, groups, nbHits });
      setStatus("idle");
      onResults();
    }, () => {
      env.clearTimeout(timer);
      setStatus("error");
    });
    return () => env.clearTimeout(timer);
  }, [query]);

  return [query, setQuery, status, results, suggestions.current];
}
