/// <reference lib="dom" />
/**
 * `widget/storage.ts`: recent and favorite searches in local storage (keys,
 * what a selected hit is stored as, the limits, favorites out of the recent
 * list), over a memory `Storage`.
 */
import { assertEquals } from "@std/assert";
import { createSearchStorage, MAX_FAVORITES } from "../../../widget/storage.ts";
import type { DocSearchHit, HitType } from "../../../widget/search.ts";
import { MemoryStorage, windowWith } from "./fake_storage.ts";

const RECENT = "__DOCSEARCH_RECENT_SEARCHES__docs";
const FAVORITE = "__DOCSEARCH_FAVORITE_SEARCHES__docs";

const hit = (objectID: string, type: HitType = "lvl2", url = `/p#${objectID}`): DocSearchHit => ({
  objectID,
  url,
  type,
  content: type === "content" ? "text" : null,
  hierarchy: { lvl0: "Guides", lvl1: "Page", lvl2: type === "lvl2" ? objectID : null },
  _highlightResult: { hierarchy: { lvl1: { value: "<mark>Pa</mark>ge" } } },
  _snippetResult: { content: { value: "…" } },
});

function setup(options: { disabled?: boolean; limit?: number; withFavorites?: number } = {}) {
  const local = new MemoryStorage();
  const storage = createSearchStorage({
    environment: windowWith(local),
    indices: [{ name: "docs" }, { name: "blog" }],
    disableUserPersonalization: options.disabled ?? false,
    recentSearchesLimit: options.limit ?? 7,
    recentSearchesWithFavoritesLimit: options.withFavorites ?? 4,
  });
  const ids = (key: string) =>
    (JSON.parse(local.getItem(key) ?? "[]") as DocSearchHit[]).map((h) => h.objectID);
  return { local, storage, ids };
}

Deno.test("a selected hit is stored without highlights, newest first, once", () => {
  const { local, storage, ids } = setup();
  storage.addRecent({ hit: hit("a"), parent: null });
  storage.addRecent({ hit: hit("b"), parent: null });
  storage.addRecent({ hit: hit("a"), parent: null });
  assertEquals(ids(RECENT), ["a", "b"]);
  assertEquals(storage.recent().map((h) => h.objectID), ["a", "b"]);
  const [stored] = JSON.parse(local.getItem(RECENT)!);
  assertEquals("_highlightResult" in stored || "_snippetResult" in stored, false);
});

Deno.test("a content hit is stored as its page: the parent hit, else a page record", () => {
  const { storage } = setup();
  const page = hit("page", "lvl1", "/p");
  storage.addRecent({ hit: hit("text", "content", "/p#t"), parent: page });
  storage.addRecent({ hit: hit("orphan", "content", "/q#t"), parent: null });
  const [made, parent] = storage.recent();
  assertEquals(parent.objectID, "page");
  assertEquals(made, {
    objectID: "/q",
    url: "/q",
    type: "lvl1",
    content: null,
    hierarchy: { lvl0: "Guides", lvl1: "Page" },
  });
});

Deno.test("recent searches: recentSearchesLimit, then the smaller limit once a favorite exists", () => {
  const { storage, ids } = setup({ limit: 3, withFavorites: 2 });
  for (const id of ["a", "b", "c", "d"]) storage.addRecent({ hit: hit(id), parent: null });
  assertEquals(ids(RECENT), ["d", "c", "b"]);
  storage.addFavorite(hit("c"));
  assertEquals(ids(FAVORITE), ["c"]);
  assertEquals(ids(RECENT), ["d", "b"], "a favorite leaves the recent searches");
  storage.addRecent({ hit: hit("e"), parent: null });
  assertEquals(ids(RECENT), ["e", "d"]);
  storage.addRecent({ hit: hit("c"), parent: null });
  assertEquals(ids(RECENT), ["e", "d"], "a favorite is not also recent");
});

Deno.test("favorites: newest first, at most MAX_FAVORITES; removals", () => {
  const { storage, ids } = setup();
  for (let i = 0; i <= MAX_FAVORITES; i++) storage.addFavorite(hit(`f${i}`));
  assertEquals(ids(FAVORITE).length, MAX_FAVORITES);
  assertEquals(ids(FAVORITE)[0], `f${MAX_FAVORITES}`);
  assertEquals(storage.favorites().length, MAX_FAVORITES);
  storage.removeFavorite(`f${MAX_FAVORITES}`);
  assertEquals(ids(FAVORITE)[0], `f${MAX_FAVORITES - 1}`);
  storage.addRecent({ hit: hit("r"), parent: null });
  storage.removeRecent("r");
  assertEquals(ids(RECENT), []);
});

Deno.test("disabled: nothing is read or written", () => {
  const { local, storage } = setup({ disabled: true });
  local.setItem(RECENT, JSON.stringify([hit("old")]));
  assertEquals(storage.recent(), []);
  storage.addRecent({ hit: hit("a"), parent: null });
  storage.addFavorite(hit("b"));
  assertEquals([...local.items.keys()], [RECENT]);
});
