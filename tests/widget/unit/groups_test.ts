/// <reference lib="dom" />
/**
 * `widget/groups.ts`: hits to result groups (one per lvl0 in first-arrival
 * order, capped, a page's hits together behind its lvl1 hit) and the
 * highlight and URL helpers.
 */
import { assertEquals } from "@std/assert";
import { groupHits, pageUrl, stripHighlight } from "../../../widget/groups.ts";
import type { DocSearchHit, HitType } from "../../../widget/search.ts";

const hit = (objectID: string, type: HitType, lvl0: string, url: string): DocSearchHit => ({
  objectID,
  url,
  type,
  content: type === "content" ? `text of ${objectID}` : null,
  hierarchy: { lvl0, lvl1: `page of ${objectID}` },
});

const shape = (groups: ReturnType<typeof groupHits>) =>
  groups.map((g) => [g.title, g.items.map((i) => `${i.hit.objectID}<${i.parent?.objectID ?? ""}`)]);

Deno.test("stripHighlight removes the <mark> tags only", () => {
  assertEquals(stripHighlight("<mark>Pag</mark>ination <b>x</b>"), "Pagination <b>x</b>");
});

Deno.test("pageUrl is the URL without its anchor", () => {
  assertEquals(pageUrl(hit("a", "lvl2", "Guides", "/docs/a.html#x")), "/docs/a.html");
  assertEquals(pageUrl(hit("a", "lvl1", "Guides", "/docs/a.html")), "/docs/a.html");
});

Deno.test("groups by lvl0 in the order their first hit came, capped per group", () => {
  const hits = [
    hit("g1", "lvl2", "Guides", "/g/1#a"),
    hit("r1", "lvl2", "Reference", "/r/1#a"),
    hit("g2", "lvl2", "Guides", "/g/2#a"),
    hit("g3", "lvl2", "Guides", "/g/3#a"),
    hit("r2", "lvl2", "Reference", "/r/2#a"),
  ];
  assertEquals(shape(groupHits(hits, 2)), [
    ["Guides", ["g1<", "g2<"]],
    ["Reference", ["r1<", "r2<"]],
  ]);
});

Deno.test("a page's hits stand together behind its lvl1 hit, which is their parent", () => {
  const hits = [
    hit("a-sec", "lvl2", "Guides", "/a#sec"),
    hit("b-sec", "lvl2", "Guides", "/b#sec"),
    hit("a-page", "lvl1", "Guides", "/a"),
    hit("a-text", "content", "Guides", "/a#text"),
  ];
  assertEquals(shape(groupHits(hits, 5)), [
    ["Guides", ["a-page<", "a-sec<a-page", "a-text<a-page", "b-sec<"]],
  ]);
});

Deno.test("a page without its lvl1 hit in the group has no parent for its hits", () => {
  const hits = [hit("a1", "lvl2", "Guides", "/a#1"), hit("a2", "content", "Guides", "/a#2")];
  assertEquals(shape(groupHits(hits, 5)), [["Guides", ["a1<", "a2<"]]]);
});

Deno.test("lvl0 comes from the highlight, without tags, when the hierarchy lacks it", () => {
  const bare: DocSearchHit = {
    ...hit("x", "lvl2", "", "/x#1"),
    hierarchy: {},
    _highlightResult: { hierarchy: { lvl0: { value: "<mark>Gui</mark>des" } } },
  };
  assertEquals(groupHits([bare], 5).map((g) => g.title), ["Guides"]);
});
