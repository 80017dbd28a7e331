/**
 * `theme: "light" | "dark"` as DocSearch 4.7.1 applies it: the page's
 * `html` element gets `data-theme` while the search box (or the Sidepanel)
 * is mounted, and its former value back afterwards.
 *
 * @module
 */

/** Sets `data-theme` for `theme` (nothing for `"auto"` or none); returns the function that restores it. */
export function setPageTheme(
  environment: Window,
  theme: "light" | "dark" | "auto" | undefined,
): () => void {
  if (!theme || theme === "auto") return () => {};
  const root = environment.document.documentElement.dataset;
  const before = root.theme;
  root.theme = theme;
  return () => void (before ? root.theme = before : delete root.theme);
}
