/**
 * A titled group of result rows inside the modal's grid (`role="rowgroup"`
 * labelled by its title, as DocSearch's `.DocSearch-Hits` sections).
 *
 * @module
 */
import type { ComponentChildren, VNode } from "preact";
import { html } from "./html.ts";

/** Props of {@link HitSection}. */
export interface HitSectionProps {
  id: string;
  title: string;
  children: ComponentChildren;
}

/**
 * A `div.DocSearch-Hits` row group whose first row is its `.DocSearch-Hit-source` title, a `p`,
 * so that its first hit is `.DocSearch-Hit:first-of-type` as in DocSearch's lists (its
 * stylesheet gives that one a top margin).
 */
export function HitSection({ id, title, children }: HitSectionProps): VNode {
  return html`
    <div class="DocSearch-Hits" role="rowgroup" aria-labelledby=${id}>
      <p class="DocSearch-Hit-source" role="row">
        <span role="rowheader" id=${id}>${title}</span>
      </p>
      ${children}
    </div>
  ` as VNode;
}
