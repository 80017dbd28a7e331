/**
 * The `container` option of `searchBox()` and `sidePanel()`: a CSS selector
 * (its first match) or an element.
 *
 * @module
 */

/**
 * The element `container` names in `environment`'s document.
 *
 * @throws {Error} when `container` is missing, matches nothing, or is not an element.
 */
export function containerElement(environment: Window, container: unknown): Element {
  const element = typeof container === "string"
    ? environment.document.querySelector(container)
    : container;
  if (!element || typeof (element as Element).nodeType !== "number") {
    throw new Error(
      `\`container\` must be a CSS selector that matches an element, or an element; got ${
        JSON.stringify(container)
      }`,
    );
  }
  return element as Element;
}
