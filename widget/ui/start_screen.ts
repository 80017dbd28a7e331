/**
 * The start screen (empty query): recent searches with buttons to save them
 * as favorites or remove them, favorite searches with a remove button, or the
 * no-recent-searches text.
 *
 * @module
 */
import type { VNode } from "preact";
import type { GroupItem } from "../groups.ts";
import type { HitComponentProps, Template } from "../options.ts";
import type { DocSearchHit } from "../search.ts";
import type { StartScreenTranslations } from "../translations.ts";
import { Hit } from "./hit.ts";
import { HitSection } from "./hit_section.ts";
import { html } from "./html.ts";
import { closeIcon, recentIcon, starIcon } from "./icons.ts";

/** Props of {@link StartScreen}. */
export interface StartScreenProps {
  recent: DocSearchHit[];
  favorites: DocSearchHit[];
  idPrefix: string;
  /** Index of the active row, counting recent rows first, then favorites. */
  active: number;
  translations: StartScreenTranslations;
  hitComponent: Template<HitComponentProps> | null;
  onSelect(item: GroupItem, event: MouseEvent): void;
  onHover(index: number): void;
  onFavorite(hit: DocSearchHit): void;
  onRemoveRecent(hit: DocSearchHit): void;
  onRemoveFavorite(hit: DocSearchHit): void;
}

const action = (title: string, icon: VNode, onClick: () => void) =>
  html`
    <button
      type="button"
      class="DocSearch-Hit-action-button"
      title=${title}
      tabindex="-1"
      onClick=${(event: MouseEvent) => {
        event.preventDefault();
        event.stopPropagation();
        onClick();
      }}
    >${icon}</button>
  `;

/** The start screen. */
export function StartScreen(props: StartScreenProps): VNode {
  const t = props.translations;
  if (props.recent.length === 0 && props.favorites.length === 0) {
    return html`
      <div class="DocSearch-StartScreen">
        <p class="DocSearch-Help">${t.noRecentSearchesText}</p>
      </div>
    ` as VNode;
  }
  const row = (hit: DocSearchHit, index: number, favorite: boolean) =>
    html`
      <${Hit}
        key=${hit.objectID}
        item=${{ hit, parent: null }}
        id=${`${props.idPrefix}-item-${index}`}
        active=${props.active === index}
        hitComponent=${props.hitComponent}
        icon=${favorite ? starIcon() : recentIcon()}
        actions=${favorite
          ? [action(
            t.removeFavoriteSearchButtonTitle,
            closeIcon(),
            () => props.onRemoveFavorite(hit),
          )]
          : [
            action(t.saveRecentSearchButtonTitle, starIcon(), () => props.onFavorite(hit)),
            action(t.removeRecentSearchButtonTitle, closeIcon(), () => props.onRemoveRecent(hit)),
          ]}
        onSelect=${props.onSelect}
        onHover=${() => props.onHover(index)}
      />
    `;
  const offset = props.recent.length;
  return html`
    ${offset > 0 &&
      html`<${HitSection} id=${`${props.idPrefix}-recent`} title=${t.recentSearchesTitle}>
      ${props.recent.map((hit, i) => row(hit, i, false))}
    <//>`}
    ${props.favorites.length > 0 &&
      html`<${HitSection} id=${`${props.idPrefix}-favorites`} title=${t.favoriteSearchesTitle}>
      ${props.favorites.map((hit, i) => row(hit, offset + i, true))}
    <//>`}
  ` as VNode;
}
