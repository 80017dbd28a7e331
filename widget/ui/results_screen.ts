/**
 * The results screen: one section per group, rows numbered across groups for
 * keyboard navigation, then the integrator's `resultsFooterComponent`.
 *
 * @module
 */
import type { VNode } from "preact";
import type { Group, GroupItem } from "../groups.ts";
import type { HitComponentProps, ResultsFooterProps, SearchState, Template } from "../options.ts";
import { Hit } from "./hit.ts";
import { HitSection } from "./hit_section.ts";
import { html } from "./html.ts";
import { renderTemplate } from "./template.ts";

/** Props of {@link ResultsScreen}. */
export interface ResultsScreenProps {
  groups: Group[];
  idPrefix: string;
  /** Number of rows before the first hit (the Ask AI row). */
  offset: number;
  active: number;
  hitComponent: Template<HitComponentProps> | null;
  onSelect(item: GroupItem, event: MouseEvent): void;
  onHover(index: number): void;
}

/** The grouped results. */
export function ResultsScreen(props: ResultsScreenProps): VNode {
  let index = props.offset;
  return html`${
    props.groups.map((group, g) =>
      html`<${HitSection} key=${group.title} id=${`${props.idPrefix}-group-${g}`} title=${group.title}>
        ${
        group.items.map((item, n) => {
          const i = index++;
          return html`
            <${Hit}
              key=${item.hit.objectID}
              item=${item}
              lastChild=${item.parent !== group.items[n + 1]?.parent}
              id=${`${props.idPrefix}-item-${i}`}
              active=${props.active === i}
              hitComponent=${props.hitComponent}
              onSelect=${props.onSelect}
              onHover=${() => props.onHover(i)}
            />
          `;
        })
      }
      <//>`
    )
  }` as VNode;
}

/** The `resultsFooterComponent` output, in `section.DocSearch-HitsFooter`. */
export function ResultsFooter(
  { template, state }: {
    template: Template<ResultsFooterProps>;
    state: SearchState;
  },
): VNode {
  return html`<section class="DocSearch-HitsFooter">
    ${renderTemplate(template, { state })}
  </section>` as VNode;
}
