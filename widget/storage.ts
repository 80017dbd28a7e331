/**
 * Recent and favorite searches in local storage. Every failure of the storage
 * (unavailable, corrupt, full) is swallowed: the lists then read as empty and
 * writes are skipped, so the search box keeps working.
 *
 * @module
 */
import { type GroupItem, pageUrl } from "./groups.ts";
import type { DocSearchHit } from "./search.ts";

/** Favorites kept at most. */
export const MAX_FAVORITES = 10;

/** Where and how many searches to keep. */
export interface SearchStorageOptions {
  environment: Window;
  /** Scope of the keys: the application ID and the first index name. */
  appId: string;
  indexName: string;
  /** When true, nothing is read or written. */
  disabled: boolean;
  recentSearchesLimit: number;
  recentSearchesWithFavoritesLimit: number;
}

/** Recent and favorite searches, newest first, deduplicated by `objectID`. */
export interface SearchStorage {
  recent(): DocSearchHit[];
  favorites(): DocSearchHit[];
  /** Saves a selected hit as a recent search (a `content` hit as its page), unless it is a favorite. */
  addRecent(item: GroupItem): void;
  /** Moves a recent search to the favorites. */
  addFavorite(hit: DocSearchHit): void;
  removeRecent(objectID: string): void;
  removeFavorite(objectID: string): void;
}

/** Creates the storage of one search box. */
export function createSearchStorage(
  options: SearchStorageOptions,
): SearchStorage {
  const scope = `${options.appId}-${options.indexName}`;
  const recentKey = `__DOCSEARCH_RECENT_SEARCHES__${scope}`;
  const favoriteKey = `__DOCSEARCH_FAVORITE_SEARCHES__${scope}`;
  const storage = (): Storage | null => {
    if (options.disabled) return null;
    try {
      return options.environment.localStorage;
    } catch {
      return null;
    }
  };
  const read = (key: string): DocSearchHit[] => {
    try {
      const list: unknown = JSON.parse(storage()?.getItem(key) ?? "[]");
      return Array.isArray(list) ? list.filter(isStoredHit) : [];
    } catch {
      return [];
    }
  };
  const write = (key: string, hits: DocSearchHit[]) => {
    try {
      storage()?.setItem(key, JSON.stringify(hits));
    } catch {
      // full or forbidden storage: the search is not remembered
    }
  };
  const limit = () =>
    read(favoriteKey).length > 0
      ? options.recentSearchesWithFavoritesLimit
      : options.recentSearchesLimit;
  const without = (hits: DocSearchHit[], objectID: string) =>
    hits.filter((hit) => hit.objectID !== objectID);

  return {
    recent: () => read(recentKey).slice(0, limit()),
    favorites: () => read(favoriteKey).slice(0, MAX_FAVORITES),
    addRecent(item) {
      const hit = stored(item);
      if (read(favoriteKey).some((f) => f.objectID === hit.objectID)) return;
      write(
        recentKey,
        [hit, ...without(read(recentKey), hit.objectID)].slice(0, limit()),
      );
    },
    addFavorite(hit) {
      write(recentKey, without(read(recentKey), hit.objectID));
      write(
        favoriteKey,
        [hit, ...without(read(favoriteKey), hit.objectID)].slice(
          0,
          MAX_FAVORITES,
        ),
      );
    },
    removeRecent: (id) => write(recentKey, without(read(recentKey), id)),
    removeFavorite: (id) => write(favoriteKey, without(read(favoriteKey), id)),
  };
}

function isStoredHit(value: unknown): value is DocSearchHit {
  const hit = value as DocSearchHit;
  return typeof hit === "object" && hit !== null &&
    typeof hit.objectID === "string" && typeof hit.url === "string" &&
    typeof hit.hierarchy === "object" && hit.hierarchy !== null;
}

/** The record kept for a selected hit: no highlights; a `content` hit becomes its page. */
function stored({ hit, parent }: GroupItem): DocSearchHit {
  const page: DocSearchHit = hit.type !== "content" ? hit : parent ?? {
    objectID: pageUrl(hit),
    url: pageUrl(hit),
    type: "lvl1",
    content: null,
    hierarchy: { lvl0: hit.hierarchy.lvl0, lvl1: hit.hierarchy.lvl1 },
  };
  const { _highlightResult: _h, _snippetResult: _s, ...plain } = page;
  return plain as DocSearchHit;
}
