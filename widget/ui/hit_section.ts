/**
 * A titled group of result rows inside the results listbox (`role="group"`
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

/** A `section.DocSearch-Hits` with its `.DocSearch-Hit-source` title and its rows. */
export function HitSection({ id, title, children }: HitSectionProps): VNode {
  return html`
    <section class="DocSearch-Hits" role="group" aria-labelledby=${id}>
      <div class="DocSearch-Hit-source" id=${id}>${title}</div>
      <ul role="presentation">${children}</ul>
    </section>
  ` as VNode;
}
