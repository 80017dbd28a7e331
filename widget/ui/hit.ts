/**
 * One result row: an option of the results list showing the hit's title and
 * path chosen by its `type` (`lvl1`: the page title over its content;
 * `lvl2`-`lvl6`: the heading over the page title; `content`: the text over the
 * page title), wrapped by `hitComponent` (default: a link to `hit.url`).
 *
 * @module
 */
import type { ComponentChildren, VNode } from "preact";
import type { GroupItem } from "../groups.ts";
import type { HitComponentProps, Template } from "../options.ts";
import type { DocSearchHit, Level } from "../search.ts";
import { safeHref } from "../safe_url.ts";
import { Highlight } from "./highlight.ts";
import { html } from "./html.ts";
import { contentIcon, enterIcon, hashIcon, pageIcon, treeIcon } from "./icons.ts";
import { renderTemplate } from "./template.ts";

/** Props of {@link Hit}. */
export interface HitProps {
  item: GroupItem;
  /** The element id of the link's cell (for `aria-activedescendant`). */
  id: string;
  active: boolean;
  hitComponent: Template<HitComponentProps> | null;
  /** The hit is the last child of its parent in the list (its tree connector ends). */
  lastChild?: boolean;
  /** Icon in front of the texts; default by `type`. */
  icon?: VNode;
  /** Buttons after the link (save, remove), each in a cell, instead of the enter hint. */
  actions?: ComponentChildren[];
  onSelect(item: GroupItem, event: MouseEvent): void;
  onHover(): void;
}

/** The title and the path of a hit, with highlight tags, per its `type`. */
export function hitTexts(hit: DocSearchHit): [string, string | null] {
  const text = (attribute: Level | "content") => {
    const pick = (r: DocSearchHit["_highlightResult"]) =>
      attribute === "content" ? r?.content : r?.hierarchy?.[attribute];
    return (pick(hit._snippetResult) ?? pick(hit._highlightResult))?.value ??
      (attribute === "content" ? hit.content : hit.hierarchy?.[attribute]) ??
      null;
  };
  if (hit.type === "content") return [text("content") ?? "", text("lvl1")];
  if (hit.type === "lvl1") return [text("lvl1") ?? "", text("content")];
  return [text(hit.type) ?? "", text("lvl1")];
}

/**
 * A result row of the modal's grid (WAI-ARIA 1.2 combobox with a grid
 * popup), structured as DocSearch v4's so its themes apply
 * (`.DocSearch-Hit[aria-selected=true] a`): `div.DocSearch-Hit` is the row;
 * its cells are the hit's link (or the `hitComponent` output; the active
 * descendant) and each action button. A grid rather than a listbox: options
 * may hold neither links nor buttons.
 */
export function Hit(props: HitProps): VNode {
  const { item, hitComponent } = props;
  const { hit } = item;
  const [title, path] = hitTexts(hit);
  const children = html`<div class="DocSearch-Hit-Container">
    ${item.parent && html`<div class="DocSearch-Hit-Tree">${treeIcon(!!props.lastChild)}</div>`}
    <div class="DocSearch-Hit-icon">${
    props.icon ??
      (hit.type === "lvl1" ? pageIcon() : hit.type === "content" ? contentIcon() : hashIcon())
  }</div>
    <div class="DocSearch-Hit-content-wrapper">
      <span class="DocSearch-Hit-title"><${Highlight} value=${title} /></span>
      ${
    path &&
    html`<span class="DocSearch-Hit-path"><${Highlight} value=${path} /></span>`
  }
    </div>
    ${
    !props.actions &&
    html`<div class="DocSearch-Hit-action">${enterIcon()}</div>`
  }
  </div>` as VNode;
  // an unsafe URL (javascript:, data:, vbscript:) reaches neither the link nor the template
  const href = safeHref(hit.url);
  const content = hitComponent
    ? renderTemplate(hitComponent, { hit: href === hit.url ? hit : { ...hit, url: "" }, children })
    : html`<a href=${href} tabindex="-1">${children}</a>`;
  return html`
    <div
      class=${`DocSearch-Hit${item.parent ? " DocSearch-Hit--Child" : ""}`}
      role="row"
      aria-selected=${props.active}
      onMouseMove=${() => !props.active && props.onHover()}
      onClick=${(event: MouseEvent) => props.onSelect(item, event)}
    >
      <div class="DocSearch-Hit-cell" id=${props.id} role="gridcell">${content}</div>
      ${props.actions?.map((button) =>
        html`<div class="DocSearch-Hit-action-cell" role="gridcell">${button}</div>`
      )}
    </div>
  ` as VNode;
}
