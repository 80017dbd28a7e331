/**
 * Hits to result groups: one group per `hierarchy.lvl0`, groups in the order
 * their first hit arrived (so index priority order), at most
 * `maxResultsPerGroup` hits each, hits of one page kept together.
 *
 * @module
 */
import { decodeEntities } from "./entities.ts";
import type { DocSearchHit } from "./search.ts";

/** A hit in a group; `parent` is the page hit it sits under, when the group holds it. */
export interface GroupItem {
  hit: DocSearchHit;
  parent: DocSearchHit | null;
}

/** A titled group of hits (the title is the plain `lvl0` text, character references decoded). */
export interface Group {
  title: string;
  items: GroupItem[];
}

const MARK_TAGS = /<\/?mark>/g;

/** Removes the `<mark>` highlight tags from a highlighted value. */
export function stripHighlight(value: string): string {
  return value.replace(MARK_TAGS, "");
}

/** The page a hit belongs to: its URL without the anchor. */
export function pageUrl(hit: DocSearchHit): string {
  return hit.url.split("#")[0];
}

/**
 * Groups hits by `hierarchy.lvl0`: at most `maxPerGroup` hits per group (the
 * first ones in response order); inside a group, hits of one page are moved
 * together behind the page's first hit (its `lvl1` hit first when present),
 * and every other hit of a page whose `lvl1` hit is in the group gets that hit
 * as `parent`.
 */
export function groupHits(hits: DocSearchHit[], maxPerGroup: number): Group[] {
  const groups = new Map<string, DocSearchHit[]>();
  for (const hit of hits) {
    const lvl0 = hit.hierarchy?.lvl0 ??
      hit._highlightResult?.hierarchy?.lvl0?.value ?? "";
    const title = decodeEntities(stripHighlight(lvl0));
    const members = groups.get(title) ?? [];
    if (members.length < maxPerGroup) members.push(hit);
    groups.set(title, members);
  }
  return [...groups].map(([title, members]) => {
    const pages = new Map<string, DocSearchHit[]>();
    for (const hit of members) {
      const page = pages.get(pageUrl(hit)) ?? [];
      if (hit.type === "lvl1") page.unshift(hit);
      else page.push(hit);
      pages.set(pageUrl(hit), page);
    }
    const items = [...pages.values()].flatMap((page) => {
      const parent = page[0].type === "lvl1" ? page[0] : null;
      return page.map((hit) => ({
        hit,
        parent: hit === parent ? null : parent,
      }));
    });
    return { title, items };
  });
}
