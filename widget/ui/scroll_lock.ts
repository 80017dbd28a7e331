/**
 * Locks the page's scrolling while the modal is open (`DocSearch--active` on
 * the body), without layout shift and without losing the reader's place: the
 * scrollbar's width is measured before the lock hides it and added to the
 * body's right padding; on release the scroll position is put back.
 *
 * @module
 */

/** Locks scrolling of `environment`'s page; returns the function that restores it. */
export function lockScroll(environment: Window): () => void {
  const { body, documentElement } = environment.document;
  const { scrollX, scrollY } = environment;
  // measured before `overflow: hidden` removes the scrollbar
  const scrollbar = environment.innerWidth - documentElement.clientWidth;
  const { paddingRight } = body.style;
  const padding = parseFloat(environment.getComputedStyle(body).paddingRight) || 0;
  body.classList.add("DocSearch--active");
  if (scrollbar > 0) body.style.paddingRight = `${padding + scrollbar}px`;
  return () => {
    body.classList.remove("DocSearch--active");
    body.style.paddingRight = paddingRight;
    if (environment.scrollX !== scrollX || environment.scrollY !== scrollY) {
      environment.scrollTo(scrollX, scrollY);
    }
  };
}
