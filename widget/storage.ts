/**
 * Recent and favorite searches in local storage, under DocSearch 4.7.1's
 * keys (`__DOCSEARCH_RECENT_SEARCHES__<index>` and
 * `__DOCSEARCH_FAVORITE_SEARCHES__<index>`, the first index's name) and in
 * its shape (hits without highlights), so a page that moves from DocSearch
 * keeps its users' searches, and back. Every failure of the storage
 * (unavailable, corrupt, full) is swallowed (`./stored_list.ts`): the lists
 * then read as empty and writes are skipped, so the search box keeps working.
 * A stored hit whose URL is unsafe (`./safe_url.ts`) is not read.
 *
 * @module
 */
import { type GroupItem, pageUrl } from "./groups.ts";
import type { ResolvedOptions } from "./options.ts";
import type { DocSearchHit } from "./search.ts";
import { isSafeUrl } from "./safe_url.ts";
import { storedItem, storedList } from "./stored_list.ts";

/** Favorites kept at most. */
export const MAX_FAVORITES = 10;

/**
 * Where and how many searches to keep: the options' `environment`, the
 * keys' scope (the first of `indices`), nothing read or written with
 * `disableUserPersonalization`, and the limits.
 */
export type SearchStorageOptions = Pick<
  ResolvedOptions,
  | "environment"
  | "indices"
  | "disableUserPersonalization"
  | "recentSearchesLimit"
  | "recentSearchesWithFavoritesLimit"
>;

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
  const scope = options.indices[0].name;
  const store = (key: string) =>
    storedList<DocSearchHit>(
      storedItem(options.environment, "localStorage", key, options.disableUserPersonalization),
      isStoredHit,
    );
  const recents = store(`__DOCSEARCH_RECENT_SEARCHES__${scope}`);
  const favorites = store(`__DOCSEARCH_FAVORITE_SEARCHES__${scope}`);
  const limit = () =>
    favorites.read().length > 0
      ? options.recentSearchesWithFavoritesLimit
      : options.recentSearchesLimit;
  const without = (hits: DocSearchHit[], objectID: string) =>
    hits.filter((hit) => hit.objectID !== objectID);

  return {
    recent: () => recents.read().slice(0, limit()),
    favorites: () => favorites.read().slice(0, MAX_FAVORITES),
    addRecent(item) {
      const hit = stored(item);
      if (favorites.read().some((f) => f.objectID === hit.objectID)) return;
      recents.write(
        [hit, ...without(recents.read(), hit.objectID)].slice(0, limit()),
      );
    },
    addFavorite(hit) {
      recents.write(without(recents.read(), hit.objectID));
      favorites.write(
        [hit, ...without(favorites.read(), hit.objectID)].slice(
          0,
          MAX_FAVORITES,
        ),
      );
    },
    removeRecent: (id) => recents.write(without(recents.read(), id)),
    removeFavorite: (id) => favorites.write(without(favorites.read(), id)),
  };
}

function isStoredHit(value: unknown): value is DocSearchHit {
  const hit = value as DocSearchHit;
  return typeof hit === "object" && hit !== null &&
    typeof hit.objectID === "string" && isSafeUrl(hit.url) &&
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
