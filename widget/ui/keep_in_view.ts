/**
 * Scrolls the modal's list so that the active row is visible, below its
 * group's sticky title. Only the list scrolls: `scrollIntoView` would also
 * scroll the page behind the modal, losing the reader's place.
 *
 * @module
 */

/** Scrolls `list` (a scrolling ancestor of `row`) by the least amount that shows `row`. */
export function keepInView(list: HTMLElement, row: HTMLElement): void {
  const box = list.getBoundingClientRect();
  const rect = row.getBoundingClientRect();
  const title = row.closest(".DocSearch-Hits")?.querySelector<HTMLElement>(".DocSearch-Hit-source");
  const top = box.top + (title?.offsetHeight ?? 0);
  if (rect.top < top) list.scrollTop -= top - rect.top;
  else if (rect.bottom > box.bottom) list.scrollTop += rect.bottom - box.bottom;
}
