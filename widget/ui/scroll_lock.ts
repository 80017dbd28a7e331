/**
 * Locks the page's scrolling while the modal is open, without layout shift:
 * the scrollbar's width is added to the body's right padding.
 *
 * @module
 */

/** Locks scrolling of `environment`'s page; returns the function that restores it. */
export function lockScroll(environment: Window): () => void {
  const { body, documentElement } = environment.document;
  const scrollbar = environment.innerWidth - documentElement.clientWidth;
  const { overflow, paddingRight } = body.style;
  const padding = parseFloat(environment.getComputedStyle(body).paddingRight) ||
    0;
  body.style.overflow = "hidden";
  if (scrollbar > 0) body.style.paddingRight = `${padding + scrollbar}px`;
  return () => {
    body.style.overflow = overflow;
    body.style.paddingRight = paddingRight;
  };
}
