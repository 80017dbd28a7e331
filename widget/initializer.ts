/**
 * The initializer of the script package: `searchBox(options)` renders the
 * search button, and the modal when open, into `options.container`.
 *
 * @module
 */
import { h, render } from "preact";
import { resolveOptions, type SearchBoxOptions } from "./options.ts";
import { SearchBoxRoot } from "./ui/search_box.ts";

/**
 * Renders the search box into `options.container` (a CSS selector, of which
 * the first match is used, or an element).
 *
 * @example Keyword search over two indices, with Ask AI
 * ```ts
 * import { searchBox } from "@mikrogql/ext/widget";
 *
 * const destroy = searchBox({
 *   container: "#search",
 *   appId: "YOUR_APP_ID",
 *   apiKey: "YOUR_SEARCH_API_KEY",
 *   indices: ["docs", { name: "blog", searchParameters: { hitsPerPage: 5 } }],
 *   askAi: "YOUR_ASSISTANT_ID",
 * });
 * // later, e.g. when the page's router leaves the page:
 * destroy();
 * ```
 *
 * @returns a function that removes the search box again.
 * @throws {Error} when `container` is missing or matches nothing, or another
 * option is invalid; the message names the option.
 */
export function searchBox(options: SearchBoxOptions): () => void {
  const resolved = resolveOptions(options);
  const { container } = options;
  const element = typeof container === "string"
    ? resolved.environment.document.querySelector(container)
    : container;
  if (!element || typeof (element as Element).nodeType !== "number") {
    throw new Error(
      `\`container\` must be a CSS selector that matches an element, or an element; got ${
        JSON.stringify(container)
      }`,
    );
  }
  render(h(SearchBoxRoot, { options: resolved }), element);
  return () => render(null, element);
}
