/**
 * Keeps keyboard focus inside the modal: Tab from the last focusable element
 * goes to the first, Shift+Tab from the first goes to the last.
 *
 * @module
 */

const FOCUSABLE =
  "a[href],button:not([disabled]),input:not([disabled]),textarea:not([disabled]),select,[tabindex]";

/** Handles a keydown inside `container`, wrapping Tab focus. */
export function trapFocus(event: KeyboardEvent, container: HTMLElement): void {
  if (event.key !== "Tab") return;
  const focusable = [...container.querySelectorAll<HTMLElement>(FOCUSABLE)]
    .filter(
      (element) => element.tabIndex >= 0 && element.getClientRects().length > 0,
    );
  if (focusable.length === 0) return;
  const first = focusable[0];
  const last = focusable.at(-1)!;
  const current = container.ownerDocument.activeElement;
  if (event.shiftKey ? current === first : current === last) {
    event.preventDefault();
    (event.shiftKey ? last : first).focus();
  }
}
