/**
 * Scrolls the modal's list so that the active row is visible, below its
 * group's sticky title (with the title itself for a group's first row). Only
 * the list scrolls: `scrollIntoView` would also scroll the page behind the
 * modal, losing the reader's place.
 *
 * @module
 */

/** Scrolls `list` (a scrolling ancestor of `row`) by the least amount that shows `row`. */
export function keepInView(list: HTMLElement, row: HTMLElement): void {
  const box = list.getBoundingClientRect();
  const rect = row.getBoundingClientRect();
  const group = row.closest(".DocSearch-Hits");
  const title = group?.querySelector<HTMLElement>(".DocSearch-Hit-source");
  // a group's first row: its title in view too; another row: below the sticky title
  const [top, limit] = title?.nextElementSibling?.contains(row)
    ? [group!.getBoundingClientRect().top, box.top]
    : [rect.top, box.top + (title?.offsetHeight ?? 0)];
  if (top < limit) list.scrollTop -= limit - top;
  else if (rect.bottom > box.bottom) list.scrollTop += rect.bottom - box.bottom;
}
